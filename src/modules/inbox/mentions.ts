import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { displayName } from '../accounts/display-name.js';
import { canSendMail, queueMail } from '../mail/queue-mail.js';
import type { NoteAuthor } from './add-note.js';
import { MENTION } from './mention-token.js';

// A mention e-mail goes to a member at most this often: the rest wait in the app's list.
const EMAIL_EVERY_MINUTES = 10;

/** The user ids a note's text names, each once, in order. */
export function mentionedIds(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION)].map((m) => m[1]!))];
}

/**
 * Keeps the note's mentions of members of its workspace, and tells each (never the author) with a
 * notification, which reaches their live streams only (0044), and an e-mail when SMTP is set, no
 * more than one every EMAIL_EVERY_MINUTES per member. Runs in the note's transaction: the e-mail goes
 * out if and only if the note is stored. Returns how many members were told.
 */
export async function recordMentions(
  ctx: AppContext,
  tx: Queryable,
  workspaceId: string,
  author: NoteAuthor,
  note: { id: string; contactId: string; text: string },
): Promise<number> {
  const named = mentionedIds(note.text);
  if (named.length === 0) return 0;
  const authorId = 'userId' in author ? author.userId : null;
  const { rows: members } = await tx.query<{ user_id: string }>(
    `INSERT INTO note_mentions (workspace_id, note_id, user_id)
     SELECT $1, $2, m.user_id FROM memberships m WHERE m.workspace_id = $1 AND m.user_id = ANY ($3::text[])
     RETURNING user_id`,
    [workspaceId, note.id, named],
  );
  const told = members.map((m) => m.user_id).filter((id) => id !== authorId);
  if (told.length === 0) return 0;
  await tx.query(
    `INSERT INTO notifications (workspace_id, id, user_id, kind, contact_id, note_id)
     SELECT $1, ids.id, ids.user_id, 'mention', $3, $2
     FROM unnest($4::text[], $5::text[]) AS ids (user_id, id)`,
    [workspaceId, note.id, note.contactId, told, told.map(() => newId('ntf'))],
  );
  if (canSendMail(ctx) && ctx.queue) await emailMentioned(ctx, tx, workspaceId, author, note);
  return told.length;
}

/** The mention e-mails of a note's new notifications, to members not e-mailed in the last minutes. */
async function emailMentioned(
  ctx: AppContext,
  tx: Queryable,
  workspaceId: string,
  author: NoteAuthor,
  note: { id: string; contactId: string },
): Promise<void> {
  const { rows } = await tx.query<{ email: string; workspace_name: string; author_name: string }>(
    `WITH due AS (
       UPDATE notifications n SET emailed_at = now()
       WHERE n.workspace_id = $1 AND n.note_id = $2 AND NOT EXISTS (
         SELECT 1 FROM notifications e WHERE e.workspace_id = $1 AND e.user_id = n.user_id
           AND e.emailed_at > now() - make_interval(mins => ${EMAIL_EVERY_MINUTES}))
       RETURNING n.user_id)
     SELECT u.email, w.name AS workspace_name,
       COALESCE((SELECT ${displayName('a')} FROM users a WHERE a.id = $3),
         (SELECT 'API key ' || COALESCE(NULLIF(k.name, ''), k.display_prefix) FROM api_keys k
          WHERE k.workspace_id = $1 AND k.id = $4), 'A teammate') AS author_name
     FROM due JOIN users u ON u.id = due.user_id JOIN workspaces w ON w.id = $1`,
    [
      workspaceId,
      note.id,
      'userId' in author ? author.userId : null,
      'apiKeyId' in author ? author.apiKeyId : null,
    ],
  );
  const link = new URL(`/messages/${encodeURIComponent(note.contactId)}`, ctx.config.appUrl).toString();
  for (const r of rows) {
    // No note text and nothing of the customer's: e-mail leaves the app's walls; the link asks to sign in.
    await queueMail(ctx, tx, {
      to: r.email,
      subject: `${r.author_name} mentioned you in ${r.workspace_name} on Parley`,
      text:
        `${r.author_name} mentioned you in an internal note on a conversation in ${r.workspace_name}.\n\n` +
        `Open the conversation:\n${link}\n\n` +
        `Mention e-mails come at most once every ${EMAIL_EVERY_MINUTES} minutes; the app lists every mention.\n`,
    });
  }
}
