import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../../lib/constant-time.js';
import { sha256Hex } from '../../lib/hash.js';
import { verifyHubSignature } from './cloud-api/signature.js';
import { webhookVerifyToken } from './connect-cloud-number.js';
import { type ConnectedNumber, numbersNamedIn, webhookNumber } from './connected-numbers.js';
import { receiveWebhook } from './receive-webhook.js';
import { isObject } from './webhook-items.js';

type Payload = { object?: unknown; entry?: unknown };

/**
 * The network's webhook: one app-level URL (what Meta's app settings take, as Meta sets the callback
 * per app) that routes each payload by the phone_number_id it names, and one URL per connected
 * number. GET answers Meta's subscription check with the verify token; POST takes messages and
 * statuses signed with X-Hub-Signature-256 over the raw bytes. Anything unsigned, badly signed or
 * unparseable is refused and logged, never thrown.
 */
export async function whatsappWebhookRoutes(app: FastifyInstance): Promise<void> {
  // The signature covers the bytes as sent, so the body is kept raw and parsed only once verified.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
    done(null, body),
  );

  const challenge = (request: FastifyRequest, reply: FastifyReply, tokenOk: (token: string) => boolean) => {
    const q = request.query as Record<string, string | undefined>;
    if (q['hub.mode'] !== 'subscribe' || !tokenOk(q['hub.verify_token'] ?? '')) {
      return reply.code(403).send({ error: 'verification failed' });
    }
    return reply.type('text/plain').send(q['hub.challenge'] ?? '');
  };

  app.get('/', { schema: { hide: true } }, async (request, reply) =>
    challenge(request, reply, (token) => safeEqual(token, webhookVerifyToken(app.ctx))),
  );

  app.get<{ Params: { numberId: string } }>(
    '/:numberId',
    { schema: { hide: true } },
    async (request, reply) => {
      const number = await webhookNumber(app.ctx, request.params.numberId);
      return challenge(request, reply, (token) => !!number && sha256Hex(token) === number.verifyTokenHash);
    },
  );

  const rawOf = (request: FastifyRequest) => (Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
  const signatureOf = (request: FastifyRequest) => {
    const signature = request.headers['x-hub-signature-256'];
    return typeof signature === 'string' ? signature : undefined;
  };
  const parse = (raw: Buffer): Payload | null | undefined => {
    try {
      return JSON.parse(raw.toString('utf8'));
    } catch {
      return undefined;
    }
  };

  /** Applies a verified payload to the numbers it was verified for. */
  const apply = async (
    numbers: ConnectedNumber[],
    raw: Buffer,
    payload: Payload | null,
    request: FastifyRequest,
  ) => {
    if (payload?.object !== 'whatsapp_business_account' || !Array.isArray(payload.entry)) {
      request.log.warn(
        { numberIds: numbers.map((n) => n.id) },
        'webhook ignored: not a WhatsApp business account payload',
      );
      return { ok: true };
    }
    // Meta sends no delivery id: a digest of the bytes names the delivery in the log, and a
    // redelivery of the same payload carries the same one.
    const deliveryId = sha256Hex(raw).slice(0, 16);
    // A failure to store (the database down) is thrown, answered by the error handler as a 5xx:
    // Meta keeps the delivery and sends it again later.
    for (const number of numbers) {
      await receiveWebhook(app.ctx, number, payload.entry, { id: deliveryId, log: request.log });
    }
    return { ok: true };
  };

  app.post('/', { schema: { hide: true } }, async (request, reply) => {
    const raw = rawOf(request);
    // Parsed only to find whose app secret the signature is checked with; nothing is applied before.
    const payload = parse(raw);
    if (payload === undefined) {
      request.log.warn('webhook refused: body is not JSON');
      return reply.code(400).send({ error: 'body is not JSON' });
    }
    const { phoneNumberIds, accountIds } = routingKeys(payload);
    const named = await numbersNamedIn(app.ctx, phoneNumberIds, accountIds);
    if (named.length === 0) {
      // Meta redelivers anything but a 200 for days, then disables the webhook: a payload for a
      // number no longer (or never) connected here is acknowledged and dropped.
      request.log.warn({ phoneNumberIds }, 'webhook ignored: no connected number named in it');
      return { ok: true };
    }
    const signature = signatureOf(request);
    const verified = named.filter((n) => verifyHubSignature(raw, signature, n.appSecret));
    if (verified.length === 0) {
      request.log.warn({ numberIds: named.map((n) => n.id) }, 'webhook refused: bad or missing signature');
      return reply.code(401).send({ error: 'bad signature' });
    }
    return apply(verified, raw, payload, request);
  });

  app.post<{ Params: { numberId: string } }>(
    '/:numberId',
    { schema: { hide: true } },
    async (request, reply) => {
      const number = await webhookNumber(app.ctx, request.params.numberId);
      if (!number) return reply.code(404).send({ error: 'unknown number' });
      const raw = rawOf(request);
      if (!verifyHubSignature(raw, signatureOf(request), number.appSecret)) {
        request.log.warn({ numberId: number.id }, 'webhook refused: bad or missing signature');
        return reply.code(401).send({ error: 'bad signature' });
      }
      const payload = parse(raw);
      if (payload === undefined) {
        request.log.warn({ numberId: number.id }, 'webhook refused: body is not JSON');
        return reply.code(400).send({ error: 'body is not JSON' });
      }
      return apply([number], raw, payload, request);
    },
  );
}

/** The phone_number_ids (messages, statuses) and business accounts (template events) a payload names. */
function routingKeys(payload: Payload | null) {
  const phoneNumberIds = new Set<string>();
  const accountIds = new Set<string>();
  const entries = Array.isArray(payload?.entry) ? payload.entry : [];
  for (const entry of entries.slice(0, 100)) {
    if (!isObject(entry)) continue;
    if (typeof entry.id === 'string') accountIds.add(entry.id);
    for (const change of Array.isArray(entry.changes) ? entry.changes.slice(0, 100) : []) {
      const metadata = isObject(change) && isObject(change.value) ? change.value.metadata : undefined;
      const id = isObject(metadata) ? metadata.phone_number_id : undefined;
      if (typeof id === 'string') phoneNumberIds.add(id);
    }
  }
  return { phoneNumberIds: [...phoneNumberIds], accountIds: [...accountIds] };
}
