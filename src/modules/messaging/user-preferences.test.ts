import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { simControl, simulatorAppForTests } from '../../../test/support/messaging.js';
import { metaJson } from '../../simulator/webhooks.js';
import { timelineOf } from '../contacts/timeline.js';
import { createEndpoint } from '../webhooks/endpoints.js';
import { hubSignature } from './cloud-api/signature.js';
import { connectNumber, numberOfWorkspace } from './connected-numbers.js';

// Meta's user_preferences webhook: a customer stops or resumes the business's marketing messages in
// WhatsApp itself. Parley records it as the contact's opt-out or opt-in (source `whatsapp`).

const stopFixture = () =>
  JSON.parse(
    readFileSync(
      new URL('../../../test/fixtures/meta-webhooks/user-preferences-stop.json', import.meta.url),
      'utf8',
    ),
  );

/** The fixture with its one preference changed. */
function preference(change: {
  value?: string;
  timestamp?: number;
  category?: string;
  phoneNumberId?: string;
}) {
  const body = stopFixture();
  const v = body.entry[0].changes[0].value;
  Object.assign(v.user_preferences[0], {
    ...(change.value ? { value: change.value } : {}),
    ...(change.timestamp ? { timestamp: change.timestamp } : {}),
    ...(change.category ? { category: change.category } : {}),
  });
  if (change.phoneNumberId) v.metadata.phone_number_id = change.phoneNumberId;
  return body;
}

const t = simulatorAppForTests();
const now = () => Math.floor(Date.now() / 1000);

async function consentOf(workspaceId: string, phone: string) {
  const { rows } = await t.ctx.db.query<{ id: string; opted_out: boolean; sources: string[] }>(
    `SELECT c.id, c.opted_out, ARRAY(SELECT source FROM consent_changes cc
       WHERE cc.workspace_id = c.workspace_id AND cc.contact_id = c.id ORDER BY cc.created_at) AS sources
     FROM contacts c WHERE c.workspace_id = $1 AND c.phone = $2`,
    [workspaceId, phone],
  );
  return rows[0];
}

describe("Meta's user_preferences webhook, posted to Parley's receiver", () => {
  let ws: { id: string; key: string };
  let numberId: string;
  const secret = 'meta-fixture-app-secret';
  const phone = '16505551234';
  const post = async (payload: unknown) => {
    const body = metaJson(payload);
    const res = await fetch(`${t.base}/api/webhooks/whatsapp/${numberId}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(body, secret) },
    });
    expect(res.status).toBe(200);
  };

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
    await createEndpoint(t.ctx, ws.id, 'https://hooks.example.invalid/x', [
      'contact.opted_out',
      'contact.opted_in',
    ]);
  });

  it("opts out the customer Meta's documented stop names, making the contact, with the event and the timeline", async () => {
    await post(stopFixture());
    const contact = await consentOf(ws.id, phone);
    expect(contact).toMatchObject({ opted_out: true, sources: ['whatsapp'] });
    const timeline = await timelineOf(t.ctx.db, ws.id, contact!.id);
    expect(timeline.find((i) => i.kind === 'consent')).toMatchObject({
      title: 'Opted out',
      detail: 'in WhatsApp (marketing messages)',
    });
    const { rows } = await t.ctx.db.query<{ event_type: string; payload: { data: Record<string, unknown> } }>(
      'SELECT event_type, payload FROM webhook_deliveries WHERE workspace_id = $1',
      [ws.id],
    );
    expect(rows).toMatchObject([
      { event_type: 'contact.opted_out', payload: { data: { phone, opted_out: true, source: 'whatsapp' } } },
    ]);
    // The same delivery again records nothing more.
    await post(stopFixture());
    expect((await consentOf(ws.id, phone))!.sources).toEqual(['whatsapp']);
  });

  it('opts back in on resume, and a stop older than that (a late retry) changes nothing', async () => {
    await post(preference({ value: 'resume', timestamp: now() + 1 }));
    expect(await consentOf(ws.id, phone)).toMatchObject({
      opted_out: false,
      sources: ['whatsapp', 'whatsapp'],
    });
    await post(preference({ value: 'stop', timestamp: now() - 60 }));
    expect((await consentOf(ws.id, phone))!.opted_out).toBe(false);
    await post(preference({ value: 'stop', timestamp: now() + 2 }));
    expect((await consentOf(ws.id, phone))!.opted_out).toBe(true);
  });

  it("leaves another number's change, another category and a value it does not know alone", async () => {
    const other = '16505550000';
    const body = (change: Parameters<typeof preference>[0]) => {
      const b = preference({ timestamp: now() + 5, ...change });
      b.entry[0].changes[0].value.user_preferences[0].wa_id = other;
      return b;
    };
    await post(body({ phoneNumberId: '999999999999' }));
    await post(body({ category: 'utility_messages' }));
    expect(await consentOf(ws.id, other)).toBeUndefined();
    await post(body({}));
    expect((await consentOf(ws.id, other))!.opted_out).toBe(true);
    await post(body({ value: 'pause', timestamp: now() + 10 }));
    expect(await consentOf(ws.id, other)).toMatchObject({ opted_out: true, sources: ['whatsapp'] });
  });
});

describe("the simulator's user_preferences control", () => {
  it('sends the stop and the resume, which Parley records as the opt-out and the opt-in', async () => {
    const ws = await t.connectedWorkspace();
    const phone = '14155550801';
    await t.api('POST', '/contacts', ws.key, { phone: `+${phone}` });
    const to = { wa_id: phone, phone_number_id: ws.number.phoneNumberId };

    expect(await simControl(t.base, '/user-preferences', { ...to, value: 'stop' })).toEqual({
      status: 200,
      body: { delivered_status: 200 },
    });
    expect(await consentOf(ws.id, phone)).toMatchObject({ opted_out: true, sources: ['whatsapp'] });
    const refused = await t.api('POST', '/messages', ws.key, {
      to: `+${phone}`,
      template: { name: 'welcome', language: 'en', body: ['Ann', 'Parley'] },
    });
    expect(refused.json().error.code).toBe('contact_opted_out');

    // Meta's timestamps are whole seconds: the resume comes in a later one.
    await simControl(t.base, '/control', { advance_clock_ms: 1_000 });
    await simControl(t.base, '/user-preferences', { ...to, value: 'resume' });
    expect((await consentOf(ws.id, phone))!.opted_out).toBe(false);
  });

  it('refuses a value other than stop or resume with 400', async () => {
    const res = await simControl(t.base, '/user-preferences', { wa_id: '14155550802', value: 'later' });
    expect(res.status).toBe(400);
  });
});
