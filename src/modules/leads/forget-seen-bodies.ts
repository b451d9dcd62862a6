import type { Queryable } from '../../db/db.js';

/** Drops signed webhook bodies seen more than 24 hours ago (by the maintenance.cleanup job). */
export async function forgetSeenBodies(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM webhook_intake_seen WHERE expires_at <= now() RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
  );
  return rows[0]?.n ?? 0;
}
