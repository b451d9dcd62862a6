import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { connectedWorkspace, listen, simState } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { retrySend } from './retry-send.js';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ queue: true });
  base = await listen(t);
  simState(t).statusDelaysMs = [-1, -1, -1];
});
afterAll(async () => {
  await t?.close();
});

// Found by the crash test: a job that met another attempt's lease ended there, and when that attempt's
// process had died the message stayed queued for ever.
it('comes back when another attempt holds the lease, and sends the message once it has run out', async () => {
  const ws = await connectedWorkspace(t, base);
  const contact = await t.api('POST', '/contacts', ws.key, { phone: '+14155550999' });
  const messageId = 'msg_leasedbyadeadprocess';
  await t.ctx.db.query(
    `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, template_name, template_language,
       template_values, status, status_rank, sending_until)
     VALUES ($1, $2, 'outbound', $3, '14155550999', 'template', 'hello', 'en_US', '[]', 'queued', 0,
       now() + interval '2 seconds')`,
    [ws.id, messageId, contact.json().id],
  );
  await retrySend(t.ctx, { workspaceId: ws.id, messageId }, false);
  expect(simState(t).messages.filter((m) => m.to === '14155550999')).toEqual([]);

  await until(async () => {
    const { rows } = await t.ctx.db.query<{ status: string }>(
      'SELECT status FROM messages WHERE workspace_id = $1 AND id = $2',
      [ws.id, messageId],
    );
    return rows[0]!.status !== 'queued';
  }, 20_000);
  expect(simState(t).messages.filter((m) => m.to === '14155550999')).toHaveLength(1);
});
