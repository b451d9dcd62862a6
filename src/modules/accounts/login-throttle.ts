import type { Queryable } from '../../db/db.js';

const WINDOW_MINUTES = 15;
// Attempts allowed per window: per e-mail address (guessing one password), per client address (many).
const PER_EMAIL = 10;
const PER_ADDRESS = 50;

export interface LoginAttempt {
  allowed: boolean;
  /** Whole seconds until the window that refused it ends (0 when allowed). */
  retryAfterSeconds: number;
}

function subjects(email: string, address: string): { email: string; address: string } {
  return { email: `email:${email.toLowerCase()}`, address: `ip:${address}` };
}

/**
 * Counts a sign-in attempt for its e-mail and client address, before its password is checked, and
 * says whether it may go on. Refused attempts count too; they do not lengthen the window.
 */
export function countLoginAttempt(db: Queryable, email: string, address: string): Promise<LoginAttempt> {
  const s = subjects(email, address);
  // Always the e-mail row first, then the address row: statements lock them in one order.
  return countAttempts(
    db,
    [
      { subject: s.email, limit: PER_EMAIL },
      { subject: s.address, limit: PER_ADDRESS },
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

/** A successful sign-in: its e-mail address starts afresh, and its attempt no longer counts against its client address. */
export async function forgiveLoginAttempt(db: Queryable, email: string, address: string): Promise<void> {
  const s = subjects(email, address);
  await db.query('DELETE FROM login_attempts WHERE subject = $1', [s.email]);
  await db.query('UPDATE login_attempts SET attempts = attempts - 1 WHERE subject = $1 AND attempts > 0', [
    s.address,
  ]);
}

/** Forgets subjects quiet for a day (maintenance.cleanup); returns how many. */
export async function forgetQuietLoginAttempts(db: Queryable): Promise<number> {
  const { rows } = await db.query(
    `DELETE FROM login_attempts WHERE window_start < now() - interval '1 day' RETURNING subject`,
  );
  return rows.length;
}
