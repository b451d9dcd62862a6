import type { Db, Queryable } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';

// SQLSTATEs raised by the contacts_limit trigger (migrations/0002_contact_limit.sql).
const NEAR_LIMIT = 'PL409';
const LIMIT_REACHED = 'PL402';

// Counts exactly from the start of the transaction, waiting for creations in flight.
const EXACT_CONTACT_LIMIT = "SET LOCAL parley.contact_limit_mode = 'exact'";

const sqlState = (err: unknown) => (err as { code?: string }).code;

/**
 * Runs a write that may create contacts. Far from the plan's limit the database counts without
 * making creations wait on each other; near it the trigger asks for the exact count, so the write
 * runs again in a transaction that takes it. At the limit: 402.
 */
export async function withContactLimit<T>(db: Db, write: (q: Queryable) => Promise<T>): Promise<T> {
  try {
    try {
      return await write(db);
    } catch (err) {
      if (sqlState(err) !== NEAR_LIMIT) throw err;
      return await db.transaction(async (tx) => {
        await tx.query(EXACT_CONTACT_LIMIT);
        return write(tx);
      });
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
