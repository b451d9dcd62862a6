import { ApiError } from '../../api/errors.js';
import type { Db } from '../../db/db.js';
import { type Actor, recordAudit } from '../audit/record-audit.js';

export async function deleteQuickReply(db: Db, workspaceId: string, id: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query(
      'DELETE FROM quick_replies WHERE workspace_id = $1 AND id = $2 RETURNING id',
      [workspaceId, id],
    );
    if (!rows[0]) throw new ApiError('not_found', 'No quick reply with that id');
    await recordAudit(tx, { workspaceId, actor, action: 'delete', entityType: 'quick_reply', entityId: id });
  });
}
