import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import staticFiles from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { answerNotFound, restEnvelope } from '../api/error-handler.js';

/** Where `npm run build` puts the web app (from src/http and from dist/http alike). */
const WEB_ROOT = resolve(import.meta.dirname, '../../dist/web');

// Paths that belong to the server (or are missing built files), never to the single-page app's router.
const SERVER_PATHS = /^\/(api|_sim|f|assets|healthz|readyz|metrics)(\/|$|\?)/;

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Parley</title>
<p style="font:16px system-ui;margin:3rem">The web app is not built. Run <code>npm run build</code> and start again.</p>`;

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/**
 * The web app at `/`: hashed assets served as files (cached for good), and index.html for every
 * other GET that is not the server's own (the app's router takes it from there).
 */
export async function registerWebApp(app: FastifyInstance): Promise<void> {
  const built = existsSync(join(WEB_ROOT, 'index.html'));
  const index = built ? readFileSync(join(WEB_ROOT, 'index.html'), 'utf8') : NOT_BUILT;
  if (built) {
    await app.register(staticFiles, {
      root: WEB_ROOT,
      prefix: '/',
      wildcard: false,
      index: false,
      decorateReply: false,
      preCompressed: true,
      setHeaders: (res, path) => {
        if (path.includes('/assets/')) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  const sendIndex = (reply: FastifyReply) => reply.code(200).headers(HTML_HEADERS).send(index);
  app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url;
    if ((request.method === 'GET' || request.method === 'HEAD') && !SERVER_PATHS.test(path)) {
      return sendIndex(reply);
    }
    return answerNotFound(restEnvelope, request, reply);
  });
}
