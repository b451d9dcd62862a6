import { ApiError } from '../../api/errors.js';
import type { Db } from '../../db/db.js';
import { sha256Hex } from '../../lib/hash.js';
import { hashPassword } from './passwords.js';

/**
 * Sets a new password with a reset link's token, once: the token is claimed by one update, so two
 * uses racing each other cannot both succeed. Every session of the user ends (whoever had the old
 * password is signed out), and the user's other reset links die with it.
 */
export async function resetPassword(db: Db, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ user_id: string }>(
      `UPDATE password_resets SET used_at = now()
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
      [sha256Hex(token)],
    );
    const userId = rows[0]?.user_id;
    if (!userId) throw new ApiError('not_found', 'This reset link is not valid any more; ask for a new one');
    await tx.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [
      userId,
      passwordHash,
    ]);
    await tx.query('UPDATE password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL', [
      userId,
    ]);
    await tx.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
  });
}
