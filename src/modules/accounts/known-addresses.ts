import { createHmac } from 'node:crypto';
import type { Queryable } from '../../db/db.js';

const FORGET_AFTER_DAYS = 180;

/** Keyed, so a leaked table does not give the addresses back (every IPv4 address hashes in minutes). */
export function addressHash(secretKey: Buffer, address: string): string {
  return createHmac('sha256', secretKey).update(`sign-in-address:${address}`).digest('hex');
}

/** Whether the account with this e-mail address has signed in from this address: one query either way. */
export async function isKnownAddress(db: Queryable, email: string, hash: string): Promise<boolean> {
  const { rows } = await db.query<{ known: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM known_sign_in_addresses k JOIN users u ON u.id = k.user_id
       WHERE lower(u.email) = lower($1) AND k.address_hash = $2) AS known`,
    [email, hash],
  );
  return rows[0]!.known;
}

export async function rememberAddress(db: Queryable, userId: string, hash: string): Promise<void> {
  await db.query(
    `INSERT INTO known_sign_in_addresses (user_id, address_hash) VALUES ($1, $2)
     ON CONFLICT (user_id, address_hash) DO UPDATE SET last_seen_at = now()`,
    [userId, hash],
  );
}

/** Forgets addresses unseen for 180 days (maintenance.cleanup); returns how many. */
export async function forgetOldAddresses(db: Queryable): Promise<number> {
  const { rows } = await db.query(
    `DELETE FROM known_sign_in_addresses WHERE last_seen_at < now() - make_interval(days => $1) RETURNING 1`,
    [FORGET_AFTER_DAYS],
  );
  return rows.length;
}
