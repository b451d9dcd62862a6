import type { FastifyRequest } from 'fastify';
import type { Answer } from '../../api/effect-replay.js';
import type { Queryable } from '../../db/db.js';
import { recordAnswer, recordEffect } from './store.js';

/** Writes into the key's row, inside the operation's transaction, what a retry is to answer. */
export type OutcomeWriter<R> = (q: Queryable, result: R) => Promise<void>;

function heldKey(request: FastifyRequest) {
  const key = request.idempotencyKey;
  return key ? { workspaceId: request.principal().workspaceId, key } : null;
}

/** The answer `answer(result)`, for a request holding a key (undefined without one: no extra write). */
export function answerWriter<R>(
  request: FastifyRequest,
  answer: (result: R) => Answer,
): OutcomeWriter<R> | undefined {
  const held = heldKey(request);
  if (!held) return undefined;
  return (q, result) => {
    const { status, body } = answer(result);
    return recordAnswer(q, held, status, body);
  };
}

/** The effect's id, for a route whose answer is known only after commit (see EffectReplay). */
export function effectWriter(request: FastifyRequest): OutcomeWriter<string> | undefined {
  const held = heldKey(request);
  if (!held) return undefined;
  return (q, effectId) => recordEffect(q, held, effectId);
}
