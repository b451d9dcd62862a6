import PgBoss10 from 'pg-boss-10';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.js';
import { loadConfig } from '../config/env.js';
import { migrate } from '../db/migrate.js';
import { openRuntime, PendingMigrationsError } from '../runtime/compose.js';
import { createLogger } from '../runtime/logger.js';
import { hasV10Schema } from './pgboss-v10-upgrade.js';
import { Queue } from './queue.js';

// A database whose job queue pg-boss 10 made (what Parley before Node 24 left), with jobs waiting.
let database: TestDatabase;
const ids: Record<string, string> = {};
beforeAll(async () => {
  database = await createTestDatabase();
  const old = new PgBoss10({
    db: {
      executeSql: (text, values) => database.db.executeSql(text, values) as Promise<{ rows: unknown[] }>,
    },
    schema: 'pgboss',
    supervise: false,
    schedule: false,
  });
  await old.start();
  await old.createQueue('webhooks.deliver');
  await old.createQueue('retired.queue');
  const later = new Date(Date.now() + 3_600_000);
  ids.waiting = (await old.send(
    'webhooks.deliver',
    { deliveryId: 'wd_1' },
    { startAfter: later, priority: 3 },
  ))!;
  ids.done = (await old.send('webhooks.deliver', { deliveryId: 'wd_2' }))!;
  const [fetched] = await old.fetch('webhooks.deliver');
  await old.complete('webhooks.deliver', fetched!.id);
  ids.retried = (await old.send('webhooks.deliver', { deliveryId: 'wd_3' }, { retryLimit: 3 }))!;
  const [failing] = await old.fetch('webhooks.deliver');
  await old.fail('webhooks.deliver', failing!.id);
  ids.retired = (await old.send('retired.queue', {}))!;
  await old.stop({ graceful: false, wait: true });
});
afterAll(async () => {
  await database?.drop();
});

it.skipIf(process.env.PARLEY_TEST_DB !== 'postgres')(
  'a server on PostgreSQL refuses to start while the old schema is live: the move is `parley migrate`',
  async () => {
    await migrate(database.db);
    const config = loadConfig({ DATABASE_URL: database.url!, PARLEY_SECRET_KEY: '0'.repeat(64) });
    const opening = openRuntime(config, { role: 'api', log: createLogger('silent'), db: database.db });
    await expect(opening).rejects.toThrow(PendingMigrationsError);
    await expect(opening).rejects.toThrow(/stop every instance of the older version/);
    expect(await hasV10Schema(database.db)).toBe(true);
  },
);

it("starts pg-boss 12 on pg-boss 10's schema and carries over the jobs still waiting", async () => {
  const queue = await Queue.start(database.db, { work: false, log: createLogger('silent') });
  await queue.stop();

  const { rows: version } = await database.db.query<{ version: number }>(
    'SELECT version FROM pgboss.version',
  );
  expect(version[0]!.version).toBeGreaterThan(24);
  const { rows: jobs } = await database.db.query<{
    id: string;
    name: string;
    data: object;
    priority: number;
    later: boolean;
    retry_limit: number;
  }>(
    `SELECT id, name, data, priority, start_after > now() + interval '50 minutes' AS later, retry_limit
     FROM pgboss.job WHERE id = ANY($1) ORDER BY data->>'deliveryId'`,
    [Object.values(ids)],
  );
  // Finished jobs and those of queues this version no longer has stay behind, and go with the old
  // schema; the others keep their start time and the tries they had left (3, one used).
  expect(jobs).toEqual([
    {
      id: ids.waiting,
      name: 'webhooks.deliver',
      data: { deliveryId: 'wd_1' },
      priority: 3,
      later: true,
      retry_limit: expect.any(Number),
    },
    {
      id: ids.retried,
      name: 'webhooks.deliver',
      data: { deliveryId: 'wd_3' },
      priority: 0,
      later: false,
      retry_limit: 2,
    },
  ]);
  expect(await hasV10Schema(database.db)).toBe(false);
  const { rows: schemas } = await database.db.query(
    "SELECT 1 FROM pg_namespace WHERE nspname LIKE 'pgboss_%'",
  );
  expect(schemas).toEqual([]);
});
