import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { botHolds } from '../automation/bot-conversation.js';
import { type AfterCommit, type MessageReceived, runAfterCommit } from '../messaging/events.js';
import { assignToTeam } from './assign-to-team.js';

/**
 * Subscribed to `message.received` (modules/subscriptions.ts), after the bots: an open, unassigned
 * conversation no bot holds goes round robin to the workspace's auto-assign team. Consent keywords
 * and a workspace without an auto-assign team change nothing. A conversation left in the team's
 * queue (nobody was available) is tried again at the customer's next message.
 */
export async function autoAssign(
  ctx: AppContext,
  tx: Queryable,
  inbound: MessageReceived,
): Promise<AfterCommit | undefined> {
  const { workspaceId, contactId } = inbound;
  if (inbound.consent) return undefined;
  const { rows } = await tx.query<{ team_id: string }>(
    `SELECT rs.auto_assign_team_id AS team_id FROM routing_settings rs
     JOIN conversations c ON c.workspace_id = rs.workspace_id AND c.contact_id = $2
     WHERE rs.workspace_id = $1 AND rs.auto_assign_team_id IS NOT NULL
       AND c.state = 'open' AND c.assignee_id IS NULL`,
    [workspaceId, contactId],
  );
  const teamId = rows[0]?.team_id;
  if (!teamId || (await botHolds(tx, workspaceId, contactId))) return undefined;
  const by = { workspaceId, userId: null, via: 'routing' as const };
  const { after } = await assignToTeam(ctx, tx, by, contactId, teamId);
  return after.length > 0 ? () => runAfterCommit(after) : undefined;
}
