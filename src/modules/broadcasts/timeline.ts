import type { Queryable } from '../../db/db.js';
import { ISO } from '../contacts/list-contacts.js';
import { getBroadcast } from './get-broadcast.js';

const KINDS = ['sent', 'delivered', 'read', 'failed'] as const;

/**
 * GET /broadcasts/{id}/timeline: how many recipients were sent, delivered, read and failed in each
 * minute (each hour once the broadcast spans more than three), from the recipients' own times.
 */
export async function broadcastTimeline(db: Queryable, workspaceId: string, id: string) {
  await getBroadcast(db, workspaceId, id);
  const { rows: span } = await db.query<{ hours: number | null }>(
    `SELECT extract(epoch FROM max(coalesce(read_at, delivered_at, sent_at, failed_at)) - min(coalesce(sent_at, failed_at))) / 3600 AS hours
     FROM broadcast_recipients WHERE workspace_id = $1 AND broadcast_id = $2`,
    [workspaceId, id],
  );
  const bucket = Number(span[0]?.hours ?? 0) > 3 ? 'hour' : 'minute';
  const { rows } = await db.query<{ at: string; kind: (typeof KINDS)[number]; count: number }>(
    KINDS.map(
      (kind) =>
        `SELECT to_char(date_trunc('${bucket}', ${kind}_at AT TIME ZONE 'UTC'), ${ISO}) AS at, '${kind}' AS kind, count(*)::int AS count
         FROM broadcast_recipients WHERE workspace_id = $1 AND broadcast_id = $2 AND ${kind}_at IS NOT NULL GROUP BY 1`,
    ).join(' UNION ALL '),
    [workspaceId, id],
  );
  const points = new Map<string, Record<(typeof KINDS)[number], number>>();
  for (const r of rows) {
    const point = points.get(r.at) ?? { sent: 0, delivered: 0, read: 0, failed: 0 };
    point[r.kind] = r.count;
    points.set(r.at, point);
  }
  return {
    bucket: bucket as 'minute' | 'hour',
    points: [...points.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([at, p]) => ({ at, ...p })),
  };
}
