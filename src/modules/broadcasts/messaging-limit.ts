import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { type ConnectedNumber, clientFor, saveNumberHealth } from '../messaging/connected-numbers.js';

/** Meta's starting tier: what a number whose tier is not known is held to. */
const UNKNOWN_TIER_MAX = 250;

/**
 * Unique recipients a number may start conversations with in a rolling 24 hours, by Meta's
 * messaging limit tier (TIER_250, TIER_1K, TIER_2K, TIER_10K, TIER_100K); null for TIER_UNLIMITED.
 */
export function tierMax(tier: string | null): number | null {
  if (tier === 'TIER_UNLIMITED') return null;
  const m = /^TIER_(\d+)(K?)$/.exec(tier ?? '');
  return m ? Number(m[1]) * (m[2] ? 1000 : 1) : UNKNOWN_TIER_MAX;
}

/**
 * Unique contacts sent a template in the last 24 hours, and when the earliest of them leaves the
 * window (so the count goes down). Every template counts, whatever sent it (API, flows, broadcasts).
 */
export async function usedLast24h(
  db: Queryable,
  workspaceId: string,
): Promise<{ used: number; freesAt: Date | null }> {
  const { rows } = await db.query<{ used: number; frees_at: Date | null }>(
    `SELECT count(*)::int AS used, min(last) + interval '24 hours' AS frees_at FROM (
       SELECT max(created_at) AS last FROM messages
       WHERE workspace_id = $1 AND direction = 'outbound' AND type = 'template'
         AND created_at > now() - interval '24 hours'
       GROUP BY contact_id) AS recent`,
    [workspaceId],
  );
  return { used: rows[0]!.used, freesAt: rows[0]!.frees_at };
}

/** The number's tier as Meta says it now (it moves up as the number sends well); the stored one if the read fails. */
export async function currentTier(ctx: AppContext, number: ConnectedNumber) {
  try {
    const info = await clientFor(ctx, number, 10_000).phoneNumber(number.phoneNumberId);
    const tier = typeof info.messaging_limit_tier === 'string' ? info.messaging_limit_tier : null;
    if (tier) {
      await saveNumberHealth(ctx.db, number, {
        verifiedName: typeof info.verified_name === 'string' ? info.verified_name : null,
        qualityRating: typeof info.quality_rating === 'string' ? info.quality_rating : null,
        messagingLimitTier: tier,
      });
      return tier;
    }
  } catch (err) {
    ctx.log.warn(
      { err, numberId: number.id },
      'reading the messaging limit tier failed; the stored one holds',
    );
  }
  return storedTier(ctx.db, number.workspaceId);
}

export async function storedTier(db: Queryable, workspaceId: string): Promise<string | null> {
  const { rows } = await db.query<{ messaging_limit_tier: string | null }>(
    'SELECT messaging_limit_tier FROM connected_numbers WHERE workspace_id = $1',
    [workspaceId],
  );
  return rows[0]?.messaging_limit_tier ?? null;
}
