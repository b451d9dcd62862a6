import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { type AfterCommit, publish, runAfterCommit } from '../messaging/events.js';
import type { ChangeVia, ConversationState } from './schemas.js';

export interface ConversationChangeInput {
  state?: ConversationState;
  /** A member of the workspace, or null to unassign. */
  assignee_id?: string | null;
  /** The team it belongs to (routing/assign-to-team.ts checks it first), or null for none. */
  team_id?: string | null;
}

/**
 * Moves a conversation to a state and/or gives it to a teammate: 404 for a contact not of the
 * workspace, 422 for an assignee who is not one of its members. A contact that has no conversation
 * yet gets one. A change that moved something is published (`conversation.changed`, by `by`) in
 * its transaction.
 */
export async function changeConversation(
  ctx: AppContext,
  by: ChangedBy,
  contactId: string,
  change: ConversationChangeInput,
): Promise<void> {
  await runAfterCommit(
    await ctx.db.transaction((tx) => changeConversationIn(ctx, tx, by, contactId, change)),
  );
}

/** Who changes a conversation: a teammate (userId), or, with userId null, `via` a bot's step (the default), an API key or routing. */
export interface ChangedBy {
  workspaceId: string;
  userId: string | null;
  via?: Exclude<ChangeVia, 'member'>;
}

/** changeConversation inside the caller's transaction; answers what must run once it commits. */
export async function changeConversationIn(
  ctx: AppContext,
  tx: Queryable,
  by: ChangedBy,
  contactId: string,
  change: ConversationChangeInput,
): Promise<AfterCommit[]> {
  const { workspaceId } = by;
  const assign = change.assignee_id !== undefined;
  const team = change.team_id !== undefined;
  {
    // How it stood, read and locked first: a CTE of the upsert cannot lock the row the upsert changes.
    const { rows: before } = await tx.query<{ state: ConversationState; assignee_id: string | null }>(
      'SELECT state, assignee_id FROM conversations WHERE workspace_id = $1 AND contact_id = $2 FOR UPDATE',
      [workspaceId, contactId],
    );
    const { rows } = await tx.query<{
      contact: boolean;
      state: ConversationState | null;
      assignee_id: string | null;
    }>(
      `WITH contact AS (SELECT id FROM contacts WHERE workspace_id = $1 AND id = $2),
       member AS (SELECT 1 FROM memberships WHERE workspace_id = $1 AND user_id = $4),
       changed AS (
         INSERT INTO conversations AS c (workspace_id, contact_id, state, assignee_id, team_id)
         SELECT $1, contact.id, COALESCE($3::text, 'open'), CASE WHEN $5::boolean THEN $4::text END,
           CASE WHEN $6::boolean THEN $7::text END FROM contact
         WHERE NOT $5::boolean OR $4::text IS NULL OR EXISTS (SELECT 1 FROM member)
         ON CONFLICT (workspace_id, contact_id) DO UPDATE
           SET state = COALESCE($3, c.state),
               assignee_id = CASE WHEN $5 THEN $4 ELSE c.assignee_id END,
               team_id = CASE WHEN $6 THEN $7 ELSE c.team_id END,
               updated_at = now()
         RETURNING c.state, c.assignee_id)
       SELECT EXISTS (SELECT 1 FROM contact) AS contact, changed.state, changed.assignee_id
       FROM (SELECT 1) one LEFT JOIN changed ON true`,
      [
        workspaceId,
        contactId,
        change.state ?? null,
        assign ? change.assignee_id : null,
        assign,
        team,
        team ? change.team_id : null,
      ],
    );
    const r = rows[0]!;
    if (!r.contact) throw new ApiError('not_found', 'No contact with that id');
    if (!r.state)
      throw ApiError.invalid('assignee_id', 'Assign the conversation to a member of this workspace.');
    const was = { state: before[0]?.state ?? 'open', assigneeId: before[0]?.assignee_id ?? null };
    if (was.state === r.state && was.assigneeId === r.assignee_id) return [];
    return publish(ctx, tx, 'conversation.changed', {
      workspaceId,
      contactId,
      userId: by.userId,
      via: by.userId ? 'member' : (by.via ?? 'bot'),
      state: r.state,
      assigneeId: r.assignee_id,
      was,
    });
  }
}
