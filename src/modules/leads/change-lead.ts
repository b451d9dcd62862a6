import type { Queryable } from '../../db/db.js';
import { setLeadOwner } from './set-lead-owner.js';
import { setLeadStatus } from './set-lead-status.js';

/** The app's lead edit: status and owner together (the caller's transaction makes it all or nothing). */
export async function changeLead(
  tx: Queryable,
  workspaceId: string,
  id: string,
  change: { status?: string; owner_id?: string | null },
): Promise<void> {
  if (change.owner_id !== undefined) await setLeadOwner(tx, workspaceId, id, change.owner_id);
  if (change.status) await setLeadStatus(tx, workspaceId, id, change.status);
}
