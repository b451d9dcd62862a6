import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { disconnectNumber } from './connected-numbers.js';

/** Removes the workspace's number and its credentials; sends answer no_connected_number from then on. */
export async function disconnectWorkspaceNumber(ctx: AppContext, workspaceId: string): Promise<void> {
  const disconnected = await disconnectNumber(ctx.db, workspaceId);
  ctx.sending.forget(workspaceId);
  if (!disconnected) throw new ApiError('no_connected_number', 'This workspace has no connected number');
}
