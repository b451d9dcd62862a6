import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PASSWORD, signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { simHeaders, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { addMember, createUser } from '../accounts/users.js';
import { createApiKey } from '../api-keys/create-api-key.js';

const t = simulatorAppForTests({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });

/** A workspace connected to the simulator, with a signed-in owner. */
async function connectedOwner() {
  const ws = await t.connectedWorkspace();
  const email = `o-${Math.random().toString(36).slice(2)}@example.com`;
  await addMember(t.ctx.db, ws.id, await createUser(t.ctx.db, email, PASSWORD), 'owner');
  return { ws, client: await signIn(t, email) };
}

describe('Settings › Developer', () => {
  it('creates a key shown once that works on the REST API, and revokes it at once', async () => {
    const { client } = await workspaceWithOwner(t);
    const created = await client.call('POST', '/api-keys', { name: 'Website' });
    expect(created.statusCode).toBe(201);
    const { id, key } = created.json();
    expect(key).toMatch(/^pk_live_/);
    const listed = (await client.call('GET', '/api-keys')).json().api_keys;
    expect(listed[0]).toMatchObject({
      id,
      name: 'Website',
      display_prefix: key.slice(0, 12),
      revoked_at: null,
    });
    expect(JSON.stringify(listed)).not.toContain(key);

    expect((await t.api('GET', '/templates', key)).statusCode).toBe(200);
    expect((await client.call('DELETE', `/api-keys/${id}`)).statusCode).toBe(200);
    expectRestError(await t.api('GET', '/templates', key), 401, 'unauthorized');
    expectRestError(await client.call('DELETE', `/api-keys/${id}`), 404, 'not_found');
  });

  it('adds a webhook endpoint with a secret shown once, sends a test event and logs it', async () => {
    const received: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
      const { client } = await workspaceWithOwner(t);
      const created = (await client.call('POST', '/webhooks', { url, events: ['lead.created'] })).json();
      expect(created.secret).toMatch(/^whsec_/);
      const list = (await client.call('GET', '/webhooks')).json();
      expect(list.endpoints).toMatchObject([{ id: created.id, url, events: ['lead.created'] }]);
      expect(JSON.stringify(list)).not.toContain(created.secret);

      const test = (await client.call('POST', `/webhooks/${created.id}/test`)).json();
      expect(test.delivery).toMatchObject({ status: 'delivered', last_status: 204 });
      expect(JSON.parse(received[0]!)).toMatchObject({ type: 'webhook.test' });
      const log = (await client.call('GET', `/webhooks/${created.id}/deliveries`)).json();
      expect(log.deliveries).toMatchObject([
        { event_type: 'webhook.test', status: 'delivered', attempts: 1 },
      ]);
    } finally {
      server.close();
    }
  });
});

describe('Settings › General, number, usage', () => {
  it('changes the name and default country code, which the REST API then uses', async () => {
    const { client, apiKey } = await workspaceWithOwner(t);
    expect(
      (await client.call('PATCH', '/workspace', { name: 'Renamed', default_country_code: '+1' })).statusCode,
    ).toBe(200);
    expect((await client.call('GET', '/workspace')).json().workspace).toMatchObject({
      name: 'Renamed',
      default_country_code: '1',
    });
    await t.ctx.keys.sync();
    const contact = await t.api('POST', '/contacts', apiKey, { phone: '415 555 2671' });
    expect(contact.statusCode).toBe(201);
    const listed = (await client.call('GET', '/contacts?q=4155552671')).json().contacts;
    expect(listed).toMatchObject([{ phone: '14155552671' }]);
    expect((await client.call('PATCH', '/workspace', { default_country_code: null })).statusCode).toBe(200);
  });

  it('keeps an IANA time zone, UTC until set, and refuses a name that is none at the field', async () => {
    const { client } = await connectedOwner();
    expect((await client.call('GET', '/workspace')).json().workspace.time_zone).toBe('UTC');
    expect((await client.call('PATCH', '/workspace', { time_zone: 'Asia/Kolkata' })).statusCode).toBe(200);
    expect((await client.call('GET', '/workspace')).json().workspace.time_zone).toBe('Asia/Kolkata');
    for (const zone of ['Mars/Olympus', 'UTC+25', ' ']) {
      const res = await client.call('PATCH', '/workspace', { time_zone: zone });
      expectRestError(res, 422, 'validation_error');
      expect(res.json().error.details).toEqual([
        { field: 'time_zone', message: expect.stringMatching(/time zone/) },
      ]);
    }
    expect((await client.call('GET', '/workspace')).json().workspace.time_zone).toBe('Asia/Kolkata');
  });

  it('shows the connected number and the plan usage', async () => {
    const { ws, client } = await connectedOwner();
    const number = (await client.call('GET', '/number')).json().number;
    expect(number).toMatchObject({ phone_number_id: ws.number.phoneNumberId, status: 'connected' });
    expect(JSON.stringify(number)).not.toContain(ws.number.accessToken);
    const usage = (await client.call('GET', '/usage')).json();
    expect(usage).toMatchObject({
      plan: 'growth',
      contacts: { used: 0, limit: 100000 },
      messages_this_month: { used: 0, limit: 200000 },
    });
  });

  it('connects the built-in simulator to a workspace without a number', async () => {
    const { client } = await workspaceWithOwner(t);
    expect((await client.call('GET', '/number')).json()).toMatchObject({
      number: null,
      simulator_available: true,
    });
    expect((await client.call('POST', '/number/simulator')).statusCode).toBe(201);
    expect((await client.call('GET', '/number')).json().number).toMatchObject({ provider: 'simulator' });
    expectRestError(await client.call('POST', '/number/simulator'), 409, 'conflict');
  });
});

describe('Messages and templates', () => {
  it('replies with free text only inside the 24-hour window, and says why not outside it', async () => {
    const { ws, client } = await connectedOwner();
    await t.api('POST', '/contacts', await keyOf(ws.id), { phone: '+14155552671', name: 'Ravi' });
    const contact = (await client.call('GET', '/contacts?q=Ravi')).json().contacts[0];

    const closed = (await client.call('GET', `/conversations/${contact.id}`)).json();
    expect(closed.window).toEqual({ open: false, closes_at: null });
    expectRestError(
      await client.call('POST', `/conversations/${contact.id}/messages`, { text: 'hi' }),
      409,
      'outside_window',
    );

    const template = await client.call('POST', `/conversations/${contact.id}/messages`, {
      template: { name: 'welcome', language: 'en', body: ['Ravi', 'Acme'] },
    });
    expect(template.statusCode).toBe(201);

    await fetch(`${t.base}/_sim/inbound`, {
      method: 'POST',
      headers: simHeaders,
      body: JSON.stringify({
        from: '14155552671',
        text: 'hello there',
        phone_number_id: ws.number.phoneNumberId,
      }),
    });
    await until(async () => (await client.call('GET', `/conversations/${contact.id}`)).json().window.open);
    const reply = await client.call('POST', `/conversations/${contact.id}/messages`, { text: 'Hi Ravi!' });
    expect(reply.statusCode).toBe(201);
    expect(reply.json().status).toBe('accepted');

    const conv = (await client.call('GET', `/conversations/${contact.id}`)).json();
    // Inbound messages carry the network's timestamp (whole seconds), so only the set is certain.
    expect(conv.messages.map((m: { direction: string }) => m.direction).sort()).toEqual([
      'inbound',
      'outbound',
      'outbound',
    ]);
    const log = (await client.call('GET', '/messages?direction=inbound')).json().messages;
    expect(log).toMatchObject([{ text: 'hello there', contact_name: 'Ravi' }]);
    const detail = (await client.call('GET', `/contacts/${contact.id}`)).json();
    expect(detail.timeline.filter((i: { kind: string }) => i.kind === 'message')).toHaveLength(3);
  });

  it('lists templates of every status, syncs them, and submits a new one for approval', async () => {
    const { client } = await connectedOwner();
    const list = (await client.call('GET', '/templates')).json();
    expect(
      list.templates.map((x: { name: string; status: string }) => `${x.name}:${x.status}`).sort(),
    ).toEqual(['draft:PENDING', 'hello:APPROVED', 'welcome:APPROVED']);
    expect((await client.call('POST', '/templates/sync')).json()).toMatchObject({ synced: 3 });
    const { client: bare } = await workspaceWithOwner(t);
    expectRestError(await bare.call('POST', '/templates/sync'), 409, 'no_connected_number');

    const created = await client.call('POST', '/templates', {
      name: 'spring_offer',
      language: 'en',
      category: 'MARKETING',
      body: 'Hi {{1}}, 20% off until {{2}}',
      examples: ['Asha', 'Sunday'],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().template).toMatchObject({
      name: 'spring_offer',
      status: 'PENDING',
      variable_count: 2,
    });
    const bad = { name: 'Spring Offer', language: 'en', category: 'MARKETING', body: 'x' };
    expectRestError(await client.call('POST', '/templates', bad), 422, 'validation_error');
    expectRestError(await bare.call('POST', '/templates', { ...bad, name: 'ok' }), 422, 'validation_error');
  });
});

async function keyOf(workspaceId: string): Promise<string> {
  return (await createApiKey(t.ctx.db, workspaceId)).key;
}
