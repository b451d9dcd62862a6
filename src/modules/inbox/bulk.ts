import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { type AfterCommit, runAfterCommit } from '../messaging/events.js';
import { type ChangedBy, changeConversationIn } from './change-conversation.js';
import type { BulkBody, BulkResult } from './label-schemas.js';
import { requireLabel, setConversationLabel } from './labels.js';
import { setSnooze, snoozeEnd } from './snooze.js';

// Conversations changed in one transaction: a bulk action of 500 holds no lock for long.
const BATCH = 50;

/**
 * One action on many conversations, each through the function a single change uses (so each
 * assignment or resolution is announced and recorded on its own), in batches of BATCH. Ids that
 * are not the workspace's conversations are left alone and answered in `not_found`. A bad
 * assignee, label or time is a 422 before anything changes.
 */
export async function bulkChange(ctx: AppContext, by: ChangedBy, body: BulkBody): Promise<BulkResult> {
  const { workspaceId } = by;
  const apply = await prepare(ctx.db, workspaceId, body);
  const { rows } = await ctx.db.query<{ contact_id: string }>(
    'SELECT contact_id FROM conversations WHERE workspace_id = $1 AND contact_id = ANY($2::text[])',
    [workspaceId, body.ids],
  );
  const found = new Set(rows.map((r) => r.contact_id));
  const ids = body.ids.filter((id) => found.has(id));
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const after = await ctx.db.transaction(async (tx) => {
      const then: AfterCommit[] = [];
      for (const id of batch) then.push(...((await apply(ctx, tx, by, id)) ?? []));
      return then;
    });
    await runAfterCommit(after);
  }
  return { result: true, done: ids.length, not_found: body.ids.filter((id) => !found.has(id)) };
}

type Apply = (
  ctx: AppContext,
  tx: Queryable,
  by: ChangedBy,
  id: string,
) => Promise<AfterCommit[] | undefined>;

/** Checks what the action needs, once for all, and answers how to apply it to one conversation. */
async function prepare(db: Queryable, workspaceId: string, body: BulkBody): Promise<Apply> {
  switch (body.action) {
    case 'resolve':
      return (ctx, tx, by, id) => changeConversationIn(ctx, tx, by, id, { state: 'resolved' });
    case 'assign': {
      const assignee = body.assignee_id;
      if (assignee === undefined)
        throw ApiError.invalid('assignee_id', "Give the member's user id, or null for no one.");
      if (assignee !== null) {
        const { rows } = await db.query(
          'SELECT 1 FROM memberships WHERE workspace_id = $1 AND user_id = $2',
          [workspaceId, assignee],
        );
        if (!rows[0])
          throw ApiError.invalid('assignee_id', 'Assign the conversations to a member of this workspace.');
      }
      return (ctx, tx, by, id) => changeConversationIn(ctx, tx, by, id, { assignee_id: assignee });
    }
    case 'label':
    case 'unlabel': {
      const labelId = body.label_id;
      if (labelId === undefined) throw ApiError.invalid('label_id', 'Choose a label.');
      await requireLabel(db, workspaceId, labelId);
      const on = body.action === 'label';
      return async (_ctx, tx, by, id) => {
        await setConversationLabel(tx, by.workspaceId, id, labelId, on);
        return undefined;
      };
    }
    case 'snooze': {
      const end = snoozeEnd(body);
      return async (_ctx, tx, by, id) => {
        await setSnooze(tx, by.workspaceId, id, end);
        return undefined;
      };
    }
  }
}
