import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { until } from '../../test/support/until.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ queue: true });
});
afterAll(async () => {
  await t?.close();
});

it('runs the cleanup job from the queue and removes expired idempotency records', async () => {
  const { id, key } = await t.workspace();
  await t.api('POST', '/contacts', key, { phone: '+14155552671' }, { 'idempotency-key': 'a' });
  await t.api('POST', '/contacts', key, { phone: '+14155552672' }, { 'idempotency-key': 'b' });
  await t.ctx.db.query(
    "UPDATE idempotency_keys SET expires_at = now() - interval '1 minute' WHERE key = 'a'",
  );
  expect(await t.ctx.queue!.send('maintenance.cleanup', {})).toEqual(expect.any(String));
  const keys = await until(async () => {
    const { rows } = await t.ctx.db.query<{ key: string }>(
      'SELECT key FROM idempotency_keys WHERE workspace_id = $1 ORDER BY key',
      [id],
    );
    return rows.length === 1 ? rows.map((r) => r.key) : undefined;
  });
  expect(keys).toEqual(['b']);
});

it('schedules the cleanup periodically', async () => {
  const { rows } = await t.ctx.db.query<{ name: string; cron: string }>(
    'SELECT name, cron FROM pgboss.schedule',
  );
  expect(rows).toContainEqual({ name: 'maintenance.cleanup', cron: '*/10 * * * *' });
});
