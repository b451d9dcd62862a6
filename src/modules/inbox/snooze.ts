import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { requireConversation } from './api-conversations.js';
import type { ConversationTags, SnoozeBody } from './label-schemas.js';
import { conversationTags } from './labels.js';

// A snooze further off than this is surely a mistake (a year typed wrong).
const SNOOZE_MAX_DAYS = 365;

/**
 * When a snooze ends, as stored: the time, or 'infinity' for "until the customer writes". 422 at
 * `until` for a time not in the future or more than a year off.
 */
export function snoozeEnd(body: Pick<SnoozeBody, 'until' | 'until_reply'>, now = Date.now()): string {
  if (body.until_reply) return 'infinity';
  if (body.until === undefined)
    throw ApiError.invalid('until', 'Choose when the snooze ends, or until they reply.');
  const at = Date.parse(body.until);
  if (!(at > now)) throw ApiError.invalid('until', 'Choose a time in the future.');
  if (at > now + SNOOZE_MAX_DAYS * 86_400_000)
    throw ApiError.invalid('until', `Choose a time within ${SNOOZE_MAX_DAYS} days.`);
  return new Date(at).toISOString();
}

/** Hides the conversation from the open lists until `end` (snoozeEnd), or wakes it (`end` null). */
export async function setSnooze(db: Queryable, workspaceId: string, contactId: string, end: string | null) {
  await db.query('UPDATE conversations SET snoozed_until = $3 WHERE workspace_id = $1 AND contact_id = $2', [
    workspaceId,
    contactId,
    end,
  ]);
}

/** Snoozes one conversation (or wakes it, `body` null); 404 for one the workspace does not have. */
export async function snoozeConversation(
  db: Queryable,
  workspaceId: string,
  contactId: string,
  body: SnoozeBody | null,
): Promise<ConversationTags> {
  const end = body ? snoozeEnd(body) : null;
  await requireConversation(db, workspaceId, contactId);
  await setSnooze(db, workspaceId, contactId, end);
  return conversationTags(db, workspaceId, contactId);
}
