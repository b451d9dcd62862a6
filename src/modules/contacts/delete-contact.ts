import { ApiError } from '../../api/errors.js';
import type { Db } from '../../db/db.js';
import { type Actor, audited } from '../audit/record-audit.js';

/** What a run cancelled by its contact's deletion says it ended with. */
export const CANCELLED_BY_DELETION = 'Cancelled: the contact was deleted';

/**
 * Erases a contact (docs/DECISIONS.md, "Deleting a contact erases them"): the contact row, its
 * consent records and received files go; what happened stays countable but says nothing of the
 * person (messages keep their direction, type, template and status without phone or content; leads
 * keep their source, status and dates without name, e-mail, phone or fields; runs and events lose
 * their data). Its running and waiting runs stop. Answers the media store keys to delete once committed.
 */
export async function deleteContact(
  db: Db,
  workspaceId: string,
  id: string,
  actor: Actor,
): Promise<string[]> {
  return audited(
    db,
    async (tx) => {
      const p = [workspaceId, id];
      const found = await tx.query(
        'SELECT 1 FROM contacts WHERE workspace_id = $1 AND id = $2 FOR UPDATE',
        p,
      );
      if (!found.rows[0]) throw new ApiError('not_found', 'No contact with that id');
      await tx.query(
        `UPDATE runs SET status = 'failed', error = $3, finished_at = now(), updated_at = now()
         WHERE workspace_id = $1 AND contact_id = $2 AND status IN ('running', 'waiting')`,
        [...p, CANCELLED_BY_DELETION],
      );
      await tx.query(
        `UPDATE run_steps SET outcome = '{}' WHERE workspace_id = $1
         AND run_id IN (SELECT id FROM runs WHERE workspace_id = $1 AND contact_id = $2)`,
        p,
      );
      // A bot's variables hold the contact's answers.
      await tx.query(
        `UPDATE runs SET trigger_data = '{}', variables = '{}' WHERE workspace_id = $1 AND contact_id = $2`,
        p,
      );
      await tx.query(`UPDATE events SET properties = '{}' WHERE workspace_id = $1 AND contact_id = $2`, p);
      const media = await tx.query<{ storage_key: string | null }>(
        `DELETE FROM media WHERE workspace_id = $1
         AND message_id IN (SELECT id FROM messages WHERE workspace_id = $1 AND contact_id = $2)
         RETURNING storage_key`,
        p,
      );
      await tx.query(
        `UPDATE messages SET phone = '', text = NULL, content = NULL, template_values = NULL,
           template_components = NULL, callback_data = NULL, context = NULL, referral = NULL, updated_at = now()
         WHERE workspace_id = $1 AND contact_id = $2`,
        p,
      );
      await tx.query(
        `UPDATE leads SET name = NULL, email = NULL, phone = NULL, fields = '{}', updated_at = now()
         WHERE workspace_id = $1 AND contact_id = $2`,
        p,
      );
      await tx.query('DELETE FROM consent_changes WHERE workspace_id = $1 AND contact_id = $2', p);
      await tx.query('DELETE FROM away_replies WHERE workspace_id = $1 AND contact_id = $2', p);
      await tx.query('DELETE FROM contacts WHERE workspace_id = $1 AND id = $2', p);
      return media.rows.flatMap((m) => (m.storage_key ? [m.storage_key] : []));
    },
    () => ({ workspaceId, actor, action: 'delete', entityType: 'contact', entityId: id }),
  );
}
