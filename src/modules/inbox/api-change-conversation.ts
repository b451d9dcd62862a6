import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { type AfterCommit, runAfterCommit } from '../messaging/events.js';
import { assignToTeam } from '../routing/assign-to-team.js';
import { apiConversation, requireConversation } from './api-conversations.js';
import { type ChangedBy, type ConversationChangeInput, changeConversationIn } from './change-conversation.js';
import type { ApiConversation } from './schemas.js';

/**
 * A change made through REST v1 (via 'api', no teammate): 404 for a conversation the workspace does
 * not have, 422 at `member_id` for an assignee who is not one of its members. Answers the
 * conversation as it stands after the change; a change that moves nothing is no change (no event).
 */
export async function changeConversationFromApi(
  ctx: AppContext,
  workspaceId: string,
  contactId: string,
  change: ConversationChangeInput,
): Promise<ApiConversation> {
  return fromApi(ctx, workspaceId, contactId, async (tx, by) => {
    try {
      return await changeConversationIn(ctx, tx, by, contactId, change);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'validation_error')
        throw ApiError.invalid(
          'member_id',
          'Assign the conversation to a member of this workspace (their user id), or to null for no one.',
        );
      throw err;
    }
  });
}

/** Gives the conversation to a team through REST v1 (round robin, routing/assign-to-team.ts); 422 at `team_id` for a team not of the workspace. */
export async function assignTeamFromApi(
  ctx: AppContext,
  workspaceId: string,
  contactId: string,
  teamId: string,
): Promise<ApiConversation> {
  return fromApi(ctx, workspaceId, contactId, async (tx, by) => {
    try {
      return (await assignToTeam(ctx, tx, by, contactId, teamId)).after;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'not_found')
        throw ApiError.invalid('team_id', 'Give the conversation to a team of this workspace (its id).');
      throw err;
    }
  });
}

async function fromApi(
  ctx: AppContext,
  workspaceId: string,
  contactId: string,
  change: (tx: Queryable, by: ChangedBy) => Promise<AfterCommit[]>,
): Promise<ApiConversation> {
  const by = { workspaceId, userId: null, via: 'api' as const };
  const after = await ctx.db.transaction(async (tx) => {
    await requireConversation(tx, workspaceId, contactId);
    return change(tx, by);
  });
  await runAfterCommit(after);
  return apiConversation(ctx.db, workspaceId, contactId);
}
