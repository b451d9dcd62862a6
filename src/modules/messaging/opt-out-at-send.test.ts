import { describe, expect, it } from 'vitest';
import { simControl, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { createAutomation } from '../automation/save-automation.js';
import { getBroadcast } from '../broadcasts/get-broadcast.js';
import { OPTED_OUT_CODE, OPTED_OUT_REASON } from './opt-out-check.js';
import { retrySend } from './retry-send.js';
import { sweepAbandonedSends } from './sweep-sends.js';

// A message is stored, then waits (for its slot, a retry, the sweep); the contact opts out meanwhile.
// The opt-out is checked again at the attempt, so no MARKETING template reaches them.
const t = simulatorAppForTests({ queue: true });

type Ws = Awaited<ReturnType<typeof t.connectedWorkspace>>;

const sentTo = (phone: string) => simState(t).messages.filter((m) => m.to === phone);
const optOut = async (ws: Ws, phone: string) =>
  expect((await t.api('POST', '/contacts', ws.key, { phone: `+${phone}`, opted_out: true })).statusCode).toBe(
    200,
  );

async function message(ws: Ws, id: string) {
  const { rows } = await t.ctx.db.query<{
    status: string;
    error_code: number | null;
    error_reason: string | null;
  }>('SELECT status, error_code, error_reason FROM messages WHERE workspace_id = $1 AND id = $2', [
    ws.id,
    id,
  ]);
  return rows[0]!;
}

/** A queued template message whose sender died: its lease ran out `ago`. */
async function storeAbandoned(ws: Ws, id: string, phone: string, template: [string, string], ago: string) {
  const contact = await t.api('POST', '/contacts', ws.key, { phone: `+${phone}` });
  await t.ctx.db.query(
    `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, template_name, template_language,
       template_values, status, status_rank, sending_until)
     VALUES ($1, $2, 'outbound', $3, $4, 'template', $5, $6, $7, 'queued', 0, now() - $8::interval)`,
    [ws.id, id, contact.json().id, phone, ...template, template[0] === 'welcome' ? '["A","B"]' : '[]', ago],
  );
}

describe('a stored MARKETING template whose contact opts out before it goes', () => {
  it('is not sent by the resend after a transient failure, and is failed with the reason', async () => {
    const ws = await t.connectedWorkspace();
    const phone = '14155550701';
    await simControl(t.base, '/control', { failNext: 1, failNextCode: 130429 });
    const res = await t.api('POST', '/messages', ws.key, {
      to: `+${phone}`,
      template: { name: 'welcome', language: 'en', body: ['Ann', 'Parley'] },
    });
    expect(res.json()).toMatchObject({ status: 'queued', wamid: null });
    await optOut(ws, phone);

    const id = res.json().id as string;
    await until(async () => (await message(ws, id)).status !== 'queued', 20_000);
    expect(await message(ws, id)).toEqual({
      status: 'failed',
      error_code: OPTED_OUT_CODE,
      error_reason: OPTED_OUT_REASON,
    });
    expect(sentTo(phone)).toEqual([]);
    const shown = (await t.api('GET', `/messages/${id}`, ws.key)).json();
    expect(shown).toMatchObject({ status: 'failed' });
  });

  it('answers POST /messages 409 when the contact opts out while the message waits for its slot', async () => {
    const ws = await t.connectedWorkspace({ messagesPerSecond: 1 });
    const [first, second] = ['14155550706', '14155550707'];
    const send = (phone: string) =>
      t.api('POST', '/messages', ws.key, {
        to: `+${phone}`,
        template: { name: 'welcome', language: 'en', body: ['Ann', 'Parley'] },
      });
    expect((await send(first)).statusCode).toBe(201);
    // The second takes the next slot, a second on: stored (its opt-out checked) and waiting.
    const waiting = send(second);
    const stored = await until(async () => {
      const { rows } = await t.ctx.db.query<{ id: string }>(
        'SELECT id FROM messages WHERE workspace_id = $1 AND phone = $2',
        [ws.id, second],
      );
      return rows[0]?.id;
    }, 5_000);
    await optOut(ws, second);

    const res = await waiting;
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'contact_opted_out', message: OPTED_OUT_REASON });
    expect(await message(ws, stored)).toMatchObject({ status: 'failed', error_code: OPTED_OUT_CODE });
    expect(sentTo(second)).toEqual([]);
  });

  it("is not sent by the resend of a flow's message", async () => {
    const ws = await t.connectedWorkspace();
    const phone = '14155550708';
    await createAutomation(
      t.ctx,
      ws.id,
      {
        name: 'Promo',
        trigger: { type: 'event', event: 'promo' },
        steps: [
          {
            id: 'offer',
            type: 'send_template',
            template: { name: 'welcome', language: 'en', body: ['a', 'b'] },
          },
        ],
      },
      { publish: true },
    );
    await simControl(t.base, '/control', { failNext: 1, failNextCode: 130429 });
    await t.api('POST', '/events', ws.key, { phone: `+${phone}`, event: 'promo' });
    const id = await until(async () => {
      const { rows } = await t.ctx.db.query<{ id: string }>(
        'SELECT id FROM messages WHERE workspace_id = $1 AND phone = $2',
        [ws.id, phone],
      );
      return rows[0]?.id;
    }, 20_000);
    await until(() => simState(t).attempts.some((a) => a.to === phone), 20_000);
    await optOut(ws, phone);

    await until(async () => (await message(ws, id)).status !== 'queued', 20_000);
    expect(await message(ws, id)).toMatchObject({ status: 'failed', error_code: OPTED_OUT_CODE });
    expect(sentTo(phone)).toEqual([]);
  });

  it('is not sent by the sweep of an abandoned send', async () => {
    const ws = await t.connectedWorkspace();
    const phone = '14155550702';
    await storeAbandoned(ws, 'msg_abandonedoptout', phone, ['welcome', 'en'], '2 minutes');
    await optOut(ws, phone);

    expect(await sweepAbandonedSends(t.ctx)).toBeGreaterThanOrEqual(1);
    await until(async () => (await message(ws, 'msg_abandonedoptout')).status !== 'queued', 20_000);
    expect(await message(ws, 'msg_abandonedoptout')).toMatchObject({
      status: 'failed',
      error_code: OPTED_OUT_CODE,
    });
    expect(sentTo(phone)).toEqual([]);
  });

  it('still sends a UTILITY template to the opted-out contact (opt-out blocks marketing only)', async () => {
    const ws = await t.connectedWorkspace();
    const phone = '14155550703';
    await storeAbandoned(ws, 'msg_abandonedutility', phone, ['hello', 'en_US'], '1 second');
    await optOut(ws, phone);

    await retrySend(t.ctx, { workspaceId: ws.id, messageId: 'msg_abandonedutility' }, false);
    // Meta took it; the simulator's status webhooks may already have moved it on.
    expect(['accepted', 'sent', 'delivered', 'read']).toContain(
      (await message(ws, 'msg_abandonedutility')).status,
    );
    expect(sentTo(phone)).toHaveLength(1);
  });

  it("skips the broadcast's recipient, with the reason, and counts it skipped", async () => {
    const ws = await t.connectedWorkspace();
    const phones = ['14155550704', '14155550705'];
    for (const phone of phones)
      await t.api('POST', '/contacts', ws.key, { phone: `+${phone}`, tags: ['optout-at-send'] });
    // Both first attempts fail for a moment: their messages are stored and wait for the retry.
    await simControl(t.base, '/control', { failNext: 2, failNextCode: 130429 });
    const created = await t.api('POST', '/broadcasts', ws.key, {
      name: 'Opt-out at send',
      template: { name: 'welcome', language: 'en' },
      audience: { tags_all: ['optout-at-send'] },
      values: {
        body: [
          { from: 'contact', field: 'phone' },
          { from: 'text', text: 'Parley' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().broadcast.id as string;
    await until(
      () => simState(t).attempts.filter((a) => phones.includes(a.to) && a.code !== 0).length === 2,
      20_000,
    );
    await optOut(ws, phones[1]!);

    const done = await until(async () => {
      const b = await getBroadcast(t.ctx.db, ws.id, id);
      return b.status === 'completed' && b;
    }, 20_000);
    expect(done.counts).toMatchObject({ audience: 2, sent: 1, skipped: 1, failed: 0 });
    expect(sentTo(phones[0]!)).toHaveLength(1);
    expect(sentTo(phones[1]!)).toEqual([]);
    const listed = (await t.api('GET', `/broadcasts/${id}/recipients?status=skipped`, ws.key)).json();
    expect(listed.recipients).toMatchObject([
      { phone: phones[1], status: 'skipped', error: { code: OPTED_OUT_CODE, title: OPTED_OUT_REASON } },
    ]);
  });
});
