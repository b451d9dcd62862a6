import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import {
  connectBody,
  connectSimulator,
  metaNumber,
  SIM_TEMPLATES,
  simControl,
  simState,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';

// REST v1's /number: Settings › Connected number through an API key, against the in-process
// simulator standing in for Meta's Graph API.

const lines: string[] = [];
const t = simulatorAppForTests({
  log: pino({ level: 'debug' }, { write: (line: string) => lines.push(line) }),
  statusDelaysMs: [-1, -1, -1],
});
beforeAll(async () => {
  (t.ctx.config as { graphApiUrl: string }).graphApiUrl = `${t.base}/_sim`;
});

const numberOf = async (key: string) => (await t.api('GET', '/number', key)).json().number;

describe('GET, PUT and DELETE /api/v1/number', () => {
  it('answers null, then connects a number Meta accepts: 200 with it, templates copied, secrets never shown', async () => {
    const ws = await t.workspace();
    const none = await t.api('GET', '/number', ws.key);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({
      result: true,
      number: null,
      webhook: {
        callback_url: `${t.ctx.config.appUrl}/api/webhooks/whatsapp`,
        verify_token: expect.stringMatching(/^parley_/),
      },
    });

    const n = metaNumber(t);
    const res = await t.api('PUT', '/number', ws.key, connectBody(n));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      result: true,
      templates_synced: SIM_TEMPLATES.length,
      number: {
        id: expect.stringMatching(/^pn_/),
        display_phone: '+1 555 0199',
        phone_number_id: n.phoneNumberId,
        business_account_id: n.businessAccountId,
        provider: 'whatsapp_cloud_api',
        status: 'connected',
        paused: null,
        webhook_url: expect.stringContaining('/api/webhooks/whatsapp/pn_'),
        verified_name: 'Parley Simulator',
        quality_rating: 'YELLOW',
        messaging_limit_tier: 'TIER_10K',
        templates_synced_at: expect.any(String),
        connected_at: expect.any(String),
      },
    });
    expect(await numberOf(ws.key)).toEqual(res.json().number);
    const templates = await t.api('GET', '/templates?status=all', ws.key);
    expect(templates.json().templates).toHaveLength(SIM_TEMPLATES.length);

    const answers = [res.body, (await t.api('GET', '/number', ws.key)).body].join('\n');
    for (const secret of [n.accessToken, n.appSecret]) {
      expect(answers).not.toContain(secret);
      expect(lines.join('\n')).not.toContain(secret);
    }
  });

  it('replaces the connected number with another: the same id, the new ids', async () => {
    const ws = await t.workspace();
    const first = (await t.api('PUT', '/number', ws.key, connectBody(metaNumber(t)))).json().number;
    const n = metaNumber(t);
    const res = await t.api('PUT', '/number', ws.key, connectBody(n));
    expect(res.statusCode).toBe(200);
    expect(res.json().number).toMatchObject({ id: first.id, phone_number_id: n.phoneNumberId });
  });

  it('refuses with 422 on the field at fault what Meta does not accept, and stores nothing', async () => {
    const ws = await t.workspace();
    const n = metaNumber(t);
    const badToken = await t.api('PUT', '/number', ws.key, {
      ...connectBody(n),
      access_token: 'EAAnotthetoken',
    });
    expectRestError(badToken, 422, 'validation_error');
    expect(badToken.json().error.details).toEqual([
      { field: 'access_token', message: 'Meta did not accept this access token' },
    ]);
    const badId = await t.api('PUT', '/number', ws.key, { ...connectBody(n), phone_number_id: '123456' });
    expectRestError(badId, 422, 'validation_error');
    expect(badId.json().error.details[0].field).toBe('phone_number_id');
    expect(await numberOf(ws.key)).toBeNull();
    expect(badToken.body + badId.body).not.toContain(n.appSecret);
  });

  it("refuses with 422 a number another workspace has connected; that workspace's stays", async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const n = metaNumber(t);
    expect((await t.api('PUT', '/number', a.key, connectBody(n))).statusCode).toBe(200);
    const res = await t.api('PUT', '/number', b.key, connectBody(n));
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.details[0].field).toBe('phone_number_id');
    expect(await numberOf(b.key)).toBeNull();
    expect((await numberOf(a.key)).phone_number_id).toBe(n.phoneNumberId);
  });

  it('answers 503 when Meta cannot be reached; nothing is stored', async () => {
    const ws = await t.workspace();
    const config = t.ctx.config as { graphApiUrl: string };
    config.graphApiUrl = 'http://127.0.0.1:9';
    try {
      expectRestError(await t.api('PUT', '/number', ws.key, connectBody(metaNumber(t))), 503, 'unavailable');
    } finally {
      config.graphApiUrl = `${t.base}/_sim`;
    }
    expect(await numberOf(ws.key)).toBeNull();
  });

  it('refuses a body with fields it does not know or ids that are not numbers, with 422', async () => {
    const ws = await t.workspace();
    const n = connectBody(metaNumber(t));
    expectRestError(await t.api('PUT', '/number', ws.key, { ...n, extra: 1 }), 422, 'validation_error');
    expectRestError(
      await t.api('PUT', '/number', ws.key, { ...n, business_account_id: 'waba' }),
      422,
      'validation_error',
    );
    expect(await numberOf(ws.key)).toBeNull();
  });

  it('disconnects with 204: sends answer no_connected_number; again is a 409', async () => {
    const ws = await t.connectedWorkspace();
    const res = await t.api('DELETE', '/number', ws.key);
    expect([res.statusCode, res.body]).toEqual([204, '']);
    expect(await numberOf(ws.key)).toBeNull();
    const send = await t.api('POST', '/messages', ws.key, {
      to: '+14155552671',
      template: { name: 'hello', language: 'en_US' },
    });
    expectRestError(send, 409, 'no_connected_number');
    expectRestError(await t.api('DELETE', '/number', ws.key), 409, 'no_connected_number');
  });
});

describe('POST /api/v1/number/check', () => {
  it('keeps a paused number paused with 409 number_paused while Meta refuses it, resumes it once Meta reads it', async () => {
    const ws = await t.workspace();
    const number = await connectSimulator(t, t.base, ws.id);
    await simControl(t.base, '/control', { failNext: 1, failNextCode: 131031 });
    try {
      await t.api('POST', '/messages', ws.key, {
        to: '+14155557961',
        template: { name: 'hello', language: 'en_US' },
      });
    } finally {
      await simControl(t.base, '/control', { failNext: 0, failNextCode: 130429 });
    }
    expect(await numberOf(ws.key)).toMatchObject({
      status: 'paused',
      paused: {
        at: expect.any(String),
        code: 131031,
        reason: expect.any(String),
        what_to_do: expect.stringMatching(/locked/),
      },
    });

    const sim = simState(t).numbers.get(number.phoneNumberId)!;
    const token = sim.accessToken;
    sim.accessToken = 'someone-else';
    const still = await t.api('POST', '/number/check', ws.key);
    expectRestError(still, 409, 'number_paused');
    expect(still.json().error.message).toMatch(/^Meta still refuses the number/);
    expect((await numberOf(ws.key)).status).toBe('paused');

    sim.accessToken = token;
    const checked = await t.api('POST', '/number/check', ws.key);
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toMatchObject({
      result: true,
      resumed: true,
      number: { id: number.id, status: 'connected', paused: null },
    });
    expect((await t.api('POST', '/number/check', ws.key)).json().resumed).toBe(false);
  });

  it('answers 409 no_connected_number when none is connected', async () => {
    const ws = await t.workspace();
    expectRestError(await t.api('POST', '/number/check', ws.key), 409, 'no_connected_number');
  });
});
