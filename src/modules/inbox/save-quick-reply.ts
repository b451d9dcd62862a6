import { ApiError } from '../../api/errors.js';
import type { Db, Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { type Actor, recordAudit } from '../audit/record-audit.js';
import { checkQuickReplyVariables } from './quick-reply-variables.js';
import { QUICK_REPLIES_MAX } from './schemas.js';

export interface QuickReplyInput {
  title: string;
  text: string;
}

const TAKEN = 'quick_replies_title';

const titleTaken = (err: unknown) => {
  if ((err as { constraint?: string }).constraint === TAKEN)
    throw ApiError.invalid('title', 'Another quick reply has this title; choose another.');
  throw err;
};

function check(input: QuickReplyInput): void {
  if (!input.title.trim()) throw ApiError.invalid('title', 'Give the quick reply a title.');
  checkQuickReplyVariables(input.text);
}

/**
 * A new quick reply, audited: 422 for an unknown variable, a title in use, or past QUICK_REPLIES_MAX.
 * Give it a transaction so the audit entry commits with it.
 */
export async function createQuickReply(
  db: Queryable,
  workspaceId: string,
  input: QuickReplyInput,
  actor: Actor,
) {
  check(input);
  const { rows } = await db
    .query<{ id: string }>(
      `INSERT INTO quick_replies (workspace_id, id, title, text)
       SELECT $1, $2, $3, $4 WHERE (SELECT count(*) FROM quick_replies WHERE workspace_id = $1) < $5
       RETURNING id`,
      [workspaceId, newId('qr'), input.title.trim(), input.text, QUICK_REPLIES_MAX],
    )
    .catch(titleTaken);
  if (!rows[0]) {
    throw ApiError.invalid(
      'title',
      `A workspace keeps at most ${QUICK_REPLIES_MAX} quick replies; delete one first`,
    );
  }
  const entityId = rows[0].id;
  await recordAudit(db, { workspaceId, actor, action: 'create', entityType: 'quick_reply', entityId });
  return rows[0];
}

/** Changes a quick reply's title and text: 404 for one not of the workspace. */
export async function updateQuickReply(
  db: Db,
  workspaceId: string,
  id: string,
  input: QuickReplyInput,
  actor: Actor,
): Promise<void> {
  check(input);
  await db.transaction(async (tx) => {
    const { rows } = await tx
      .query(
        `UPDATE quick_replies SET title = $3, text = $4, updated_at = now() WHERE workspace_id = $1 AND id = $2
         RETURNING id`,
        [workspaceId, id, input.title.trim(), input.text],
      )
      .catch(titleTaken);
    if (!rows[0]) throw new ApiError('not_found', 'No quick reply with that id');
    await recordAudit(tx, { workspaceId, actor, action: 'update', entityType: 'quick_reply', entityId: id });
  });
}
