import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { sha256Hex } from '../../lib/hash.js';
import { newId, newSecret } from '../../lib/ids.js';
import type { MailMessage } from '../mail/send-mail.js';
import { verifyPassword } from './passwords.js';
import { canInvite, type Role } from './roles.js';
import { addMember, createUserUnlessTaken, userByEmail } from './users.js';

const VALID_DAYS = 7;

/** An invitation link, shown once to the inviter (only the token's hash is kept). */
export async function createInvitation(
  db: Queryable,
  appUrl: string,
  workspaceId: string,
  invitedBy: { userId: string; role: Role },
  email: string,
  role: Role,
): Promise<{ id: string; url: string }> {
  if (role === 'owner' && invitedBy.role !== 'owner') {
    throw new ApiError('forbidden', 'Only an owner can invite another owner');
  }
  const { rows } = await db.query(
    `SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.workspace_id = $1 AND lower(u.email) = lower($2)`,
    [workspaceId, email],
  );
  if (rows.length > 0) throw new ApiError('conflict', `${email} is already a member of this workspace`);
  const id = newId('inv');
  const token = newSecret('');
  await db.query(
    `INSERT INTO invitations (workspace_id, id, email, role, token_hash, invited_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(days => $7))`,
    [workspaceId, id, email.trim(), role, sha256Hex(token), invitedBy.userId, VALID_DAYS],
  );
  return { id, url: `${appUrl}/invite/${token}` };
}

/** The e-mail that carries an invitation link, when the inviter chose to send it so. */
export function invitationMail(
  inviter: { name: string; email: string; workspaceName: string },
  email: string,
  role: Role,
  url: string,
): MailMessage {
  const who = inviter.name ? `${inviter.name} (${inviter.email})` : inviter.email;
  return {
    to: email,
    subject: `Join ${inviter.workspaceName} on Parley`,
    text:
      `${who} invited you to join ${inviter.workspaceName} on Parley as ${role}.\n\n` +
      `Accept the invitation here:\n${url}\n\n` +
      `The link works once and expires in ${VALID_DAYS} days.\n`,
  };
}

interface OpenInvitation {
  email: string;
  role: Role;
  workspace_name: string;
  inviter_role: Role | null;
}

async function openInvitation(db: Queryable, token: string): Promise<OpenInvitation> {
  const { rows } = await db.query<OpenInvitation>(
    `SELECT i.email, i.role, w.name AS workspace_name, m.role AS inviter_role
     FROM invitations i JOIN workspaces w ON w.id = i.workspace_id
     LEFT JOIN memberships m ON m.workspace_id = i.workspace_id AND m.user_id = i.invited_by
     WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()`,
    [sha256Hex(token)],
  );
  const inv = rows[0];
  if (!inv?.inviter_role || !canInvite(inv.inviter_role, inv.role)) throw notValid();
  return inv;
}

/** What the invitation page shows before it is accepted. */
export async function previewInvitation(db: Queryable, token: string) {
  const inv = await openInvitation(db, token);
  const existing = await userByEmail(db, inv.email);
  return {
    email: inv.email,
    role: inv.role,
    workspace_name: inv.workspace_name,
    has_account: existing !== null,
  };
}

/**
 * Accepts: a new user sets a password; someone who already has an account proves it with theirs.
 * The invitation is used once: an accepted one answers 409, also to acceptances racing the first.
 * The inviter must still be a member whose role may invite to that role.
 */
export async function acceptInvitation(
  db: Queryable,
  input: { token: string; password: string; name?: string },
): Promise<{ userId: string; workspaceId: string }> {
  const inv = await invitationToAccept(db, input.token);
  // The inviter's membership is locked before the invitation, in the order changeMember locks them.
  const inviter = await db.query<{ role: Role }>(
    'SELECT role FROM memberships WHERE workspace_id = $1 AND user_id = $2 FOR SHARE',
    [inv.workspace_id, inv.invited_by],
  );
  const inviterRole = inviter.rows[0]?.role;
  if (!inviterRole || !canInvite(inviterRole, inv.role)) throw notValid();
  // Claimed before anything is created: a concurrent acceptance waits on this row, then finds it taken.
  const claimed = await db.query(
    `UPDATE invitations SET accepted_at = now() WHERE workspace_id = $1 AND id = $2
     AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now() RETURNING 1`,
    [inv.workspace_id, inv.id],
  );
  if (!claimed.rows[0]) {
    await invitationToAccept(db, input.token);
    throw notValid();
  }
  const existing = await userByEmail(db, inv.email);
  let userId: string;
  if (existing) {
    if (!(await verifyPassword(input.password, existing.password_hash))) {
      throw new ApiError('unauthorized', `${inv.email} already has an account: enter its password to join`);
    }
    userId = existing.id;
  } else {
    const created = await createUserUnlessTaken(db, inv.email, input.password, input.name);
    // Another invitation for this e-mail was accepted at the same moment and made the account.
    if (!created) {
      throw new ApiError(
        'conflict',
        `An account for ${inv.email} was just created; open this invitation again and enter its password to join`,
      );
    }
    userId = created;
  }
  await addMember(db, inv.workspace_id, userId, inv.role);
  return { userId, workspaceId: inv.workspace_id };
}

interface InvitationToAccept {
  workspace_id: string;
  id: string;
  email: string;
  role: Role;
  invited_by: string;
}

/** The invitation behind a token, if it can still be accepted: 409 once accepted, else 404. */
async function invitationToAccept(db: Queryable, token: string): Promise<InvitationToAccept> {
  const { rows } = await db.query<InvitationToAccept & { accepted: boolean; open: boolean }>(
    `SELECT workspace_id, id, email, role, invited_by, accepted_at IS NOT NULL AS accepted,
       revoked_at IS NULL AND expires_at > now() AS open
     FROM invitations WHERE token_hash = $1`,
    [sha256Hex(token)],
  );
  const inv = rows[0];
  if (inv?.accepted) {
    throw new ApiError('conflict', 'This invitation has already been accepted; sign in instead');
  }
  if (!inv?.open) throw notValid();
  return inv;
}

function notValid(): ApiError {
  return new ApiError('not_found', 'This invitation link is not valid any more; ask for a new one');
}
