import type { Db } from '../../db/db.js';
import { isMarketing } from './approved-template.js';
import { audienceFilter } from './audience.js';
import type { Audience } from './schemas.js';

const SNAPSHOT_BATCH = 1_000;

/**
 * The audience as it stands when delivery starts, written into broadcast_recipients a batch at a
 * time in the order of contact ids; each batch commits with the last id taken, so a delivery
 * restarted mid-snapshot goes on from there (and a row written twice is one row: the primary key).
 */
export async function snapshotAudience(
  db: Db,
  workspaceId: string,
  b: {
    id: string;
    audience: Audience;
    template_category: string;
    snapshot_done: boolean;
    snapshot_after: string | null;
  },
): Promise<void> {
  if (b.snapshot_done) return;
  const { where, params } = audienceFilter(b.audience, isMarketing(b.template_category));
  const after = `$${params.length + 2}`;
  const id = `$${params.length + 3}`;
  let last = b.snapshot_after ?? '';
  let batches = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ last: string | null }>(
        `WITH picked AS (
           SELECT c.id, c.phone, c.name FROM contacts c WHERE ${where} AND c.id > ${after}
           ORDER BY c.id LIMIT ${SNAPSHOT_BATCH}),
         taken AS (
           INSERT INTO broadcast_recipients (workspace_id, broadcast_id, contact_id, phone, name)
           SELECT $1, ${id}, id, phone, name FROM picked ON CONFLICT DO NOTHING)
         SELECT max(id) AS last FROM picked`,
        [workspaceId, ...params, last, b.id],
      );
      const next = rows[0]?.last ?? null;
      await tx.query(
        `UPDATE broadcasts SET snapshot_after = coalesce($3, snapshot_after), snapshot_done = $3::text IS NULL,
           recipient_count = CASE WHEN $3::text IS NULL
             THEN (SELECT count(*) FROM broadcast_recipients WHERE workspace_id = $1 AND broadcast_id = $2)
             ELSE recipient_count END, updated_at = now()
         WHERE workspace_id = $1 AND id = $2`,
        [workspaceId, b.id, next],
      );
      if (next) last = next;
      return next === null;
    });
    batches++;
    if (done) break;
  }
  // Fresh statistics for the rows just written: with the ones from before, the planner took a
  // broadcast's recipients for a handful and read them all on every status change.
  if (batches > 1) await db.query('ANALYZE broadcast_recipients');
}
