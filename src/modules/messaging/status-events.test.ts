import { afterEach, describe, expect, it } from 'vitest';
import { simControl, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { deliver, statusPayload } from '../../simulator/webhooks.js';
import { MAX_UNCONFIRMED_RESENDS, retrySend } from './retry-send.js';

// Every change of a message's status is announced to the customer's endpoints as one
// `message.status` event, whether Parley decided it or the network reported it.

const t = simulatorAppForTests();
afterEach(async () => {
  await simControl(t.base, '/control', { failNext: 0, status_delays_ms: [20, 40, 60] });
});

const welcome = (to: string) => ({ to, template: { name: 'welcome', language: 'en', body: ['A', 'B'] } });

async function workspaceListening() {
  const ws = await t.connectedWorkspace();
  await t.ctx.db.query(
    `INSERT INTO webhook_endpoints (workspace_id, id, url, secret_enc, events)
     VALUES ($1, 'we_status', 'https://example.com/hook', 'unused', '{message.status}')`,
    [ws.id],
  );
  return ws;
}

async function events(workspaceId: string, messageId: string) {
  const { rows } = await t.ctx.db.query<{ payload: { data: Record<string, unknown> } }>(
    `SELECT payload FROM webhook_deliveries
     WHERE workspace_id = $1 AND event_type = 'message.status' AND payload->'data'->>'id' = $2
     ORDER BY created_at, id`,
    [workspaceId, messageId],
  );
  return rows.map((r) => r.payload.data);
}

async function storeQueued(ws: { id: string; key: string }, id: string, phone: string) {
  const contact = await t.api('POST', '/contacts', ws.key, { phone: `+${phone}` });
  await t.ctx.db.query(
    `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, template_name, template_language,
       template_values, status, status_rank, callback_data)
     VALUES ($1, $2, 'outbound', $3, $4, 'template', 'hello', 'en_US', '[]', 'queued', 0, 'order-7')`,
    [ws.id, id, contact.json().id, phone],
  );
}

describe('message.status events', () => {
  it('announce a refusal in the send answer, with its code and text', async () => {
    const ws = await workspaceListening();
    await simControl(t.base, '/control', { failNext: 1, failNextCode: 132001 });
    const res = await t.api('POST', '/messages', ws.key, welcome('+14155550401'));
    expect(res.statusCode).toBe(404);
    const { rows } = await t.ctx.db.query<{ id: string }>(
      "SELECT id FROM messages WHERE workspace_id = $1 AND phone = '14155550401'",
      [ws.id],
    );
    const [event, ...more] = await events(ws.id, rows[0]!.id);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ status: 'failed', error: { code: 132001 } });
    expect((event!.error as { reason: string }).reason).not.toBe('');
  });

  it('announce a message failed when its retries run out', async () => {
    const ws = await workspaceListening();
    await storeQueued(ws, 'msg_retriesrunout', '14155550402');
    await simControl(t.base, '/control', { failNext: 1, failNextCode: 130429 });
    await retrySend(t.ctx, { workspaceId: ws.id, messageId: 'msg_retriesrunout' }, true);
    expect(await events(ws.id, 'msg_retriesrunout')).toEqual([
      {
        id: 'msg_retriesrunout',
        wamid: null,
        status: 'failed',
        callback_data: 'order-7',
        error: { code: 130429, reason: 'the network kept failing; retries exhausted' },
      },
    ]);
  });

  it('announce a message failed as never confirmed', async () => {
    const ws = await workspaceListening();
    await storeQueued(ws, 'msg_neverconfirmed', '14155550403');
    await t.ctx.db.query(
      `UPDATE messages SET unconfirmed_since = now() - interval '1 hour', unconfirmed_attempts = $1
       WHERE id = 'msg_neverconfirmed'`,
      [MAX_UNCONFIRMED_RESENDS],
    );
    await retrySend(t.ctx, { workspaceId: ws.id, messageId: 'msg_neverconfirmed' }, false);
    const [event, ...more] = await events(ws.id, 'msg_neverconfirmed');
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      status: 'failed',
      error: { code: 0, reason: expect.stringMatching(/never confirmed/) },
    });
  });

  it('announce each step from accepted to read once, and a failed status with its code and details', async () => {
    const ws = await workspaceListening();
    const sent = (await t.api('POST', '/messages', ws.key, welcome('+14155550404'))).json();
    await until(async () => (await events(ws.id, sent.id)).length === 4, 10_000);
    const statuses = await events(ws.id, sent.id);
    expect(statuses.map((e) => e.status)).toEqual(['accepted', 'sent', 'delivered', 'read']);
    expect(statuses.every((e) => e.wamid === sent.wamid && !('error' in e))).toBe(true);

    await simControl(t.base, '/control', { status_delays_ms: [-1, -1, -1] });
    const other = (await t.api('POST', '/messages', ws.key, welcome('+14155550405'))).json();
    const sim = simState(t).numbers.get(ws.number.phoneNumberId)!;
    const failed = statusPayload(sim, {
      id: other.wamid,
      status: 'failed',
      timestamp: String(Math.floor(Date.now() / 1000)),
      recipient_id: '14155550405',
      errors: [{ code: 131026, title: 'Message undeliverable', error_data: { details: 'Not on WhatsApp' } }],
    });
    expect(await deliver(sim, failed)).toBe(200);
    expect(await deliver(sim, failed)).toBe(200);
    expect((await events(ws.id, other.id)).map((e) => [e.status, e.error])).toEqual([
      ['accepted', undefined],
      ['failed', { code: 131026, reason: 'Not on WhatsApp' }],
    ]);
  });
});
