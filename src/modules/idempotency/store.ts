import type { Queryable } from '../../db/db.js';

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'effect'; effectId: string }
  | { kind: 'in_flight' }
  | { kind: 'mismatch' };

/** The key a request holds, written with its effect by the operation's own transaction. */
interface HeldKey {
  workspaceId: string;
  key: string;
}

const IDEMPOTENCY_TTL = '24 hours';
// A request that died without answering (a crash) frees its key after this long, unless its effect
// committed: then the key answers from the effect.
const LOCK_FOR = '60 seconds';

/** Takes the key for this request, or says why not: done before (replay), running now, or other body. */
export async function claimKey(
  db: Queryable,
  workspaceId: string,
  key: string,
  requestHash: string,
): Promise<Claim> {
  const claimed = await db.query(
    `INSERT INTO idempotency_keys (workspace_id, key, request_hash, locked_until, expires_at)
     VALUES ($1, $2, $3, now() + interval '${LOCK_FOR}', now() + interval '${IDEMPOTENCY_TTL}')
     ON CONFLICT (workspace_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash,
       locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, created_at = now(),
       response_status = NULL, response_body = NULL, effect_id = NULL
     WHERE idempotency_keys.expires_at <= now()
        OR (idempotency_keys.response_status IS NULL AND idempotency_keys.effect_id IS NULL
            AND idempotency_keys.locked_until <= now()
            AND idempotency_keys.request_hash = EXCLUDED.request_hash)
     RETURNING 1`,
    [workspaceId, key, requestHash],
  );
  if (claimed.rows.length > 0) return { kind: 'claimed' };
  const { rows } = await db.query<{
    request_hash: string;
    response_status: number | null;
    response_body: string;
    effect_id: string | null;
    locked: boolean;
  }>(
    `SELECT request_hash, response_status, response_body, effect_id, coalesce(locked_until > now(), false) AS locked
     FROM idempotency_keys WHERE workspace_id = $1 AND key = $2`,
    [workspaceId, key],
  );
  const row = rows[0];
  // Gone between the two statements (expired and cleaned): the caller may simply try again.
  if (!row) return { kind: 'in_flight' };
  if (row.request_hash !== requestHash) return { kind: 'mismatch' };
  if (row.response_status !== null)
    return { kind: 'replay', status: row.response_status, body: row.response_body };
  // The effect committed but its answer was never stored: its request is still answering, or died.
  if (row.effect_id !== null && !row.locked) return { kind: 'effect', effectId: row.effect_id };
  return { kind: 'in_flight' };
}

/**
 * Stores the answer in the transaction that made the effect, so no crash can leave an effect whose
 * key a retry would claim again.
 */
export async function recordAnswer(
  q: Queryable,
  held: HeldKey,
  status: number,
  body: unknown,
): Promise<void> {
  await q.query(
    `UPDATE idempotency_keys SET response_status = $3, response_body = $4, locked_until = NULL
     WHERE workspace_id = $1 AND key = $2`,
    [held.workspaceId, held.key, status, JSON.stringify(body)],
  );
}

/** For an answer known only after commit: the effect's id, in its transaction, to answer a retry from. */
export async function recordEffect(q: Queryable, held: HeldKey, effectId: string): Promise<void> {
  await q.query('UPDATE idempotency_keys SET effect_id = $3 WHERE workspace_id = $1 AND key = $2', [
    held.workspaceId,
    held.key,
    effectId,
  ]);
}

/** The answer as sent, unless the effect's transaction stored it already. */
export async function completeKey(
  db: Queryable,
  workspaceId: string,
  key: string,
  status: number,
  body: string,
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET response_status = $3, response_body = $4, locked_until = NULL
     WHERE workspace_id = $1 AND key = $2 AND response_status IS NULL`,
    [workspaceId, key, status, body],
  );
}

/**
 * A request that failed on our side gives its key back, so the client's retry runs for real; if its
 * effect committed first, the key is kept (unlocked) and the retry answers from the effect.
 */
export async function releaseKey(db: Queryable, workspaceId: string, key: string): Promise<void> {
  await db.query(
    `WITH gone AS (
       DELETE FROM idempotency_keys
       WHERE workspace_id = $1 AND key = $2 AND response_status IS NULL AND effect_id IS NULL)
     UPDATE idempotency_keys SET locked_until = NULL
     WHERE workspace_id = $1 AND key = $2 AND response_status IS NULL AND effect_id IS NOT NULL`,
    [workspaceId, key],
  );
}

export async function deleteExpiredKeys(db: Queryable, batch = 5000): Promise<number> {
  const { rows } = await db.query(
    `DELETE FROM idempotency_keys WHERE (workspace_id, key) IN (
       SELECT workspace_id, key FROM idempotency_keys WHERE expires_at <= now() LIMIT $1)
     RETURNING 1`,
    [batch],
  );
  return rows.length;
}
