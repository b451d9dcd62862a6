import { Batches, batchesOf, type Entry } from './batches.js';
import type { Db } from './db.js';

interface Statement {
  text: string;
  params: unknown[];
  order: string;
}
type Rows = { rows: object[] };

// Groups committing at once: each holds a connection for its statements' round trips.
const GROUPS_AT_ONCE = 4;
const LARGEST_GROUP = 50;

/**
 * Group commit for small independent statements that each would be a transaction of its own (a
 * message failed by Parley; the network's statuses and accepted sends, which come a thousand a
 * second, are batched a statement each, messaging/status-batches.ts). Every commit waits for its WAL flush, and a
 * broadcast's thousands a second queued on that flush (`LWLock:WALWrite` in pg_stat_activity) with
 * the worker idle. Statements that arrive while groups are committing go together (db/batches.ts):
 * one transaction, one flush; a caller is answered once its group has committed, so nothing is
 * reported done before it is durable. A group that fails (one statement's error, a deadlock with
 * another group) is rolled back whole and each of its statements runs again alone, so only the
 * failing one fails: statements given here must be safe to run again after a rollback, as any
 * retried statement is.
 */
export class CommitGroups {
  private readonly batches: Batches<Statement, Rows>;

  constructor(db: Db) {
    this.batches = new Batches((group) => commit(db, group), GROUPS_AT_ONCE, LARGEST_GROUP);
  }

  /**
   * `order`: what the statement locks, as a sortable key (a message's id): a group runs its statements
   * in that order, so two groups taking the same rows wait for each other rather than deadlock.
   */
  query<R extends object>(text: string, params: unknown[], order = ''): Promise<{ rows: R[] }> {
    return this.batches.add({ text, params, order }) as Promise<{ rows: R[] }>;
  }
}

async function commit(db: Db, group: Entry<Statement, Rows>[]) {
  group.sort((a, b) => (a.item.order < b.item.order ? -1 : a.item.order > b.item.order ? 1 : 0));
  if (group.length > 1) {
    const results = await db
      .transaction(async (tx) => {
        const out: Rows[] = [];
        for (const { item } of group) out.push(await tx.query(item.text, item.params));
        return out;
      })
      .catch(() => null);
    if (results) {
      for (const [i, s] of group.entries()) s.resolve(results[i]!);
      return;
    }
  }
  await Promise.all(group.map((s) => db.query(s.item.text, s.item.params).then(s.resolve, s.reject)));
}

/** The database's commit groups (one set per pool). */
export function commitGroups(db: Db): CommitGroups {
  return batchesOf(db, 'commit-groups', () => new CommitGroups(db));
}
