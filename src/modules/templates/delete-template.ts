import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { type Actor, audited } from '../audit/record-audit.js';
import { setArchived } from '../audit/set-archived.js';
import { CloudApiError } from '../messaging/cloud-api/client.js';
import { clientFor, numberOfWorkspace } from '../messaging/connected-numbers.js';

export interface DeletedTemplate {
  /** deleted: gone here and on the network; archived: the network did not delete it, hidden here only. */
  outcome: 'deleted' | 'archived';
  /** Why it was only archived, in words. */
  reason?: string;
}

/**
 * Deletes a template on the network (this language only, by its network id) and then here. When the
 * network cannot or will not delete it (no number connected, an error, a template it never had),
 * the template is archived here instead: no longer listed or sent, restorable, and the answer says why.
 */
export async function deleteTemplate(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  actor: Actor,
): Promise<DeletedTemplate> {
  const { rows } = await ctx.db.query<{ name: string; external_id: string | null }>(
    'SELECT name, external_id FROM templates WHERE workspace_id = $1 AND id = $2',
    [workspaceId, id],
  );
  const template = rows[0];
  if (!template) throw new ApiError('not_found', 'No template with that id');
  const reason = await deleteOnNetwork(ctx, workspaceId, template);
  if (reason) {
    await setArchived(ctx.db, {
      table: 'templates',
      entityType: 'template',
      workspaceId,
      id,
      archived: true,
      actor,
      notFound: 'No template with that id',
    });
    return { outcome: 'archived', reason };
  }
  await audited(
    ctx.db,
    (tx) => tx.query('DELETE FROM templates WHERE workspace_id = $1 AND id = $2', [workspaceId, id]),
    () => ({ workspaceId, actor, action: 'delete', entityType: 'template', entityId: id }),
  );
  return { outcome: 'deleted' };
}

/** Null once the network deleted it; otherwise why it did not. */
async function deleteOnNetwork(
  ctx: AppContext,
  workspaceId: string,
  t: { name: string; external_id: string | null },
): Promise<string | null> {
  if (!t.external_id) return 'WhatsApp never had this template';
  const number = await numberOfWorkspace(ctx, ctx.db, workspaceId);
  if (!number) return 'no WhatsApp number is connected';
  try {
    await clientFor(ctx, number).deleteTemplate(number.businessAccountId, t.name, t.external_id);
    return null;
  } catch (err) {
    if (err instanceof CloudApiError) return `WhatsApp answered: ${err.message}`;
    throw err;
  }
}
