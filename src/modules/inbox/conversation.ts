import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { displayName } from '../accounts/display-name.js';
import { ISO } from '../contacts/list-contacts.js';
import { MESSAGE_COLUMNS } from '../messaging/list-messages.js';
import type { ConversationContact, ConversationMessage } from './conversation-schemas.js';

/** The contact a conversation is with, whether its 24-hour window is open, and its consent (how it opted out). */
export async function conversationContact(
  db: Queryable,
  workspaceId: string,
  contactId: string,
): Promise<ConversationContact> {
  const { rows } = await db.query<ConversationContact>(
    `SELECT c.id, c.phone, c.name, c.email,
       COALESCE(c.last_inbound_at > now() - interval '24 hours', false) AS window_open,
       to_char((c.last_inbound_at + interval '24 hours') AT TIME ZONE 'UTC', ${ISO}) AS window_closes_at,
       c.opted_out, to_char(c.opted_out_at AT TIME ZONE 'UTC', ${ISO}) AS opted_out_at,
       cc.source AS opt_out_source, cc.keyword AS opt_out_keyword
     FROM contacts c
     LEFT JOIN LATERAL (SELECT source, keyword FROM consent_changes
       WHERE workspace_id = c.workspace_id AND contact_id = c.id AND opted_out AND c.opted_out
       ORDER BY created_at DESC LIMIT 1) cc ON true
     WHERE c.workspace_id = $1 AND c.id = $2`,
    [workspaceId, contactId],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No contact with that id');
  return rows[0];
}

/**
 * The last 200 messages with a contact, oldest first, each with what the page draws it from: its
 * content, a template's components (as created, and the values it was sent with), and the message it
 * replies to (`quoted`, found by the network's id even when it is not among the 200). The network
 * dates customers' messages in whole seconds: those of one second come in the order they were
 * stored (updated_at, as an inbound message is never updated). An outbound message says how it was
 * sent (`sent_via`: teammate, with `sender_name`; a bot or a flow, with its automation's name; api;
 * survey, the satisfaction survey; automatic, the built-in away message or greeting, routing/away-or-greeting.ts, named in `sender_name`).
 * An inbound message's file says where its download stands (`media_status`), so the page asks for it
 * only once it is stored.
 */
export async function conversationMessages(db: Queryable, workspaceId: string, contactId: string) {
  const { rows } = await db.query<ConversationMessage>(
    `SELECT * FROM (SELECT ${MESSAGE_COLUMNS}, m.wamid, m.content, m.context_wamid, m.reply_to, m.context, m.referral, m.team_read_at,
         m.content_removed_at, m.template_components, t.body AS template_body, t.components AS template_definition,
         CASE WHEN m.direction = 'outbound' THEN
           CASE WHEN m.sent_by IS NOT NULL THEN 'teammate'
             WHEN sr.holds_conversation OR sa.trigger_type = 'message_received' THEN 'bot'
             WHEN left(m.source_key, 7) = 'survey/' THEN 'survey'
             WHEN left(m.source_key, 6) = 'hours/' THEN 'automatic'
             WHEN m.source_key IS NOT NULL THEN 'flow' ELSE 'api' END
         END AS sent_via, m.sent_by, COALESCE(${displayName('su')}, sa.name,
           CASE left(m.source_key, 11) WHEN 'hours/away/' THEN 'Away message' WHEN 'hours/greet' THEN 'Greeting' END)
           AS sender_name,
         CASE WHEN q.id IS NOT NULL THEN jsonb_build_object('id', q.id, 'direction', q.direction, 'type', q.type,
           'text', q.text, 'template_name', q.template_name, 'content', q.content) END AS quoted,
         md.state AS media_status, md.size::float8 AS media_size
       FROM messages m
       LEFT JOIN media md ON md.workspace_id = m.workspace_id AND md.message_id = m.id
       LEFT JOIN templates t ON t.workspace_id = m.workspace_id AND t.name = m.template_name
         AND t.language = m.template_language
       LEFT JOIN messages q ON q.workspace_id = m.workspace_id AND q.wamid = m.context_wamid
       LEFT JOIN users su ON su.id = m.sent_by
       LEFT JOIN runs sr ON left(m.source_key, 4) = 'run_' AND sr.workspace_id = m.workspace_id
         AND sr.id = split_part(m.source_key, '/', 1)
       LEFT JOIN automations sa ON sa.workspace_id = sr.workspace_id AND sa.id = sr.automation_id
       WHERE m.workspace_id = $1 AND m.contact_id = $2
       ORDER BY m.created_at DESC, m.updated_at DESC LIMIT 200) AS recent ORDER BY created_at, updated_at, id`,
    [workspaceId, contactId],
  );
  return rows;
}
