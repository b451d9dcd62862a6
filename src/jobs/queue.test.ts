import { expect, it } from 'vitest';
import { testAppForTests } from '../../test/support/app.js';
import { until } from '../../test/support/until.js';
import { createUser } from '../modules/accounts/users.js';
import { jobCatalog } from './catalog.js';
import { Queue } from './queue.js';

const t = testAppForTests({ queue: true });

it('runs the cleanup job from the queue: expired idempotency records, quiet sign-in counts and long unseen sign-in addresses go', async () => {
  const { id, key } = await t.workspace();
  await t.api('POST', '/contacts', key, { phone: '+14155552671' }, { 'idempotency-key': 'a' });
  await t.api('POST', '/contacts', key, { phone: '+14155552672' }, { 'idempotency-key': 'b' });
  await t.ctx.db.query(
    "UPDATE idempotency_keys SET expires_at = now() - interval '1 minute' WHERE key = 'a'",
  );
  await t.ctx.db.query(
    `INSERT INTO login_attempts (subject, attempts, window_start)
     VALUES ('email:quiet@example.com', 3, now() - interval '25 hours'), ('email:recent@example.com', 3, now())`,
  );
  const userId = await createUser(t.ctx.db, `known-${id}@example.com`, 'correct horse battery');
  await t.ctx.db.query(
    `INSERT INTO known_sign_in_addresses (user_id, address_hash, last_seen_at)
     VALUES ($1, 'unseen', now() - interval '181 days'), ($1, 'seen', now() - interval '179 days')`,
    [userId],
  );
  const jobId = await t.ctx.queue!.send('maintenance.cleanup', {});
  expect(jobId).toEqual(expect.any(String));
  // The job deletes the two kinds one after the other: wait for its end, seen through the queue.
  await until(async () => {
    const { rows } = await t.ctx.db.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [
      jobId,
    ]);
    return rows[0]?.state === 'completed' ? true : undefined;
  });
  const { rows: keys } = await t.ctx.db.query<{ key: string }>(
    'SELECT key FROM idempotency_keys WHERE workspace_id = $1 ORDER BY key',
    [id],
  );
  expect(keys.map((r) => r.key)).toEqual(['b']);
  const { rows: attempts } = await t.ctx.db.query<{ subject: string }>(
    "SELECT subject FROM login_attempts WHERE subject LIKE 'email:%@example.com' ORDER BY subject",
  );
  expect(attempts.map((a) => a.subject)).toEqual(['email:recent@example.com']);
  const { rows: known } = await t.ctx.db.query<{ address_hash: string }>(
    'SELECT address_hash FROM known_sign_in_addresses WHERE user_id = $1',
    [userId],
  );
  expect(known.map((k) => k.address_hash)).toEqual(['seen']);
});

it('schedules the cleanup periodically', async () => {
  const { rows } = await t.ctx.db.query<{ name: string; cron: string }>(
    'SELECT name, cron FROM pgboss.schedule',
  );
  expect(rows).toContainEqual({ name: 'maintenance.cleanup', cron: '*/10 * * * *' });
});

it('gives a queue left from an earlier catalog this version’s policy at start, and creates a missing one', async () => {
  const db = t.ctx.db;
  await db.query(
    "UPDATE pgboss.queue SET retry_limit = 99, heartbeat_seconds = NULL WHERE name = 'webhooks.deliver'",
  );
  await db.query("DELETE FROM pgboss.job WHERE name = 'templates.sync'");
  await db.query("DELETE FROM pgboss.queue WHERE name = 'templates.sync'");
  const again = await Queue.start(db, { work: false, log: t.ctx.log });
  await again.stop();
  const { rows } = await db.query<{ name: string; retry_limit: number; heartbeat_seconds: number }>(
    "SELECT name, retry_limit, heartbeat_seconds FROM pgboss.queue WHERE name IN ('webhooks.deliver', 'templates.sync') ORDER BY name",
  );
  expect(rows).toEqual([
    { name: 'templates.sync', retry_limit: jobCatalog['templates.sync'].retryLimit, heartbeat_seconds: 10 },
    {
      name: 'webhooks.deliver',
      retry_limit: jobCatalog['webhooks.deliver'].retryLimit,
      heartbeat_seconds: 10,
    },
  ]);
});

it("caps every queue's retry backoff when told at start, and lifts the cap when not", async () => {
  const db = t.ctx.db;
  const caps = async () =>
    new Set(
      (
        await db.query<{ cap: number | null }>(
          'SELECT retry_delay_max AS cap FROM pgboss.queue WHERE name = ANY($1)',
          [Object.keys(jobCatalog)],
        )
      ).rows.map((r) => r.cap),
    );
  const capped = await Queue.start(db, { work: false, log: t.ctx.log, retryDelayMaxSeconds: 1 });
  await capped.stop();
  expect(await caps()).toEqual(new Set([1]));
  const uncapped = await Queue.start(db, { work: false, log: t.ctx.log });
  await uncapped.stop();
  expect(await caps()).toEqual(new Set([null]));
});

it('keeps a queued job 400 days past its start time, in every queue, an earlier database’s included', async () => {
  const db = t.ctx.db;
  // pg-boss's default: a job still queued 14 days after its start time is deleted.
  await db.query("UPDATE pgboss.queue SET retention_seconds = 1209600 WHERE name = 'automation.step'");
  const again = await Queue.start(db, { work: false, log: t.ctx.log });
  const startAfter = new Date(Date.now() + 60_000);
  const id = await again.send('maintenance.cleanup', {}, { startAfter });
  await again.stop();
  const { rows: queues } = await db.query<{ days: number }>(
    'SELECT DISTINCT retention_seconds / 86400 AS days FROM pgboss.queue WHERE name = ANY($1)',
    [Object.keys(jobCatalog)],
  );
  expect(queues).toEqual([{ days: 400 }]);
  const { rows } = await db.query<{ days: number }>(
    'SELECT round(extract(epoch FROM keep_until - start_after) / 86400) AS days FROM pgboss.job WHERE id = $1',
    [id],
  );
  expect(Number(rows[0]?.days)).toBe(400);
});
