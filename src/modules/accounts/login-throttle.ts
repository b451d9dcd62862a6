import type { Queryable } from '../../db/db.js';

const WINDOW_MINUTES = 15;
// Attempts allowed per window: an e-mail address from one client address (guessing one password),
// a client address over every e-mail address (guessing many), an e-mail address over every client
// address (guessing one password from many addresses), which never refuses an address the account
// has signed in from before (known-addresses.ts): strangers cannot lock its owner out there.
const PER_EMAIL_AND_ADDRESS = 10;
const PER_ADDRESS = 50;
const PER_EMAIL = 30;

export interface LoginAttempt {
  allowed: boolean;
  /** Whole seconds until the window that refused it ends (0 when allowed). */
  retryAfterSeconds: number;
}

function subjects(email: string, address: string) {
  const e = email.toLowerCase();
  return { email: `email:${e}`, emailAtAddress: `email-ip:${e}|${address}`, address: `ip:${address}` };
}

/**
 * Counts a sign-in attempt for its e-mail address, the pair, and its client address, before its
 * password is checked, and says whether it may go on. Refused attempts count too; they do not
 * lengthen the window. From a known address the e-mail address's own count is kept but not applied.
 */
export function countLoginAttempt(
  db: Queryable,
  email: string,
  address: string,
  fromKnownAddress: boolean,
): Promise<LoginAttempt> {
  const s = subjects(email, address);
  // Always in this order: statements lock the rows in one order.
  return countAttempts(
    db,
    [
      { subject: s.email, limit: fromKnownAddress ? Number.POSITIVE_INFINITY : PER_EMAIL },
      { subject: s.emailAtAddress, limit: PER_EMAIL_AND_ADDRESS },
      { subject: s.address, limit: PER_ADDRESS },
    ],
    WINDOW_MINUTES,
  );
}

/** An invitation taken by an existing account: per token (its hash) and per client address. */
export function countInvitationAttempt(
  db: Queryable,
  subject: string,
  address: string,
): Promise<LoginAttempt> {
  return countAttempts(
    db,
    [
      { subject, limit: PER_EMAIL_AND_ADDRESS },
      { subject: `ip:${address}`, limit: PER_ADDRESS },
    ],
    WINDOW_MINUTES,
  );
}

/**
 * Counts one attempt for each subject and says whether every one is within its limit. One upsert adds
 * and reads each count under the row's lock, so attempts in flight at once (on any instance) each
 * count the others: of any number sent together, only the allowance gets through.
 */
export async function countAttempts(
  db: Queryable,
  limits: { subject: string; limit: number }[],
  windowMinutes: number,
): Promise<LoginAttempt> {
  const { rows } = await db.query<{ subject: string; attempts: number; retry_after: number }>(
    `INSERT INTO login_attempts AS a (subject, attempts, window_start)
     SELECT subject, 1, now() FROM unnest($1::text[]) AS subject
     ON CONFLICT (subject) DO UPDATE SET
       attempts = CASE WHEN a.window_start > now() - make_interval(mins => $2) THEN a.attempts + 1 ELSE 1 END,
       window_start = CASE WHEN a.window_start > now() - make_interval(mins => $2) THEN a.window_start ELSE now() END
     RETURNING subject, attempts,
       ceil(extract(epoch FROM a.window_start + make_interval(mins => $2) - now()))::int AS retry_after`,
    [limits.map((l) => l.subject), windowMinutes],
  );
  const over = rows.filter((r) => r.attempts > (limits.find((l) => l.subject === r.subject)?.limit ?? 0));
  if (over.length === 0) return { allowed: true, retryAfterSeconds: 0 };
  return { allowed: false, retryAfterSeconds: Math.max(1, ...over.map((r) => r.retry_after)) };
}

/**
 * A successful sign-in: the pair starts afresh, and its attempt no longer counts against its e-mail
 * or client address. The e-mail address's count is not cleared: others' guesses from elsewhere stay
 * counted however often its owner signs in.
 */
export async function forgiveLoginAttempt(db: Queryable, email: string, address: string): Promise<void> {
  const s = subjects(email, address);
  await db.query('DELETE FROM login_attempts WHERE subject = $1', [s.emailAtAddress]);
  await takeOneOff(db, [s.email, s.address]);
}

/** An invitation accepted: its token starts afresh, and its attempt no longer counts against its address. */
export async function forgiveInvitationAttempt(
  db: Queryable,
  subject: string,
  address: string,
): Promise<void> {
  await db.query('DELETE FROM login_attempts WHERE subject = $1', [subject]);
  await takeOneOff(db, [`ip:${address}`]);
}

/** One statement per row, so none holds one row's lock while waiting for another's. */
async function takeOneOff(db: Queryable, subjects: string[]): Promise<void> {
  for (const subject of subjects) {
    await db.query('UPDATE login_attempts SET attempts = attempts - 1 WHERE subject = $1 AND attempts > 0', [
      subject,
    ]);
  }
}

/** Forgets subjects quiet for a day (maintenance.cleanup); returns how many. */
export async function forgetQuietLoginAttempts(db: Queryable): Promise<number> {
  const { rows } = await db.query(
    `DELETE FROM login_attempts WHERE window_start < now() - interval '1 day' RETURNING subject`,
  );
  return rows.length;
}
