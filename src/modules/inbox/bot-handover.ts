import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { resumeConversationBot, stopConversationBot } from '../automation/bot-conversation.js';

/** Takes the conversation over from the bot holding it, without replying (a reply stops it too); none holding it is no change. */
export async function stopBot(ctx: AppContext, workspaceId: string, contactId: string, reason: string) {
  await stopConversationBot(ctx, ctx.db, workspaceId, contactId, reason);
}

/** Hands the conversation back to the bot that handed it to the team and waits (409 when none waits). */
export async function resumeBot(ctx: AppContext, workspaceId: string, contactId: string) {
  const resumed = await ctx.db.transaction((tx) => resumeConversationBot(ctx, tx, workspaceId, contactId));
  if (!resumed) throw new ApiError('conflict', 'No bot waits to take this conversation back');
  ctx.queue?.wake('automation.step');
}
