import { ApiError } from '../../api/errors.js';

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** Owners and admins run the workspace (keys, webhooks, team, settings); members work in it. */
export function canManage(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}

/** Who may invite whom: managers invite admins and members; only an owner invites another owner. */
export function canInvite(inviter: Role, invited: Role): boolean {
  return canManage(inviter) && (invited !== 'owner' || inviter === 'owner');
}

export function requireManager(role: Role): void {
  if (!canManage(role)) {
    throw new ApiError('forbidden', 'Only owners and admins can do this; ask one of them');
  }
}
