import { describe, expect, it } from 'vitest';
import { simHeaders, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { queueIdle } from '../../../test/support/queue-idle.js';
import { countStatements } from '../../../test/support/statements.js';
import { until } from '../../../test/support/until.js';
import { setPlan } from '../workspaces/plans.js';
import { hubSignature } from './cloud-api/signature.js';
import { sendingNumber } from './connected-numbers.js';
import { sendMessage } from './send-message.js';
import { reserveSend } from './send-reservation.js';

const t = simulatorAppForTests({ queue: true, statusDelaysMs: [-1, -1, -1] });

const welcome = (to: string, body = ['Asha', 'Parley']) => ({
  to,
  template: { name: 'welcome', language: 'en', body },
});

/** A connected workspace on a plan of its own. */
async function onPlan(name: string, limits: { contacts: number; messagesPerMonth: number }) {
  await setPlan(t.ctx.db, name, { ...limits, monthlyLeads: 1 });
  const ws = await t.connectedWorkspace();
  await t.ctx.db.query('UPDATE workspaces SET plan = $2 WHERE id = $1', [ws.id, name]);
  return ws;
}

describe('POST /messages', () => {
  it('sends an approved template and answers 201 with the wamid the network gave', async () => {
    const ws = await t.connectedWorkspace();
    const res = await t.api('POST', '/messages', ws.key, {
      ...welcome('98765 43210'),
      callback_data: 'order-7',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      result: true,
      id: expect.stringMatching(/^msg_/),
      wamid: expect.stringMatching(/^wamid\./),
      status: 'accepted',
    });
    const [received] = simState(t).messages.filter((m) => m.wamid === body.wamid);
    // The caller's callback_data stays with Parley; the network gets the message id to echo back.
    expect(received).toMatchObject({ to: '919876543210', type: 'template', callbackData: body.id });
    expect(received!.payload).toMatchObject({
      template: {
        name: 'welcome',
        language: { code: 'en' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Asha' },
              { type: 'text', text: 'Parley' },
            ],
          },
        ],
      },
      biz_opaque_callback_data: body.id,
    });
  });

  it('defaults type to template', async () => {
    const ws = await t.connectedWorkspace();
    const res = await t.api('POST', '/messages', ws.key, {
      to: '+14155552671',
      template: { name: 'hello', language: 'en_US' },
    });
    expect(res.statusCode).toBe(201);
  });

  it('checks in the documented order: no number 409, template 404, values 422', async () => {
    const bare = await t.workspace();
    const noNumber = await t.api('POST', '/messages', bare.key, {
      to: '+14155552671',
      template: { name: 'nope', language: 'xx' },
    });
    expect(noNumber.statusCode).toBe(409);
    expect(noNumber.json().error.code).toBe('no_connected_number');

    const ws = await t.connectedWorkspace();
    const missing = await t.api('POST', '/messages', ws.key, {
      to: '+14155552671',
      template: { name: 'nope', language: 'en' },
    });
    expect(missing.statusCode).toBe(404);
    const wrongLanguage = await t.api('POST', '/messages', ws.key, {
      to: '+14155552671',
      template: { name: 'welcome', language: 'pt_BR', body: ['a'] },
    });
    expect(wrongLanguage.statusCode).toBe(404);
    const pending = await t.api('POST', '/messages', ws.key, {
      to: '+14155552671',
      template: { name: 'draft', language: 'en', body: ['x'] },
    });
    expect(pending.statusCode).toBe(404);
    const values = await t.api('POST', '/messages', ws.key, welcome('+14155552671', ['only one']));
    expect(values.statusCode).toBe(422);
    expect(values.json().error.details).toEqual([
      { field: 'template.body', message: 'needs 2 values, got 1' },
    ]);
  });

  it('refuses free text outside the 24-hour window (409) and sends it once the customer has written', async () => {
    const ws = await t.connectedWorkspace();
    const text = { to: '+14155552671', type: 'text', text: 'Your order shipped' };
    const closed = await t.api('POST', '/messages', ws.key, text);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error.code).toBe('outside_window');

    const inbound = await fetch(`${t.base}/_sim/inbound`, {
      method: 'POST',
      headers: simHeaders,
      body: JSON.stringify({
        from: '14155552671',
        text: 'Where is my order?',
        phone_number_id: ws.number.phoneNumberId,
      }),
    });
    expect(((await inbound.json()) as { delivered_status: number }).delivered_status).toBe(200);
    const open = await t.api('POST', '/messages', ws.key, text);
    expect(open.statusCode).toBe(201);
    expect(open.json().status).toBe('accepted');

    // 24 hours later (the window is measured from the customer's last message), closed again.
    await t.ctx.db.query(
      "UPDATE contacts SET last_inbound_at = now() - interval '24 hours 1 second' WHERE workspace_id = $1",
      [ws.id],
    );
    expect((await t.api('POST', '/messages', ws.key, text)).statusCode).toBe(409);
  });

  it('answers 402 past the plan’s messages per month', async () => {
    const ws = await onPlan('two_messages', { contacts: 100, messagesPerMonth: 2 });
    expect((await t.api('POST', '/messages', ws.key, welcome('+14155552671'))).statusCode).toBe(201);
    expect((await t.api('POST', '/messages', ws.key, welcome('+14155552671'))).statusCode).toBe(201);
    const over = await t.api('POST', '/messages', ws.key, welcome('+14155552671'));
    expect(over.statusCode).toBe(402);
  });

  it("counts sends arriving together exactly to the plan's month", async () => {
    const ws = await onPlan('five_messages', { contacts: 100, messagesPerMonth: 5 });
    const number = (await sendingNumber(t.ctx, ws.id))!;
    // Four go alone, the other eight wait as one batch that the month cannot take whole.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, () => reserveSend(t.ctx, number, 10_000)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    for (const o of outcomes.filter((o) => o.status === 'rejected'))
      expect((o as PromiseRejectedResult).reason).toMatchObject({ code: 'plan_limit_reached' });
    const usage = await t.ctx.db.query('SELECT sent FROM message_usage WHERE workspace_id = $1', [ws.id]);
    expect(usage.rows).toEqual([{ sent: 5 }]);
  });

  it("takes of a batch that fits the plan's month in part exactly the places left", async () => {
    const ws = await onPlan('five_messages', { contacts: 100, messagesPerMonth: 5 });
    const number = (await sendingNumber(t.ctx, ws.id))!;
    const otherNumber = (await sendingNumber(t.ctx, (await t.connectedWorkspace()).id))!;
    for (let i = 0; i < 3; i++) await reserveSend(t.ctx, number, 10_000);
    // Another number's four sends go alone and hold every running batch, so this number's four wait
    // and go together: the batch is within the whole month but not within the two places left.
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 4 }, () => reserveSend(t.ctx, otherNumber, 10_000)),
      ...Array.from({ length: 4 }, () => reserveSend(t.ctx, number, 10_000)),
    ]);
    const ours = outcomes.slice(4);
    expect(ours.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    for (const o of ours.filter((o) => o.status === 'rejected'))
      expect((o as PromiseRejectedResult).reason).toMatchObject({ code: 'plan_limit_reached' });
    const usage = await t.ctx.db.query('SELECT sent FROM message_usage WHERE workspace_id = $1', [ws.id]);
    expect(usage.rows).toEqual([{ sent: 5 }]);
  });

  it('counts sends arriving together and takes their slots in fewer statements than sends', async () => {
    const ws = await t.connectedWorkspace({ messagesPerSecond: 50 });
    const number = (await sendingNumber(t.ctx, ws.id))!;
    const { result: reserved, statements } = await countStatements(
      t.ctx.db,
      'INSERT INTO message_usage',
      () => Promise.all(Array.from({ length: 12 }, () => reserveSend(t.ctx, number, 10_000))),
    );
    expect(statements).toBeLessThan(12);
    const usage = await t.ctx.db.query('SELECT sent FROM message_usage WHERE workspace_id = $1', [ws.id]);
    expect(usage.rows).toEqual([{ sent: 12 }]);
    // Twelve slots of their own, a fiftieth of a second apart.
    const at = reserved.map((r) => (r.slot.granted ? r.slot.at : Number.NaN)).sort((a, b) => a - b);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeCloseTo(20, 0);
  });

  it("gives a send's place in the month back when its message cannot be stored", async () => {
    const ws = await onPlan('one_contact', { contacts: 1, messagesPerMonth: 10 });
    expect((await t.api('POST', '/messages', ws.key, welcome('+14155554001'))).statusCode).toBe(201);
    // A second customer would pass the plan's contacts: refused, and not counted as a message.
    const refused = await t.api('POST', '/messages', ws.key, welcome('+14155554002'));
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error.message).toMatch(/contact limit/);
    expect((await t.api('POST', '/messages', ws.key, welcome('+14155554001'))).statusCode).toBe(201);
    const usage = await t.ctx.db.query('SELECT sent FROM message_usage WHERE workspace_id = $1', [ws.id]);
    expect(usage.rows).toEqual([{ sent: 2 }]);
  });

  it('counts one send in the month when the same source key is sent three times at once', async () => {
    const ws = await onPlan('ten_messages', { contacts: 100, messagesPerMonth: 10 });
    // The same automation step run at once on three workers: each finds no message with its source key,
    // takes a place in the month, and two of them then meet the one stored first.
    const sends = await Promise.all(
      Array.from({ length: 3 }, () =>
        sendMessage(t.ctx, { workspaceId: ws.id, defaultCountryCode: '91' }, welcome('+14155554011'), {
          sourceKey: 'run_race:step_1',
        }),
      ),
    );
    expect(new Set(sends.map((s) => s.id)).size).toBe(1);
    const usage = await t.ctx.db.query('SELECT sent FROM message_usage WHERE workspace_id = $1', [ws.id]);
    expect(usage.rows).toEqual([{ sent: 1 }]);
    expect(simState(t).messages.filter((m) => m.to === '14155554011')).toHaveLength(1);
  });

  it('answers queued when the network fails, then the queue delivers it exactly once', async () => {
    const ws = await t.connectedWorkspace();
    simState(t).faults.serverErrorRate = 1;
    const res = await t.api('POST', '/messages', ws.key, welcome('+14155552698'));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ wamid: null, status: 'queued' });
    simState(t).faults.serverErrorRate = 0;
    const sent = await until(async () => {
      const m = await t.api('GET', `/messages/${res.json().id}`, ws.key);
      return m.json().status === 'accepted' ? (m.json() as { wamid: string }) : undefined;
    }, 30_000);
    expect(sent.wamid).toMatch(/^wamid\./);
    // A second job for the same message would still be waiting or running: let the queue drain first.
    await queueIdle(t.ctx.db, ['messages.send']);
    expect(simState(t).messages.filter((m) => m.to === '14155552698')).toHaveLength(1);
  });
});

describe('statuses from the network', () => {
  it('move forward only: a late sent never overwrites delivered, duplicates change nothing', async () => {
    const ws = await t.connectedWorkspace();
    const sent = (await t.api('POST', '/messages', ws.key, welcome('+14155552671'))).json();
    const push = (status: string) =>
      fetch(`${t.base}/_sim/status`, {
        method: 'POST',
        headers: simHeaders,
        body: JSON.stringify({ wamid: sent.wamid, status }),
      });
    const state = async () => (await t.api('GET', `/messages/${sent.id}`, ws.key)).json().status;
    await push('delivered');
    expect(await state()).toBe('delivered');
    await push('sent');
    await push('delivered');
    expect(await state()).toBe('delivered');
    await push('read');
    expect(await state()).toBe('read');
  });

  it('refuses unsigned or badly signed webhooks and answers the verification challenge', async () => {
    const ws = await t.connectedWorkspace();
    const url = `${t.base}/api/webhooks/whatsapp/${ws.number.id}`;
    const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    expect(
      (await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } })).status,
    ).toBe(401);
    const forged = await fetch(url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': hubSignature(body, 'not-the-secret'),
      },
    });
    expect(forged.status).toBe(401);
    const good = await fetch(url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': hubSignature(body, ws.number.appSecret),
      },
    });
    expect(good.status).toBe(200);
    const challenge = await fetch(`${url}?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=12345`);
    expect(await challenge.text()).toBe('12345');
    expect((await fetch(`${url}?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`)).status).toBe(
      403,
    );
  });

  it('stores a redelivered inbound message once', async () => {
    const ws = await t.connectedWorkspace();
    const payload = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: ws.number.businessAccountId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550100', phone_number_id: ws.number.phoneNumberId },
                contacts: [{ profile: { name: 'Ravi' }, wa_id: '919812345678' }],
                messages: [
                  {
                    from: '919812345678',
                    id: 'wamid.inbound-1',
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    type: 'text',
                    text: { body: 'hi' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${t.base}/api/webhooks/whatsapp/${ws.number.id}`, {
        method: 'POST',
        body: payload,
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': hubSignature(payload, ws.number.appSecret),
        },
      });
      expect(res.status).toBe(200);
    }
    const { rows } = await t.ctx.db.query(
      "SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND direction = 'inbound'",
      [ws.id],
    );
    expect(rows[0]).toEqual({ n: 1 });
    const contacts = (await t.api('GET', '/contacts', ws.key)).json().contacts;
    expect(contacts).toMatchObject([{ phone: '919812345678', name: 'Ravi' }]);
  });
});
