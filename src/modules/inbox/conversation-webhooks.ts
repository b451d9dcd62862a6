import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import type { AfterCommit, ConversationChanged, MessageReceived } from '../messaging/events.js';
import { previousInbound } from '../messaging/previous-inbound.js';
import { queueDeliveries, recordEvent } from '../webhooks/emit.js';
import type { WebhookEvent } from '../webhooks/endpoints.js';
import { getApiConversation } from './api-conversations.js';

/** Whether an enabled endpoint of the workspace takes any of `types`: without one, nothing is read or recorded. */
async function wanted(tx: Queryable, workspaceId: string, types: WebhookEvent[]): Promise<boolean> {
  const { rows } = await tx.query(
    'SELECT 1 FROM webhook_endpoints WHERE workspace_id = $1 AND enabled AND events && $2::text[] LIMIT 1',
    [workspaceId, types],
  );
  return rows.length > 0;
}

/**
 * `conversation.created` on the contact's first inbound message ever (a redelivered webhook stores
 * and publishes nothing), with the conversation as it stands once the subscribers before this one
 * (a bot starting) ran. Keyed by the contact: an endpoint hears it once.
 */
export async function conversationCreated(
  ctx: AppContext,
  tx: Queryable,
  e: MessageReceived,
): Promise<AfterCommit | undefined> {
  if (!(await wanted(tx, e.workspaceId, ['conversation.created']))) return;
  if (await previousInbound(tx, e.workspaceId, e.contactId, e.message.message_id)) return;
  const conversation = await getApiConversation(tx, e.workspaceId, e.contactId);
  if (!conversation) return;
  const data = { ...conversation, message_id: e.message.message_id };
  const deliveries = await recordEvent(
    tx,
    e.workspaceId,
    'conversation.created',
    `conversation.created/${e.contactId}`,
    data,
  );
  return () => queueDeliveries(ctx, e.workspaceId, deliveries);
}

/**
 * `conversation.assigned` when the assignee changed (to someone or to no one) and
 * `conversation.resolved` when it moved to resolved, with who did it (`changed_by`).
 */
export async function announceConversationChange(
  ctx: AppContext,
  tx: Queryable,
  e: ConversationChanged,
): Promise<AfterCommit | undefined> {
  const types: WebhookEvent[] = [];
  if (e.assigneeId !== e.was.assigneeId) types.push('conversation.assigned');
  if (e.state === 'resolved' && e.was.state !== 'resolved') types.push('conversation.resolved');
  if (!types.length || !(await wanted(tx, e.workspaceId, types))) return;
  const conversation = await getApiConversation(tx, e.workspaceId, e.contactId);
  if (!conversation) return;
  const data = { ...conversation, changed_by: { type: e.via, member_id: e.userId } };
  // Each change happens once, in this transaction: its own key.
  const change = newId('evt');
  const deliveries: string[] = [];
  for (const type of types)
    deliveries.push(...(await recordEvent(tx, e.workspaceId, type, `${type}/${change}`, data)));
  return () => queueDeliveries(ctx, e.workspaceId, deliveries);
}
