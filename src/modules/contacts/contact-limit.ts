import { ApiError } from '../../api/errors.js';
import type { Db, Queryable } from '../../db/db.js';

// SQLSTATEs raised by the contacts_limit trigger (migrations/0002_contact_limit.sql).
const NEAR_LIMIT = 'PL409';
const LIMIT_REACHED = 'PL402';

// Counts exactly from the start of the transaction, waiting for creations in flight.
const EXACT_CONTACT_LIMIT = "SET LOCAL parley.contact_limit_mode = 'exact'";

const sqlState = (err: unknown) => (err as { code?: string }).code;

/**
 * Runs a write that may create contacts (several statements: pass `transaction: true`). Far from the plan's limit the database counts without
 * making creations wait on each other; near it the trigger asks for the exact count, so the write
 * runs again in a transaction that takes it. At the limit: 402.
 */
export async function withContactLimit<T>(
  db: Db,
  write: (q: Queryable) => Promise<T>,
  options: { transaction?: boolean } = {},
): Promise<T> {
  const run = (exact: boolean) =>
    exact || options.transaction
      ? db.transaction(async (tx) => {
          if (exact) await tx.query(EXACT_CONTACT_LIMIT);
          return write(tx);
        })
      : write(db);
  try {
    try {
      return await run(false);
    } catch (err) {
      if (sqlState(err) !== NEAR_LIMIT) throw err;
      return await run(true);
    }
  } catch (err) {
    if (sqlState(err) === LIMIT_REACHED) {
      throw new ApiError(
        'plan_limit_reached',
        "The plan's contact limit is reached; upgrade the plan to add contacts",
      );
    }
    throw err;
  }
}
