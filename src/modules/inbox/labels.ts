import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { ISO } from '../contacts/list-contacts.js';
import { requireConversation } from './api-conversations.js';
import {
  type ConversationTags,
  LABELS_MAX,
  type Label,
  type LabelBody,
  type LabelPatch,
} from './label-schemas.js';
import { TAGS_OF_ROW } from './label-sql.js';

const NOT_FOUND = 'No label with that id';

/** The workspace's labels by name, each with how many conversations carry it. */
export async function listLabels(db: Queryable, workspaceId: string, id?: string): Promise<Label[]> {
  const { rows } = await db.query<Label>(
    `SELECT l.id, l.name, l.colour, to_char(l.created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
       (SELECT count(*)::int FROM conversation_labels cl WHERE cl.workspace_id = l.workspace_id AND cl.label_id = l.id)
         AS conversations
     FROM labels l WHERE l.workspace_id = $1 AND ($2::text IS NULL OR l.id = $2)
     ORDER BY lower(l.name), l.id`,
    [workspaceId, id ?? null],
  );
  return rows;
}

export async function getLabel(db: Queryable, workspaceId: string, id: string): Promise<Label> {
  const [found] = await listLabels(db, workspaceId, id);
  if (!found) throw new ApiError('not_found', NOT_FOUND);
  return found;
}

const nameTaken = (err: unknown) =>
  (err as { code?: string }).code === '23505'
    ? ApiError.invalid('name', 'A label of that name exists already; choose another name.')
    : err;

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw ApiError.invalid('name', 'Give the label a name.');
  return trimmed;
}

/** A new label; 422 at `name` for a name in use (in any case), 409 past LABELS_MAX labels. */
export async function createLabel(db: Queryable, workspaceId: string, body: LabelBody): Promise<Label> {
  const id = newId('lbl');
  try {
    const { rows } = await db.query(
      `INSERT INTO labels (workspace_id, id, name, colour)
       SELECT $1, $2, $3, $4 WHERE (SELECT count(*) FROM labels WHERE workspace_id = $1) < $5 RETURNING id`,
      [workspaceId, id, cleanName(body.name), body.colour ?? 'grey', LABELS_MAX],
    );
    if (!rows[0])
      throw new ApiError(
        'conflict',
        `A workspace has at most ${LABELS_MAX} labels: delete one you no longer use`,
      );
  } catch (err) {
    throw nameTaken(err);
  }
  return getLabel(db, workspaceId, id);
}

/** Renames or recolours a label; 404 for one not of the workspace. */
export async function updateLabel(db: Queryable, workspaceId: string, id: string, patch: LabelPatch) {
  try {
    const { rows } = await db.query(
      `UPDATE labels SET name = COALESCE($3, name), colour = COALESCE($4, colour)
       WHERE workspace_id = $1 AND id = $2 RETURNING id`,
      [workspaceId, id, patch.name === undefined ? null : cleanName(patch.name), patch.colour ?? null],
    );
    if (!rows[0]) throw new ApiError('not_found', NOT_FOUND);
  } catch (err) {
    throw nameTaken(err);
  }
  return getLabel(db, workspaceId, id);
}

/** Deletes a label and takes it off every conversation. */
export async function deleteLabel(db: Queryable, workspaceId: string, id: string): Promise<void> {
  const { rows } = await db.query('DELETE FROM labels WHERE workspace_id = $1 AND id = $2 RETURNING id', [
    workspaceId,
    id,
  ]);
  if (!rows[0]) throw new ApiError('not_found', NOT_FOUND);
}

/** 422 at `label_id` unless the label is the workspace's (404 when its id came in the path). */
export async function requireLabel(db: Queryable, workspaceId: string, id: string, inPath = false) {
  const { rows } = await db.query('SELECT 1 FROM labels WHERE workspace_id = $1 AND id = $2', [
    workspaceId,
    id,
  ]);
  if (rows[0]) return;
  if (inPath) throw new ApiError('not_found', NOT_FOUND);
  throw ApiError.invalid('label_id', 'Choose a label of this workspace.');
}

/** Puts a label on a conversation, or takes it off (`on` false); either is a no-op when already so. */
export async function setConversationLabel(
  db: Queryable,
  workspaceId: string,
  contactId: string,
  labelId: string,
  on: boolean,
): Promise<void> {
  await db.query(
    on
      ? `INSERT INTO conversation_labels (workspace_id, contact_id, label_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`
      : 'DELETE FROM conversation_labels WHERE workspace_id = $1 AND contact_id = $2 AND label_id = $3',
    [workspaceId, contactId, labelId],
  );
}

/** The same for one conversation from a route: 404 for a conversation (or a label taken off) not the workspace's, 422 for a label put on. */
export async function labelConversation(
  db: Queryable,
  workspaceId: string,
  contactId: string,
  labelId: string,
  on: boolean,
): Promise<ConversationTags> {
  await requireConversation(db, workspaceId, contactId);
  await requireLabel(db, workspaceId, labelId, !on);
  await setConversationLabel(db, workspaceId, contactId, labelId, on);
  return conversationTags(db, workspaceId, contactId);
}

/** A conversation's labels and snooze. */
export async function conversationTags(db: Queryable, workspaceId: string, contactId: string) {
  const { rows } = await db.query<ConversationTags>(
    `SELECT ${TAGS_OF_ROW} FROM conversations cv WHERE cv.workspace_id = $1 AND cv.contact_id = $2`,
    [workspaceId, contactId],
  );
  return rows[0] ?? { labels: [], snoozed_until: null, snoozed_until_reply: false };
}
