// PLACEHOLDER until h-engine merges (A's file replaces this one).
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import type { ReceivedMessage } from './message-event.js';

export async function answerAwaited(
  _ctx: AppContext,
  _tx: Queryable,
  _workspaceId: string,
  _contactId: string,
  _message: ReceivedMessage,
): Promise<boolean> {
  return false;
}

export async function stopConversationBot(
  _ctx: AppContext,
  tx: Queryable,
  workspaceId: string,
  contactId: string,
  reason: string,
  opts: { teammate?: boolean } = {},
): Promise<string | null> {
  const { rows } = await tx.query<{ id: string }>(
    `UPDATE runs r SET status = 'stopped', error = $3, finished_at = now(), updated_at = now()
     WHERE r.workspace_id = $1 AND r.contact_id = $2 AND r.holds_conversation AND r.status IN ('running', 'waiting')
       AND (NOT $4 OR NOT EXISTS (SELECT 1 FROM automation_versions v WHERE v.workspace_id = r.workspace_id
         AND v.automation_id = r.automation_id AND v.version = r.version
         AND v.definition ->> 'on_teammate_reply' = 'continue'))
     RETURNING id`,
    [workspaceId, contactId, reason, opts.teammate ?? false],
  );
  return rows[0]?.id ?? null;
}
