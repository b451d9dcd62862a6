import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { type Actor, changedFields, recordAudit } from '../audit/record-audit.js';
import type { Definition } from './definition.js';
import { getAutomation } from './list-automations.js';
import { checkDefinition, publishVersion, unpublishAutomation, writeDraft } from './save-automation.js';

export interface AutomationChange {
  /** Top-level definition fields that replace the draft's (name, trigger, steps, ...). */
  fields: Record<string, unknown>;
  /** true: publish the latest version; false: unpublish. */
  published?: boolean;
}

const ARCHIVED = 'This automation is archived: restore it before changing it';

/**
 * REST v1's PATCH: fields that change the draft make a new version, then the latest version is
 * published or unpublished, with their audit entries, in one transaction. The same definition sent
 * again makes no new version. An archived automation is a 409.
 */
export async function changeAutomation(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  change: AutomationChange,
  actor: Actor,
): Promise<void> {
  const current = await getAutomation(ctx, workspaceId, id);
  if (!current) throw new ApiError('not_found', 'No automation with that id');
  if (current.archived_at) throw new ApiError('conflict', ARCHIVED);
  let definition: Definition | null = null;
  if (Object.keys(change.fields).length > 0) {
    // The stored draft copied: the check fills in defaults, which must not reach the draft it is
    // compared with. The request's own fields are not copied (a deep one would overflow the stack).
    const checked = await checkDefinition(ctx, workspaceId, {
      ...structuredClone(current.draft),
      ...change.fields,
    });
    if (!isDeepStrictEqual(checked, current.draft)) definition = checked;
  }
  const audit = (tx: Parameters<typeof recordAudit>[0], action: 'update' | 'publish' | 'unpublish') =>
    recordAudit(tx, {
      workspaceId,
      actor,
      action,
      entityType: current.kind,
      entityId: id,
      ...(action === 'update' ? { changes: changedFields(change.fields) } : {}),
    });
  await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{
      draft_version: number;
      published_version: number | null;
      archived: boolean;
    }>(
      `SELECT draft_version, published_version, archived_at IS NOT NULL AS archived FROM automations
       WHERE workspace_id = $1 AND id = $2 FOR UPDATE`,
      [workspaceId, id],
    );
    const row = rows[0];
    if (!row) throw new ApiError('not_found', 'No automation with that id');
    if (row.archived) throw new ApiError('conflict', ARCHIVED);
    if (definition) {
      // The change was merged into the draft read above: another change since would be undone.
      if (row.draft_version !== current.draft_version)
        throw new ApiError(
          'conflict',
          'It was changed by another request meanwhile: read it again, then send the change',
        );
      await writeDraft(ctx, tx, workspaceId, id, definition, 'trigger');
      await audit(tx, 'update');
    }
    if (change.published === true) {
      const version = await publishVersion(tx, workspaceId, id);
      if (version !== row.published_version) await audit(tx, 'publish');
    } else if (change.published === false && row.published_version !== null) {
      await unpublishAutomation(tx, workspaceId, id);
      await audit(tx, 'unpublish');
    }
  });
}
