import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import {
  connectBody,
  metaNumber,
  SIM_TEMPLATES,
  simControl,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { hubSignature } from './cloud-api/signature.js';

const lines: string[] = [];
const t = simulatorAppForTests({
  log: pino({ level: 'debug' }, { write: (line: string) => lines.push(line) }),
});
beforeAll(async () => {
  // Parley's Graph calls go to the in-process simulator, as they would go to graph.facebook.com.
  (t.ctx.config as { graphApiUrl: string }).graphApiUrl = `${t.base}/_sim`;
});

async function connected() {
  const owner = await workspaceWithOwner(t);
  const n = metaNumber(t);
  const res = await owner.client.call('POST', '/number', connectBody(n));
  expect(res.statusCode).toBe(201);
  return { ...owner, n, res };
}

describe('Settings › Connected number: a real number', () => {
  it('connects with a token Meta accepts: reads its quality and tier, syncs templates, keeps secrets sealed', async () => {
    const { client, workspaceId, n, res } = await connected();
    expect(res.json()).toMatchObject({ result: true, templates_synced: SIM_TEMPLATES.length });
    const got = (await client.call('GET', '/number')).json();
    expect(got.number).toMatchObject({
      phone_number_id: n.phoneNumberId,
      business_account_id: n.businessAccountId,
      display_phone: '+1 555 0199',
      verified_name: 'Parley Simulator',
      quality_rating: 'YELLOW',
      messaging_limit_tier: 'TIER_10K',
      provider: 'whatsapp_cloud_api',
    });
    expect(got.webhook).toEqual({
      callback_url: `${t.ctx.config.appUrl}/api/webhooks/whatsapp`,
      verify_token: expect.stringMatching(/^parley_/),
    });
    const { rows } = await t.ctx.db.query<Record<string, string>>(
      'SELECT access_token_enc, app_secret_enc FROM connected_numbers WHERE workspace_id = $1',
      [workspaceId],
    );
    const stored = JSON.stringify(rows);
    for (const secret of [n.accessToken, n.appSecret]) {
      expect(JSON.stringify(got)).not.toContain(secret);
      expect(stored).not.toContain(secret);
      expect(lines.join('\n')).not.toContain(secret);
    }
  });

  it('refuses, in plain words on the field at fault, what Meta does not accept; nothing is stored', async () => {
    const { client } = await workspaceWithOwner(t);
    const n = metaNumber(t);
    const badToken = await client.call('POST', '/number', {
      ...connectBody(n),
      access_token: 'EAAnotthetoken',
    });
    expectRestError(badToken, 422, 'validation_error');
    expect(badToken.json().error.details).toEqual([
      { field: 'access_token', message: 'Meta did not accept this access token' },
    ]);
    const badId = await client.call('POST', '/number', { ...connectBody(n), phone_number_id: '123456' });
    expectRestError(badId, 422, 'validation_error');
    expect(badId.json().error.details[0].field).toBe('phone_number_id');
    expect(badId.json().error.message).toMatch(/^Meta knows no phone number with this id/);
    expect((await client.call('GET', '/number')).json().number).toBeNull();
  });

  it('lets members see the number but not connect, disconnect or read the verify token', async () => {
    const member = await workspaceWithOwner(t, 'member');
    expectRestError(
      await member.client.call('POST', '/number', connectBody(metaNumber(t))),
      403,
      'forbidden',
    );
    expectRestError(await member.client.call('DELETE', '/number'), 403, 'forbidden');
    expect((await member.client.call('GET', '/number')).json().webhook).toEqual({
      callback_url: expect.any(String),
    });
  });

  it('disconnects: the credentials are gone, sends answer no_connected_number; another workspace cannot', async () => {
    const a = await connected();
    const other = await workspaceWithOwner(t);
    expect((await other.client.call('GET', '/number')).json().number).toBeNull();
    expectRestError(await other.client.call('DELETE', '/number'), 409, 'no_connected_number');
    expect((await a.client.call('GET', '/number')).json().number).not.toBeNull();

    expect((await a.client.call('DELETE', '/number')).statusCode).toBe(200);
    expect((await a.client.call('GET', '/number')).json().number).toBeNull();
    const { rows } = await t.ctx.db.query('SELECT 1 FROM connected_numbers WHERE workspace_id = $1', [
      a.workspaceId,
    ]);
    expect(rows).toHaveLength(0);
    const send = await t.api('POST', '/messages', a.apiKey, {
      to: '14155552671',
      template: { name: 'hello', language: 'en_US' },
    });
    expectRestError(send, 409, 'no_connected_number');
  });
});

describe('the app-level webhook receiver, /api/webhooks/whatsapp', () => {
  const inboundPayload = (phoneNumberId: string, wamid: string) => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'some-waba',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550199', phone_number_id: phoneNumberId },
              contacts: [{ wa_id: '14155552671', profile: { name: 'Ana' } }],
              messages: [
                {
                  from: '14155552671',
                  id: wamid,
                  timestamp: '1700000000',
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
  const post = (body: unknown, secret: string) => {
    const raw = JSON.stringify(body);
    return t.app.inject({
      method: 'POST',
      url: '/api/webhooks/whatsapp',
      payload: raw,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, secret) },
    });
  };
  const inbound = async (workspaceId: string) =>
    (
      await t.ctx.db.query<{ wamid: string }>(
        "SELECT wamid FROM messages WHERE workspace_id = $1 AND direction = 'inbound'",
        [workspaceId],
      )
    ).rows.map((r) => r.wamid);

  it("routes by metadata.phone_number_id, checked with that number's app secret", async () => {
    const { n, workspaceId } = await connected();
    expect((await post(inboundPayload(n.phoneNumberId, 'wamid.forged'), 'not-the-secret')).statusCode).toBe(
      401,
    );
    expect(await inbound(workspaceId)).toEqual([]);
    expect((await post(inboundPayload(n.phoneNumberId, 'wamid.app1'), n.appSecret)).statusCode).toBe(200);
    expect(await inbound(workspaceId)).toEqual(['wamid.app1']);
    // A number not connected here is acknowledged and dropped: Meta would redeliver anything else.
    expect((await post(inboundPayload('999000111', 'wamid.nobody'), n.appSecret)).statusCode).toBe(200);
    // The simulator, standing in for Meta, posts to the app-level URL too.
    const sent = await simControl(t.base, '/inbound', {
      from: '14155550123',
      text: 'hello',
      phone_number_id: n.phoneNumberId,
    });
    expect(sent.status).toBe(200);
    await until(async () => (await inbound(workspaceId)).length === 2);
  });

  it("answers Meta's handshake with the server's verify token only", async () => {
    const { client } = await connected();
    const token = (await client.call('GET', '/number')).json().webhook.verify_token;
    const handshake = (verifyToken: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/webhooks/whatsapp?hub.mode=subscribe&hub.challenge=c123&hub.verify_token=${verifyToken}`,
      });
    const ok = await handshake(token);
    expect([ok.statusCode, ok.body]).toEqual([200, 'c123']);
    expect((await handshake(`${token}x`)).statusCode).toBe(403);
    // The access log keeps the handshake's URL without the token.
    await until(() => lines.some((l) => l.includes('hub.verify_token=[redacted]')));
    expect(lines.join('\n')).not.toContain(token);
  });
});
