import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answerErrorsWith, intakeEnvelope } from '../../api/error-handler.js';
import { ApiError } from '../../api/errors.js';
import { createWebhookRateLimiters } from '../rate-limit/create-limiter.js';
import { startFromWebhook } from './start-from-webhook.js';
import { webhookLimits } from './webhook-limits.js';

const WEBHOOK_BODY_LIMIT = 256 * 1024;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The workflow webhook: /{sequenceId}/{secret}, or /{sequenceId} with the secret in x-api-key or the
 * body signed in X-Webhook-Signature. The body is kept as raw bytes (the HMAC covers them as sent)
 * and parsed only once the caller is known. The secret segment never reaches a log (access-log.ts).
 * Rate limited per client address before anything else, per sequence id once the caller is known
 * (webhook-limits.ts).
 */
export async function workflowWebhookRoutes(app: FastifyInstance): Promise<void> {
  const limiters = createWebhookRateLimiters(app.ctx.config.redisUrl, app.ctx.log);
  app.addHook('onClose', async () => {
    await Promise.all(Object.values(limiters).map((l) => l.close()));
  });
  const limits = webhookLimits(limiters);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  answerErrorsWith(
    app,
    intakeEnvelope({ unsupportedMediaType: 'Send the body as JSON with Content-Type: application/json' }),
  );

  const handle = async (
    request: FastifyRequest<{ Params: { sequenceId: string; secret?: string } }>,
    reply: FastifyReply,
  ) => {
    const started = await startFromWebhook(
      app.ctx,
      {
        sequenceId: request.params.sequenceId,
        pathSecret: request.params.secret,
        apiKey: header(request, 'x-api-key'),
        signature: header(request, 'x-webhook-signature'),
        raw: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
      },
      () => limits.admit(request, reply),
    ).catch(async (err: unknown) => {
      if (err instanceof ApiError && (err.status === 401 || err.status === 404)) {
        await limits.failed(request, reply);
      }
      throw err;
    });
    return { success: true as const, lead_id: started.leadId, run_id: started.runId };
  };
  app.post<{ Params: { sequenceId: string } }>(
    '/:sequenceId',
    { onRequest: limits.check, schema: { hide: true } },
    async (request, reply) => reply.code(202).send(await handle(request, reply)),
  );
  app.post<{ Params: { sequenceId: string; secret: string } }>(
    '/:sequenceId/:secret',
    { onRequest: limits.check, schema: { hide: true } },
    async (request, reply) => reply.code(202).send(await handle(request, reply)),
  );
}
