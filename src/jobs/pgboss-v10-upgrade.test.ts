import PgBoss10 from 'pg-boss-10';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.js';
import { createLogger } from '../runtime/logger.js';
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
  ids.retired = (await old.send('retired.queue', {}))!;
  await old.stop({ graceful: false, wait: true });
});
afterAll(async () => {
  await database?.drop();
});

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
  }>('SELECT id, name, data, priority FROM pgboss.job WHERE id = ANY($1)', [Object.values(ids)]);
  // Finished jobs and those of queues this version no longer has stay behind, and go with the old schema.
  expect(jobs).toEqual([
    { id: ids.waiting, name: 'webhooks.deliver', data: { deliveryId: 'wd_1' }, priority: 3 },
  ]);
  const { rows: schemas } = await database.db.query(
    "SELECT 1 FROM pg_namespace WHERE nspname LIKE 'pgboss_%'",
  );
  expect(schemas).toEqual([]);
});
