import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { simHeaders, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { metaJson } from '../../simulator/webhooks.js';
import { hubSignature } from './cloud-api/signature.js';
import { connectNumber, numberOfWorkspace } from './connected-numbers.js';

// Meta's own sample payloads (test/fixtures/meta-webhooks, each with the page it came from), signed
// and sent as Meta sends them, are what Parley's receiver must store.

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../test/fixtures/meta-webhooks/${name}`, import.meta.url), 'utf8'));

const t = simulatorAppForTests();

describe("Meta's documented webhooks, posted to Parley's receiver", () => {
  let ws: { id: string; key: string };
  let numberId: string;
  const secret = 'meta-fixture-app-secret';
  const post = async (payload: unknown) => {
    // Meta's form: compact JSON, non-ASCII escaped, signed over exactly those bytes.
    const body = metaJson(payload);
    return fetch(`${t.base}/api/webhooks/whatsapp/${numberId}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(body, secret) },
    });
  };
  const outbound = async (wamid: string) => {
    const contact = (await t.api('POST', '/contacts', ws.key, { phone: '+16505551234' })).json();
    const id = `msg_fixture_${wamid.slice(-12, -4)}`;
    await t.ctx.db.query(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, template_name, template_language,
         status, status_rank, wamid)
       VALUES ($1, $2, 'outbound', $3, '16505551234', 'template', 'promo', 'en', 'accepted', 1, $4)`,
      [ws.id, id, contact.id, wamid],
    );
    return id;
  };
  const message = async (id: string) => (await t.api('GET', `/messages/${id}`, ws.key)).json();

  beforeAll(async () => {
    ws = await t.workspace({ defaultCountryCode: '1' });
    await connectNumber(t.ctx, ws.id, {
      phoneNumberId: '106540352242922',
      businessAccountId: '102290129340398',
      displayPhone: '15550783881',
      accessToken: 'unused',
      appSecret: secret,
      verifyToken: 'verify-me',
      graphBaseUrl: `${t.base}/_sim`,
    });
    numberId = (await numberOfWorkspace(t.ctx, t.ctx.db, ws.id))!.id;
  });

  it('stores the text message with its sender and profile name', async () => {
    const res = await post(fixture('text-message.json'));
    expect(res.status).toBe(200);
    const { rows } = await t.ctx.db.query(
      `SELECT m.direction, m.phone, m.type, m.text, m.wamid, m.created_at, c.name
       FROM messages m JOIN contacts c ON c.workspace_id = m.workspace_id AND c.id = m.contact_id
       WHERE m.workspace_id = $1 AND m.direction = 'inbound'`,
      [ws.id],
    );
    expect(rows).toEqual([
      {
        direction: 'inbound',
        phone: '16505551234',
        type: 'text',
        text: 'Does it come in another color?',
        wamid: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
        // The end of Meta's whole second, so a reply sorts after what was sent earlier in it.
        created_at: new Date(1749416383 * 1000 + 999),
        name: 'Sheena Nelson',
      },
    ]);
  });

  it('moves a message through sent (with pricing, and without), delivered (with pricing) and read', async () => {
    const id = await outbound('wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=');
    expect((await post(fixture('status-sent-with-pricing.json'))).status).toBe(200);
    expect((await message(id)).status).toBe('sent');
    // The same status again, as the v24.0 form without conversation or pricing: nothing changes.
    const bare = fixture('status-without-pricing-v24.json');
    expect((await post(bare)).status).toBe(200);
    expect((await message(id)).status).toBe('sent');
    expect((await post(fixture('status-delivered-with-pricing.json'))).status).toBe(200);
    expect((await message(id)).status).toBe('delivered');
    // The page describes this example as a read status: posted as such.
    bare.entry[0].changes[0].value.statuses[0].status = 'read';
    expect((await post(bare)).status).toBe(200);
    expect(await message(id)).toMatchObject({ status: 'read', error: null });
  });

  it('fails a message with the code and details of a failed status', async () => {
    const id = await outbound('wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI0QUQ2MjA4NEYyRkExNjMyREUA');
    expect((await post(fixture('status-failed.json'))).status).toBe(200);
    expect(await message(id)).toMatchObject({
      status: 'failed',
      error: {
        code: 131049,
        reason: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
      },
    });
  });
});

describe('through the simulator', () => {
  it('stores an inbound text with non-ASCII characters as written (escaped and signed as Meta does)', async () => {
    const ws = await t.connectedWorkspace();
    const text = 'Grüße – ¿qué tal? 😀';
    const res = await fetch(`${t.base}/_sim/inbound`, {
      method: 'POST',
      headers: simHeaders,
      body: JSON.stringify({
        from: '14155550199',
        text,
        phone_number_id: ws.number.phoneNumberId,
        name: 'Zoë',
      }),
    });
    expect(((await res.json()) as { delivered_status: number }).delivered_status).toBe(200);
    const { rows } = await t.ctx.db.query(
      `SELECT m.text, c.name FROM messages m JOIN contacts c ON c.workspace_id = m.workspace_id AND c.id = m.contact_id
       WHERE m.workspace_id = $1 AND m.direction = 'inbound'`,
      [ws.id],
    );
    expect(rows).toEqual([{ text, name: 'Zoë' }]);
  });

  it('marks a text failed with 131047 when the network fails it after accepting it', async () => {
    const ws = await t.connectedWorkspace();
    simState(t).statusDelaysMs = [20, 40, 60];
    // Parley saw the customer write (its window is open); the network did not.
    await t.api('POST', '/contacts', ws.key, { phone: '+14155550188' });
    await t.ctx.db.query('UPDATE contacts SET last_inbound_at = now() WHERE workspace_id = $1', [ws.id]);
    const sent = await t.api('POST', '/messages', ws.key, { to: '+14155550188', type: 'text', text: 'Hi' });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ status: 'accepted', wamid: expect.stringMatching(/^wamid\./) });
    const failed = await until(async () => {
      const m = (await t.api('GET', `/messages/${sent.json().id}`, ws.key)).json();
      return m.status === 'failed' && m;
    });
    expect(failed.error).toEqual({
      code: 131047,
      reason:
        'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    });
  });
});
