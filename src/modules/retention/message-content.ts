import type { Queryable } from '../../db/db.js';

/**
 * One batch of a workspace's messages older than `cutoff`, oldest first from where the last batch
 * stopped (retention_progress): each loses what it said (text, template values, the network's
 * content, context and ad referral) and keeps its row, so counts, reports and conversations keep it.
 * A message still queued keeps its content: it is yet to be sent. The batch and the mark of how far
 * it got commit together, so a run cut short goes on from there. Answers the messages passed and blanked.
 */
export async function removeMessageContent(
  db: Queryable,
  workspaceId: string,
  cutoff: Date,
  size: number,
): Promise<{ passed: number; blanked: number }> {
  // Read first, so that the batch's range is a range of the (workspace_id, created_at) index.
  const progress = await db.query<{ at: Date | null; id: string | null }>(
    'SELECT messages_created_at AS at, messages_id AS id FROM retention_progress WHERE workspace_id = $1',
    [workspaceId],
  );
  const from = progress.rows[0] ?? { at: null, id: null };
  const { rows } = await db.query<{ passed: number; blanked: number }>(
    `WITH batch AS (
       SELECT id, created_at FROM messages
       WHERE workspace_id = $1 AND created_at < $2
         AND ($4::timestamptz IS NULL OR created_at >= $4 AND (created_at, id) > ($4, $5::text))
       ORDER BY created_at, id LIMIT $3),
     blanked AS (
       UPDATE messages m SET text = NULL, template_values = NULL, template_components = NULL, content = NULL,
         context = NULL, referral = NULL, content_removed_at = now()
       FROM batch b WHERE m.workspace_id = $1 AND m.id = b.id AND m.content_removed_at IS NULL
         AND (m.direction = 'inbound' OR m.status <> 'queued')
       RETURNING m.id),
     last AS (SELECT created_at, id FROM batch ORDER BY created_at DESC, id DESC LIMIT 1),
     mark AS (
       INSERT INTO retention_progress (workspace_id, messages_created_at, messages_id)
       SELECT $1, created_at, id FROM last
       ON CONFLICT (workspace_id) DO UPDATE
         SET messages_created_at = EXCLUDED.messages_created_at, messages_id = EXCLUDED.messages_id)
     SELECT (SELECT count(*) FROM batch)::int AS passed, (SELECT count(*) FROM blanked)::int AS blanked`,
    [workspaceId, cutoff, size, from.at, from.id],
  );
  return rows[0]!;
}
