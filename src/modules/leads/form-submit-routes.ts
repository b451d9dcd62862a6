import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answerErrorsWith, type IntakeFailure, intakeEnvelope } from '../../api/error-handler.js';
import { ApiError } from '../../api/errors.js';
import { clientAddressKey } from '../../lib/client-address.js';
import { activeFormByToken } from '../forms/find-form.js';
import { errorPage, formPage, PAGE_HEADERS, thankYouPage } from '../forms/html.js';
import { createFormRateLimiter } from '../rate-limit/create-limiter.js';
import type { LimitDecision } from '../rate-limit/limiter.js';
import { FormSubmitBody } from './schemas.js';
import { submitForm } from './submit-form.js';

const FORM_BODY_LIMIT = 64 * 1024;
const URLENCODED = 'application/x-www-form-urlencoded';

/** A plain HTML form posted by a browser gets pages back; everyone else gets the JSON envelope. */
function wantsHtml(request: FastifyRequest): boolean {
  return (
    (request.headers['content-type'] ?? '').toLowerCase().startsWith(URLENCODED) &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/**
 * A browser's refused submission: a field at fault shows the form again with what was typed and
 * each error beside its field; anything else gets a page saying what happened.
 */
async function page(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  failure: IntakeFailure,
): Promise<FastifyReply> {
  reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8');
  const values = (request.body ?? {}) as Record<string, unknown>;
  const form =
    failure.details && typeof values.token === 'string'
      ? // The database failing here leaves the short page, not a second error inside the handler.
        await activeFormByToken(app.ctx.db, values.token).catch(() => null)
      : null;
  if (!form) return reply.send(errorPage(reply.statusCode, failure.error));
  const errors: Record<string, string> = {};
  for (const d of failure.details ?? []) errors[d.field.split('.')[0]!] ??= d.message;
  return reply.send(formPage(form, '/api/forms/submit', { values, errors }));
}

/** Repeated names become a list, as a checkbox group sends them. */
function parseUrlencoded(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    const had = out[key];
    out[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return { ...out };
}

/**
 * POST /api/forms/submit: JSON or urlencoded, CORS open (embeds post from any site), at most 5
 * submissions a minute per client address (X-Forwarded-For believed only with TRUST_PROXY).
 */
export async function formSubmitRoutes(app: FastifyInstance): Promise<void> {
  const limiter = createFormRateLimiter(app.ctx.config.redisUrl, app.ctx.log);
  app.addHook('onClose', async () => limiter.close());
  const policy = `"address";q=${limiter.limit};w=${limiter.windowMs / 1000}`;

  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(
    URLENCODED,
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, parseUrlencoded(body as string)),
  );
  answerErrorsWith(
    app,
    intakeEnvelope({
      unsupportedMediaType:
        'Send the form as JSON (application/json) or urlencoded (application/x-www-form-urlencoded)',
      render: (request, reply, failure) => (wantsHtml(request) ? page(app, request, reply, failure) : null),
    }),
  );
  app.addHook('onRequest', async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    if (request.method === 'OPTIONS') {
      reply.header('access-control-allow-methods', 'POST, OPTIONS');
      reply.header(
        'access-control-allow-headers',
        request.headers['access-control-request-headers'] ?? 'content-type',
      );
      reply.header('access-control-max-age', '86400');
    }
  });

  const limitPerAddress = async (request: FastifyRequest, reply: FastifyReply) => {
    let d: LimitDecision;
    try {
      d = await limiter.hit(clientAddressKey(request.ip));
    } catch {
      // The counter store is down (the limiter logs the outage once): let the submission through.
      return;
    }
    reply.header('RateLimit-Policy', policy);
    reply.header('RateLimit', `"address";r=${d.remaining};t=${d.resetSeconds}`);
    if (!d.allowed) {
      reply.header('Retry-After', String(d.resetSeconds));
      throw new ApiError(
        'rate_limited',
        `Too many submissions from this address (at most ${limiter.limit} a minute); retry after ${d.resetSeconds} seconds`,
      );
    }
  };

  app.options('/submit', { schema: { hide: true } }, async (_request, reply) => reply.code(204).send());

  app.post<{ Body: FormSubmitBody }>(
    '/submit',
    { bodyLimit: FORM_BODY_LIMIT, onRequest: limitPerAddress, schema: { hide: true, body: FormSubmitBody } },
    async (request, reply) => {
      const { leadId, form } = await submitForm(app.ctx, request.body);
      if (!wantsHtml(request)) return reply.code(201).send({ success: true, lead_id: leadId });
      if (form.redirectUrl) return reply.redirect(form.redirectUrl, 303);
      return reply
        .code(201)
        .headers(PAGE_HEADERS)
        .type('text/html; charset=utf-8')
        .send(thankYouPage(form.thankYouMessage));
    },
  );
}
