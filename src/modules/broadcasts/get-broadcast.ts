import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { ISO } from '../contacts/list-contacts.js';
import { isMarketing } from './approved-template.js';
import { countAudience } from './audience.js';
import { storedTier, tierMax, usedLast24h } from './messaging-limit.js';
import type { Audience, Broadcast, BroadcastStatus, PausedReason, Values } from './schemas.js';

const at = (column: string) => `to_char(b.${column} AT TIME ZONE 'UTC', ${ISO}) AS ${column}`;

/** A broadcast's own columns, as the API shows them. */
export const BROADCAST_COLUMNS = `b.id, b.name, b.status, b.template_name, b.template_language, b.template_category,
  b.audience, b."values", b.time_zone, b.reply_window_hours, b.snapshot_done, b.paused_reason,
  ${['send_at', 'created_at', 'started_at', 'completed_at', 'cancelled_at'].map(at).join(', ')}`;

export interface BroadcastRow {
  id: string;
  name: string;
  status: BroadcastStatus;
  paused_reason: PausedReason | null;
  template_name: string;
  template_language: string;
  template_category: string;
  audience: Audience;
  values: Values;
  time_zone: string;
  reply_window_hours: number;
  snapshot_done: boolean;
  send_at: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
}

type Counts = Broadcast['counts'];

/**
 * Broadcasts as the API shows them: their recipients counted by state in one pass over the
 * recipients of these broadcasts (an index on their state), the failures grouped by Meta's code.
 * A broadcast not yet snapshotted counts its audience as it stands.
 */
export async function shapeBroadcasts(
  db: Queryable,
  workspaceId: string,
  rows: BroadcastRow[],
): Promise<Broadcast[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const { rows: counted } = await db.query<Counts & { broadcast_id: string }>(
    `SELECT broadcast_id, count(*)::int AS audience,
       count(*) FILTER (WHERE state IN ('pending', 'releasing', 'queued'))::int AS queued,
       count(*) FILTER (WHERE state IN ('sent', 'delivered', 'read'))::int AS sent,
       count(*) FILTER (WHERE state IN ('delivered', 'read'))::int AS delivered,
       count(*) FILTER (WHERE state = 'read')::int AS read,
       count(*) FILTER (WHERE state = 'failed')::int AS failed,
       count(*) FILTER (WHERE state = 'skipped')::int AS skipped,
       count(replied_at)::int AS replied
     FROM broadcast_recipients WHERE workspace_id = $1 AND broadcast_id = ANY ($2::text[])
     GROUP BY broadcast_id`,
    [workspaceId, ids],
  );
  const { rows: failures } = await db.query<{
    broadcast_id: string;
    code: number | null;
    reason: string;
    count: number;
  }>(
    `SELECT broadcast_id, error_code AS code, coalesce(error_title, '') AS reason, count(*)::int AS count
     FROM broadcast_recipients WHERE workspace_id = $1 AND broadcast_id = ANY ($2::text[]) AND state = 'failed'
     GROUP BY broadcast_id, error_code, error_title ORDER BY count(*) DESC`,
    [workspaceId, ids],
  );
  const tier = await storedTier(db, workspaceId);
  const { used } = await usedLast24h(db, workspaceId);
  const limit = { tier, used_24h: used, max_24h: tierMax(tier) };
  const none: Counts = {
    audience: 0,
    queued: 0,
    sent: 0,
    delivered: 0,
    read: 0,
    failed: 0,
    skipped: 0,
    replied: 0,
  };
  return Promise.all(
    rows.map(async (r) => {
      const found = counted.find((c) => c.broadcast_id === r.id);
      const counts: Counts = { ...none };
      for (const k of Object.keys(none) as (keyof Counts)[]) counts[k] = found?.[k] ?? 0;
      if (!r.snapshot_done && r.status !== 'cancelled')
        counts.audience = await countAudience(db, workspaceId, r.audience, isMarketing(r.template_category));
      return {
        id: r.id,
        name: r.name,
        status: r.status,
        paused_reason: r.status === 'paused' ? r.paused_reason : null,
        template: { name: r.template_name, language: r.template_language, category: r.template_category },
        audience: r.audience,
        values: r.values,
        send_at: r.send_at,
        time_zone: r.time_zone,
        reply_window_hours: r.reply_window_hours,
        created_at: r.created_at,
        started_at: r.started_at,
        completed_at: r.completed_at,
        cancelled_at: r.cancelled_at,
        counts,
        failed_by_reason: failures
          .filter((f) => f.broadcast_id === r.id)
          .map(({ code, reason, count }) => ({ code, reason, count })),
        limit,
      };
    }),
  );
}

export async function getBroadcast(db: Queryable, workspaceId: string, id: string): Promise<Broadcast> {
  const { rows } = await db.query<BroadcastRow>(
    `SELECT ${BROADCAST_COLUMNS} FROM broadcasts b WHERE b.workspace_id = $1 AND b.id = $2`,
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', `No broadcast ${id}`);
  return (await shapeBroadcasts(db, workspaceId, rows))[0]!;
}

/** GET /broadcasts: newest first. */
export async function listBroadcasts(
  db: Queryable,
  workspaceId: string,
  query: { status?: BroadcastStatus; limit: number; offset: number },
) {
  const { rows } = await db.query<BroadcastRow>(
    `SELECT ${BROADCAST_COLUMNS} FROM broadcasts b WHERE b.workspace_id = $1 AND ($2::text IS NULL OR b.status = $2)
     ORDER BY b.created_at DESC, b.id DESC LIMIT $3 OFFSET $4`,
    [workspaceId, query.status ?? null, query.limit + 1, query.offset],
  );
  return {
    broadcasts: await shapeBroadcasts(db, workspaceId, rows.slice(0, query.limit)),
    hasNextPage: rows.length > query.limit,
  };
}
