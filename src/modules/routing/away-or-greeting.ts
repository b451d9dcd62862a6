import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { botHolds } from '../automation/bot-conversation.js';
import type { AfterCommit, MessageReceived } from '../messaging/events.js';
import { previousInbound } from '../messaging/previous-inbound.js';
import { sendMessage } from '../messaging/send-message.js';
import { insideBusinessHours } from './business-hours.js';
import { hoursSettings } from './business-hours-settings.js';

/** A contact is sent the away message at most once in this long, however many messages they send. */
const AWAY_QUIET = "interval '12 hours'";

/** The source key prefix of automatic messages; the inbox shows them as automatic (inbox/conversation.ts). */
const KEY_PREFIX = 'hours/';

/**
 * The built-in away message (outside business hours) and greeting (a contact's first message ever,
 * inside them), decided in the transaction that stores the customer's message and sent once it
 * commits, keyed by that message so a redelivered webhook never sends twice. Nothing for consent
 * keywords, an opted-out contact, a resolved conversation (a survey answer) or one a bot holds (the
 * bot answers). Subscribed to messaging's `message.received` after routing and assignment
 * (modules/subscriptions.ts), so it sees the bot they started.
 */
export async function awayOrGreeting(
  ctx: AppContext,
  tx: Queryable,
  inbound: MessageReceived,
): Promise<AfterCommit | undefined> {
  const { workspaceId, contactId, message } = inbound;
  if (inbound.consent) return undefined;
  const settings = await hoursSettings(tx, workspaceId);
  if (!settings.away && !settings.greeting) return undefined;
  const { rows } = await tx.query<{ phone: string; opted_out: boolean; state: string | null }>(
    `SELECT c.phone, c.opted_out, v.state FROM contacts c
     LEFT JOIN conversations v ON v.workspace_id = c.workspace_id AND v.contact_id = c.id
     WHERE c.workspace_id = $1 AND c.id = $2`,
    [workspaceId, contactId],
  );
  const contact = rows[0];
  if (!contact || contact.opted_out || contact.state === 'resolved') return undefined;
  if (await botHolds(tx, workspaceId, contactId)) return undefined;
  const inside = insideBusinessHours(settings.hours, settings.timeZone, inbound.at);
  let kind: 'away' | 'greeting';
  let text: string;
  if (!inside) {
    if (!settings.away || !(await claimAway(tx, workspaceId, contactId))) return undefined;
    kind = 'away';
    text = settings.away;
  } else {
    if (!settings.greeting || (await previousInbound(tx, workspaceId, contactId, message.message_id)))
      return undefined;
    kind = 'greeting';
    text = settings.greeting;
  }
  // Not awaited: the network's webhook is answered without waiting on a send.
  return () => {
    sendMessage(
      ctx,
      { workspaceId, defaultCountryCode: null },
      { to: `+${contact.phone}`, type: 'text', text },
      { sourceKey: `${KEY_PREFIX}${kind}/${message.message_id}` },
    ).catch((err: unknown) =>
      ctx.log.warn(
        { err, workspaceId, contactId, kind },
        'the automatic away or greeting message was not sent',
      ),
    );
  };
}

/** Takes the contact's away turn: false when they were sent one within AWAY_QUIET. */
async function claimAway(tx: Queryable, workspaceId: string, contactId: string): Promise<boolean> {
  const { rows } = await tx.query(
    `INSERT INTO away_replies (workspace_id, contact_id, sent_at) VALUES ($1, $2, now())
     ON CONFLICT (workspace_id, contact_id) DO UPDATE SET sent_at = EXCLUDED.sent_at
       WHERE away_replies.sent_at <= EXCLUDED.sent_at - ${AWAY_QUIET}
     RETURNING 1`,
    [workspaceId, contactId],
  );
  return rows.length > 0;
}
