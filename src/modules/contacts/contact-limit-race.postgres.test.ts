import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { until } from '../../../test/support/until.js';
import type { Queryable } from '../../db/db.js';
import { migrate } from '../../db/migrate.js';
import { newId } from '../../lib/ids.js';
import { createWorkspace } from '../workspaces/create-workspace.js';
import { setPlan } from '../workspaces/plans.js';
import { withContactLimit } from './contact-limit.js';

// Creations in flight on several connections at once: the race contact-limit.test.ts cannot stage
// on PGlite's single connection. Each creation holds its transaction open until every other one has
// either created its contact too or is waiting on a lock, so all of them are in flight together
// instead of by chance; then all commit.

let database: TestDatabase;
let watcher: pg.Client;
beforeAll(async () => {
  database = await createTestDatabase();
  await migrate(database.db);
  watcher = new pg.Client({ connectionString: database.url });
  await watcher.connect();
});
afterAll(async () => {
  await watcher?.end();
  await database?.drop();
});

let phone = 14155550000;
const insertContact = (q: Queryable, workspaceId: string) =>
  q.query('INSERT INTO contacts (workspace_id, id, phone) VALUES ($1, $2, $3)', [
    workspaceId,
    newId('ct'),
    String(phone++),
  ]);

/** Backends of the test database (the watcher aside) waiting on a lock held by another. */
async function waitingOnLocks(): Promise<number> {
  const { rows } = await watcher.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
  );
  return rows[0]!.n;
}

/** Runs `writers` creations that all stay uncommitted until none can make progress alone. */
async function createTogether(
  workspaceId: string,
  writers: number,
): Promise<PromiseSettledResult<unknown>[]> {
  let created = 0;
  let finished = 0;
  // Created is read before the lock count: a creation cannot be counted twice, only missed (and the
  // next poll sees it).
  const allInFlight = until(async () => {
    const parked = created;
    const pending = writers - finished;
    return parked + (await waitingOnLocks()) >= pending;
  });
  return Promise.allSettled(
    Array.from({ length: writers }, () =>
      withContactLimit(
        database.db,
        async (q) => {
          await insertContact(q, workspaceId);
          created++;
          await allInFlight;
        },
        { transaction: true },
      ).finally(() => finished++),
    ),
  );
}

describe('contact limit under concurrent creations (PostgreSQL)', () => {
  // The pool holds 10 connections: 8 writers never wait for one, so only the database orders them.
  it.each([1, 5])(
    'never stores more than the limit with %i places left and 8 creations in flight',
    async (left) => {
      const limit = 30;
      await setPlan(database.db, `race${left}`, { contacts: limit, monthlyLeads: 1, messagesPerMonth: 1 });
      const { id } = await createWorkspace(database.db, { name: 'Race', plan: `race${left}` });
      for (let i = 0; i < limit - left; i++) await withContactLimit(database.db, (q) => insertContact(q, id));

      const results = await createTogether(id, 8);

      const admitted = results.filter((r) => r.status === 'fulfilled').length;
      const refused = results.filter(
        (r) => r.status === 'rejected' && (r.reason as { code?: string }).code === 'plan_limit_reached',
      ).length;
      expect(admitted + refused).toBe(8);
      expect(admitted).toBe(Math.min(left, 8));
      const { rows } = await database.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM contacts WHERE workspace_id = $1',
        [id],
      );
      expect(rows[0]!.n).toBe(limit - left + admitted);
    },
  );
});
