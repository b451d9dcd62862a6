import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../api/errors.js';
import type { Db } from '../../db/db.js';
import { sha256Hex } from '../../lib/hash.js';
import { claimKey, completeKey, releaseKey } from './store.js';

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

// Test-only fault, off unless the crash test sets it: an idempotent request never answers once its
// effect is done, and the test kills the process there (test/idempotency-crash.postgres.test.ts).
const HOLD_ANSWERS = process.env.PARLEY_TEST_HOLD_IDEMPOTENT_ANSWERS === '1';

/**
 * Same key and same request within 24 hours: the first response again, with Idempotent-Replayed.
 * Same key, other request: 422. Same key while the first is still running: 409. The operation
 * writes the answer (or its effect's id) in its own transaction (outcome.ts).
 */
export function idempotencyHooks(db: Db) {
  const preHandler = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    if (typeof header !== 'string' || !KEY_SHAPE.test(header)) {
      throw ApiError.validation('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
    }
    const workspaceId = request.principal().workspaceId;
    const hash = sha256Hex(`${request.method} ${request.routeOptions.url}\n${JSON.stringify(request.body)}`);
    const claim = await claimKey(db, workspaceId, header, hash);
    switch (claim.kind) {
      case 'claimed':
        request.idempotencyKey = header;
        return;
      case 'mismatch':
        throw new ApiError(
          'idempotency_key_reused',
          'This Idempotency-Key was used with a different request',
        );
      case 'in_flight':
        throw new ApiError(
          'idempotency_key_in_use',
          'A request with this Idempotency-Key is still being processed',
        );
      case 'replay':
        reply
          .header('Idempotent-Replayed', 'true')
          .code(claim.status)
          .type('application/json; charset=utf-8');
        return reply.send(claim.body);
      case 'effect': {
        const route = request.routeOptions.config.idempotent;
        if (typeof route !== 'object') throw new Error(`${request.routeOptions.url} records no effects`);
        reply.header('Idempotent-Replayed', 'true');
        const { status, body } = await route.replay(workspaceId, claim.effectId);
        return reply.code(status).send(body);
      }
    }
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const key = request.idempotencyKey;
    if (!key) return payload;
    request.idempotencyKey = null;
    if (HOLD_ANSWERS) await new Promise(() => {});
    const workspaceId = request.principal().workspaceId;
    if (reply.statusCode >= 500) await releaseKey(db, workspaceId, key);
    else await completeKey(db, workspaceId, key, reply.statusCode, String(payload));
    return payload;
  };

  return { preHandler, onSend };
}
