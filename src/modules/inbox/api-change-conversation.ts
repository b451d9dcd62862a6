import type { AppContext } from '../../context.js';
import { ApiError } from '../../http/errors.js';
import { runAfterCommit } from '../messaging/events.js';
import { apiConversation, requireConversation } from './api-conversations.js';
import { type ConversationChangeInput, changeConversationIn } from './change-conversation.js';
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
  const by = { workspaceId, userId: null, via: 'api' as const };
  const after = await ctx.db.transaction(async (tx) => {
    await requireConversation(tx, workspaceId, contactId);
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
  await runAfterCommit(after);
  return apiConversation(ctx.db, workspaceId, contactId);
}
