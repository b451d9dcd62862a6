import type { FastifyInstance } from 'fastify';
import { sha256Hex } from '../../lib/hash.js';
import { verifyHubSignature } from './cloud-api/signature.js';
import { numberById } from './connected-numbers.js';
import { receiveWebhook } from './receive-webhook.js';

/**
 * The network's webhook, one URL per connected number: GET answers Meta's subscription check with
 * the verify token; POST takes messages and statuses signed with X-Hub-Signature-256 over the raw
 * bytes. Anything unsigned, badly signed or unparseable is refused and logged, never thrown.
 */
export async function whatsappWebhookRoutes(app: FastifyInstance): Promise<void> {
  // The signature covers the bytes as sent, so the body is kept raw and parsed only once verified.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
    done(null, body),
  );

  app.get<{ Params: { numberId: string }; Querystring: Record<string, string> }>(
    '/:numberId',
    { schema: { hide: true } },
    async (request, reply) => {
      const number = await numberById(app.ctx, request.params.numberId);
      const q = request.query;
      if (
        !number ||
        q['hub.mode'] !== 'subscribe' ||
        sha256Hex(q['hub.verify_token'] ?? '') !== number.verifyTokenHash
      ) {
        return reply.code(403).send({ error: 'verification failed' });
      }
      return reply.type('text/plain').send(q['hub.challenge'] ?? '');
    },
  );

  app.post<{ Params: { numberId: string } }>(
    '/:numberId',
    { schema: { hide: true } },
    async (request, reply) => {
      const number = await numberById(app.ctx, request.params.numberId);
      if (!number) return reply.code(404).send({ error: 'unknown number' });
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['x-hub-signature-256'];
      if (!verifyHubSignature(raw, typeof signature === 'string' ? signature : undefined, number.appSecret)) {
        request.log.warn({ numberId: number.id }, 'webhook refused: bad or missing signature');
        return reply.code(401).send({ error: 'bad signature' });
      }
      let payload: { object?: unknown; entry?: unknown } | null;
      try {
        payload = JSON.parse(raw.toString('utf8'));
      } catch {
        request.log.warn({ numberId: number.id }, 'webhook refused: body is not JSON');
        return reply.code(400).send({ error: 'body is not JSON' });
      }
      if (payload?.object !== 'whatsapp_business_account' || !Array.isArray(payload.entry)) {
        request.log.warn({ numberId: number.id }, 'webhook ignored: not a WhatsApp business account payload');
        return reply.code(200).send({ ok: true });
      }
      // Meta sends no delivery id: a digest of the bytes names the delivery in the log, and a
      // redelivery of the same payload carries the same one.
      const deliveryId = sha256Hex(raw).slice(0, 16);
      // A failure to store (the database down) is thrown, answered by the error handler as a 5xx:
      // Meta keeps the delivery and sends it again later.
      await receiveWebhook(app.ctx, number, payload.entry, { id: deliveryId, log: request.log });
      return { ok: true };
    },
  );
}
