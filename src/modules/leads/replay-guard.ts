import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';

/** What the first request with a body answered. */
export interface FirstAnswer {
  leadId: string;
  runId: string;
}

const REPLAY_WINDOW = "interval '24 hours'";

/**
 * Signed workflow-webhook bodies seen in the last 24 hours. The signature has no timestamp, so a
 * captured request could be sent again: the same body (per sequence) answers as the first did and
 * starts nothing. `run` does the work for a body seen for the first time.
 */
export async function oncePer24Hours(
  ctx: AppContext,
  key: { workspaceId: string; sequenceId: string; raw: Buffer },
  run: () => Promise<FirstAnswer>,
): Promise<FirstAnswer> {
  const id = [key.workspaceId, key.sequenceId, createHash('sha256').update(key.raw).digest('hex')];
  const first = await claim(ctx, id);
  if (first) return first;
  try {
    const answer = await run();
    await ctx.db.query(
      `UPDATE webhook_intake_seen SET lead_id = $4, run_id = $5
       WHERE workspace_id = $1 AND sequence_id = $2 AND body_sha256 = $3`,
      [...id, answer.leadId, answer.runId],
    );
    return answer;
  } catch (err) {
    // Nothing was started: the same body may be sent again.
    await ctx.db.query(
      'DELETE FROM webhook_intake_seen WHERE workspace_id = $1 AND sequence_id = $2 AND body_sha256 = $3',
      id,
    );
    throw err;
  }
}

/**
 * Takes the body for this request (null), or gives the first request's answer. A first request still
 * in flight is waited for (it takes a moment); if it failed, its claim is gone and this one goes ahead.
 */
async function claim(ctx: AppContext, id: string[]): Promise<FirstAnswer | null> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { rows } = await ctx.db.query(
      `INSERT INTO webhook_intake_seen AS s (workspace_id, sequence_id, body_sha256, expires_at)
       VALUES ($1, $2, $3, now() + ${REPLAY_WINDOW})
       ON CONFLICT (workspace_id, sequence_id, body_sha256) DO UPDATE
         SET lead_id = NULL, run_id = NULL, expires_at = EXCLUDED.expires_at WHERE s.expires_at <= now()
       RETURNING 1`,
      id,
    );
    if (rows[0]) return null;
    const seen = await ctx.db.query<{ lead_id: string | null; run_id: string | null }>(
      'SELECT lead_id, run_id FROM webhook_intake_seen WHERE workspace_id = $1 AND sequence_id = $2 AND body_sha256 = $3',
      id,
    );
    const row = seen.rows[0];
    if (row?.lead_id && row.run_id) return { leadId: row.lead_id, runId: row.run_id };
    await sleep(50);
  }
  throw new ApiError('conflict', 'The same request is still being handled; retry in a moment');
}

/** Drops bodies seen more than 24 hours ago (by the maintenance.cleanup job). */
export async function forgetSeenBodies(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM webhook_intake_seen WHERE expires_at <= now() RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
  );
  return rows[0]?.n ?? 0;
}
