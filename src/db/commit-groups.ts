import type { Db } from './db.js';

interface Waiting {
  text: string;
  params: unknown[];
  order: string;
  resolve(result: { rows: object[] }): void;
  reject(err: unknown): void;
}

// Groups committing at once: each holds a connection for its statements' round trips.
const GROUPS_AT_ONCE = 4;
const LARGEST_GROUP = 50;

/**
 * Group commit for small independent statements that each would be a transaction of its own (a
 * message's status change: one per send and one per status webhook). Every commit waits for its WAL
 * flush, and a broadcast's thousands a second queued on that flush (`LWLock:WALWrite` in
 * pg_stat_activity) with the worker idle. Statements that arrive while groups are committing wait for
 * a free one and go together: one transaction, one flush; a caller is answered once its group has
 * committed, so nothing is reported done before it is durable. A group that fails (one statement's
 * error, a deadlock with another group) is rolled back whole and each of its statements runs again
 * alone, so only the failing one fails: statements given here must be safe to run again after a
 * rollback, as any retried statement is.
 */
export class CommitGroups {
  private waiting: Waiting[] = [];
  private committing = 0;

  constructor(private readonly db: Db) {}

  /**
   * `order`: what the statement locks, as a sortable key (a message's id): a group runs its statements
   * in that order, so two groups taking the same rows wait for each other rather than deadlock.
   */
  query<R extends object>(text: string, params: unknown[], order = ''): Promise<{ rows: R[] }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ text, params, order, resolve: resolve as Waiting['resolve'], reject });
      this.next();
    });
  }

  private next() {
    if (this.committing >= GROUPS_AT_ONCE || !this.waiting.length) return;
    const group = this.waiting
      .splice(0, LARGEST_GROUP)
      .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
    this.committing++;
    this.commit(group).finally(() => {
      this.committing--;
      this.next();
    });
  }

  private async commit(group: Waiting[]) {
    if (group.length > 1) {
      const results = await this.db
        .transaction(async (tx) => {
          const out: { rows: object[] }[] = [];
          for (const s of group) out.push(await tx.query(s.text, s.params));
          return out;
        })
        .catch(() => null);
      if (results) {
        for (const [i, s] of group.entries()) s.resolve(results[i]!);
        return;
      }
    }
    await Promise.all(group.map((s) => this.db.query(s.text, s.params).then(s.resolve, s.reject)));
  }
}

const groups = new WeakMap<Db, CommitGroups>();

/** The database's commit groups (one set per pool). */
export function commitGroups(db: Db): CommitGroups {
  let found = groups.get(db);
  if (!found) {
    found = new CommitGroups(db);
    groups.set(db, found);
  }
  return found;
}
