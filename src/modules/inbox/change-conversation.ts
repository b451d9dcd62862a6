import type { Queryable } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';
import type { ConversationState } from './schemas.js';

export interface ConversationChangeInput {
  state?: ConversationState;
  /** A member of the workspace, or null to unassign. */
  assignee_id?: string | null;
}

/**
 * Moves a conversation to a state and/or gives it to a teammate: 404 for a contact not of the
 * workspace, 422 for an assignee who is not one of its members. A contact that has no conversation
 * yet gets one.
 */
export async function changeConversation(
  db: Queryable,
  workspaceId: string,
  contactId: string,
  change: ConversationChangeInput,
) {
  const assign = change.assignee_id !== undefined;
  const { rows } = await db.query<{ contact: boolean; member: boolean; changed: boolean }>(
    `WITH contact AS (SELECT id FROM contacts WHERE workspace_id = $1 AND id = $2),
     member AS (SELECT 1 FROM memberships WHERE workspace_id = $1 AND user_id = $4),
     changed AS (
       INSERT INTO conversations AS c (workspace_id, contact_id, state, assignee_id)
       SELECT $1, contact.id, COALESCE($3::text, 'open'), CASE WHEN $5::boolean THEN $4::text END FROM contact
       WHERE NOT $5::boolean OR $4::text IS NULL OR EXISTS (SELECT 1 FROM member)
       ON CONFLICT (workspace_id, contact_id) DO UPDATE
         SET state = COALESCE($3, c.state),
             assignee_id = CASE WHEN $5 THEN $4 ELSE c.assignee_id END,
             updated_at = now()
       RETURNING 1)
     SELECT EXISTS (SELECT 1 FROM contact) AS contact, EXISTS (SELECT 1 FROM member) AS member,
       EXISTS (SELECT 1 FROM changed) AS changed`,
    [workspaceId, contactId, change.state ?? null, assign ? change.assignee_id : null, assign],
  );
  const r = rows[0]!;
  if (!r.contact) throw new ApiError('not_found', 'No contact with that id');
  if (!r.changed)
    throw ApiError.invalid('assignee_id', 'Assign the conversation to a member of this workspace.');
}
