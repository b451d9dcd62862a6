import type { Queryable } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';

const WINDOW = "interval '15 minutes'";
// Failures allowed per window: per e-mail address (guessing one password), per client address (many).
const PER_EMAIL = 10;
const PER_ADDRESS = 50;

/** Refuses a sign-in attempt while its e-mail or client address has failed too often (429). */
export async function checkLoginThrottle(db: Queryable, email: string, address: string): Promise<void> {
  const { rows } = await db.query<{ by_email: string; by_address: string }>(
    `SELECT count(*) FILTER (WHERE subject = $1) AS by_email, count(*) FILTER (WHERE subject = $2) AS by_address
     FROM login_failures WHERE subject IN ($1, $2) AND at > now() - ${WINDOW}`,
    [`email:${email.toLowerCase()}`, `ip:${address}`],
  );
  const row = rows[0]!;
  if (Number(row.by_email) >= PER_EMAIL || Number(row.by_address) >= PER_ADDRESS) {
    throw new ApiError('rate_limited', 'Too many failed sign-ins; wait 15 minutes and try again');
  }
}

export async function recordLoginFailure(db: Queryable, email: string, address: string): Promise<void> {
  await db.query(`INSERT INTO login_failures (subject) VALUES ($1), ($2)`, [
    `email:${email.toLowerCase()}`,
    `ip:${address}`,
  ]);
  await db.query(`DELETE FROM login_failures WHERE at < now() - interval '1 day'`);
}

export async function clearLoginFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE subject = $1', [`email:${email.toLowerCase()}`]);
}
