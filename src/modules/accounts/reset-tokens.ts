import type { Queryable } from '../../db/db.js';
import { sha256Hex } from '../../lib/hash.js';
import { newSecret } from '../../lib/ids.js';

export const RESET_VALID_MINUTES = 60;

/**
 * A password reset link for a user: a random token (about 190 bits) in the URL, only its SHA-256
 * kept, good once for an hour. Shown to the user by e-mail, or to the operator by the CLI.
 */
export async function createResetLink(
  db: Queryable,
  appUrl: string,
  userId: string,
): Promise<{ url: string; expiresAt: Date }> {
  const token = newSecret('');
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO password_resets (token_hash, user_id, expires_at)
     VALUES ($1, $2, now() + make_interval(mins => $3)) RETURNING expires_at`,
    [sha256Hex(token), userId, RESET_VALID_MINUTES],
  );
  return { url: `${appUrl}/reset-password/${token}`, expiresAt: rows[0]!.expires_at };
}

/** Forgets links that expired a day ago (maintenance.cleanup); returns how many. */
export async function forgetOldPasswordResets(db: Queryable): Promise<number> {
  const { rows } = await db.query(
    `DELETE FROM password_resets WHERE expires_at < now() - interval '1 day' RETURNING user_id`,
  );
  return rows.length;
}
