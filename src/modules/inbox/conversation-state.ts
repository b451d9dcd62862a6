import type { Queryable } from '../../db/db.js';
import { displayName } from '../accounts/display-name.js';
import { ISO } from '../contacts/list-contacts.js';
import { HOLDING_BOT, WAITING_BOT } from './conversation-bot.js';
import { TAGS_OF_ROW } from './label-sql.js';
import type { ConversationStateView } from './schemas.js';

/** A conversation's state, assignee, last team read and the bot answering it (open and unassigned when it has no row yet). */
export async function conversationState(
  db: Queryable,
  workspaceId: string,
  contactId: string,
): Promise<ConversationStateView> {
  const { rows } = await db.query<ConversationStateView>(
    `SELECT cv.state, cv.assignee_id, ${displayName('u')} AS assignee_name, cv.team_id, tm.name AS team_name,
       to_char(cv.team_read_at AT TIME ZONE 'UTC', ${ISO}) AS team_read_at,
       CASE WHEN hb.run_id IS NOT NULL THEN jsonb_build_object('run_id', hb.run_id, 'automation_id', hb.automation_id,
         'name', hb.name, 'waiting_for_answer', hb.waiting_for_answer) END AS bot,
       CASE WHEN wb.run_id IS NOT NULL THEN jsonb_build_object('run_id', wb.run_id, 'name', wb.name) END AS bot_waiting,
       ${TAGS_OF_ROW}
     FROM conversations cv
     LEFT JOIN users u ON u.id = cv.assignee_id
     LEFT JOIN teams tm ON tm.workspace_id = cv.workspace_id AND tm.id = cv.team_id ${HOLDING_BOT} ${WAITING_BOT} WHERE cv.workspace_id = $1 AND cv.contact_id = $2`,
    [workspaceId, contactId],
  );
  return (
    rows[0] ?? {
      state: 'open',
      assignee_id: null,
      assignee_name: null,
      team_id: null,
      team_name: null,
      team_read_at: null,
      bot: null,
      bot_waiting: null,
      labels: [],
      snoozed_until: null,
      snoozed_until_reply: false,
    }
  );
}
