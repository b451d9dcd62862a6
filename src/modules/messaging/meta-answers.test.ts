import { describe, expect, it } from 'vitest';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import {
  connectSimulator,
  simControl,
  simState,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';
import { jobCatalog } from '../../jobs/catalog.js';

// A queue without workers (as an API process): a re-sync asked for is a job to count, not yet run.
const t = simulatorAppForTests({ queue: true, role: 'api', statusDelaysMs: [-1, -1, -1] });

const HELLO = { name: 'hello', language: 'en_US' };

/** A workspace with a teammate's session, its number on the simulator and its templates synced. */
async function connected() {
  const { workspaceId, client, apiKey } = await workspaceWithOwner(t);
  const number = await connectSimulator(t, t.base, workspaceId);
  return { id: workspaceId, key: apiKey, client, number };
}

type Ws = Awaited<ReturnType<typeof connected>>;

const sendHello = (ws: Ws, to = '+14155550100') =>
  t.api('POST', '/messages', ws.key, { to, template: { ...HELLO, body: [] } });

const syncJobs = async (ws: Ws) =>
  (
    await t.ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'templates.sync' AND singleton_key = $1",
      [ws.number.id],
    )
  ).rows[0]!.n;

const copyOfHello = async (ws: Ws) =>
  (
    await t.ctx.db.query<{ status: string; status_reason: string | null }>(
      'SELECT status, status_reason FROM templates WHERE workspace_id = $1 AND name = $2 AND language = $3',
      [ws.id, HELLO.name, HELLO.language],
    )
  ).rows[0];

/** The template as the web app's list shows it. */
const listedHello = async (ws: Ws) =>
  (await ws.client.call('GET', '/templates'))
    .json()
    .templates.find((x: { name: string }) => x.name === 'hello');

const helloOnTheNetwork = (ws: Ws) =>
  simState(t)
    .templates.get(ws.number.businessAccountId)!
    .find((x) => x.name === HELLO.name && x.language === HELLO.language)!;

const runSync = (ws: Ws) =>
  jobCatalog['templates.sync'].handler(t.ctx, { numberId: ws.number.id }, { lastTry: false });

describe('a template the network says is paused (132015) or disabled (132016)', () => {
  it.each([
    [132015, 'PAUSED', /paused this template for low quality/],
    [132016, 'DISABLED', /disabled this template/],
  ] as const)(
    '%i: Parley marks its copy %s at once, with why, and syncs the templates again',
    async (code, status, words) => {
      const ws = await connected();
      // Meta's answer reaches Parley before any status webhook would.
      await simControl(t.base, '/control', { failNext: 1, failNextCode: code });
      const res = await sendHello(ws);
      expect(res.statusCode).toBe(404);
      const { error } = res.json();
      expect(error).toMatchObject({ code: 'template_not_found', message: expect.stringMatching(words) });
      const failed = await t.api('GET', `/messages/${error.message_id}`, ws.key);
      expect(failed.json()).toMatchObject({ status: 'failed', error: { code } });

      expect(await copyOfHello(ws)).toEqual({ status, status_reason: expect.stringContaining(`(${code})`) });
      expect(await listedHello(ws)).toMatchObject({
        status,
        status_reason: expect.stringContaining(`(${code})`),
      });
      const sendable = (await t.api('GET', '/templates', ws.key)).json().templates;
      expect(sendable.map((x: { name: string }) => x.name)).not.toContain('hello');
      expect(await syncJobs(ws)).toBe(1);
    },
  );

  it("keeps why while the network's list still says so, and forgets it once Meta's webhook approves it again", async () => {
    const ws = await connected();
    helloOnTheNetwork(ws).status = 'PAUSED';
    const res = await sendHello(ws);
    expect(res.json().error.message).toMatch(/paused this template/);
    expect(simState(t).attempts.at(-1)).toMatchObject({ code: 132015 });
    await runSync(ws);
    expect(await copyOfHello(ws)).toEqual({
      status: 'PAUSED',
      status_reason: expect.stringContaining('132015'),
    });
    // Reinstated: Meta's status webhook says so.
    const approved = await simControl(
      t.base,
      `/templates/hello/en_US/approve?business_account_id=${ws.number.businessAccountId}`,
    );
    expect(approved.status).toBe(200);
    expect(await copyOfHello(ws)).toEqual({ status: 'APPROVED', status_reason: null });
  });
});

describe('a template the network does not know (132001)', () => {
  it('syncs the templates again; one deleted on the network becomes DELETED, with why, and is not sent again', async () => {
    const ws = await connected();
    const templates = simState(t).templates;
    templates.set(
      ws.number.businessAccountId,
      templates.get(ws.number.businessAccountId)!.filter((x) => x.name !== HELLO.name),
    );
    const res = await sendHello(ws);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({
      code: 'template_not_found',
      message_id: expect.stringMatching(/^msg_/),
    });
    expect(simState(t).attempts.at(-1)).toMatchObject({ code: 132001 });
    expect(await syncJobs(ws)).toBe(1);
    // The copy stands until the network's list says otherwise.
    expect((await copyOfHello(ws))!.status).toBe('APPROVED');
    await runSync(ws);
    expect(await copyOfHello(ws)).toEqual({
      status: 'DELETED',
      status_reason: expect.stringContaining('no longer lists'),
    });
    expect(await listedHello(ws)).toMatchObject({ status: 'DELETED' });
    const attempts = simState(t).attempts.length;
    expect((await sendHello(ws)).json().error.code).toBe('template_not_found');
    expect(simState(t).attempts.length).toBe(attempts);
    // Listed again (made again in WhatsApp Manager): sendable again, its why gone.
    templates
      .get(ws.number.businessAccountId)!
      .push({ ...HELLO, id: '9', category: 'UTILITY', body: 'Hello!', status: 'APPROVED' });
    await runSync(ws);
    expect(await copyOfHello(ws)).toEqual({ status: 'APPROVED', status_reason: null });
  });
});

describe('a refused send', () => {
  it('131047 on a template is answered as a template refusal, with the id of the failed message', async () => {
    const ws = await connected();
    await simControl(t.base, '/control', { failNext: 1, failNextCode: 131047 });
    const res = await sendHello(ws);
    expect(res.statusCode).toBe(409);
    const { error } = res.json();
    expect(error.code).toBe('outside_window');
    expect(error.message).toMatch(/template message as a re-engagement message \(131047/);
    expect(error.message).not.toMatch(/free text/);
    const failed = await t.api('GET', `/messages/${error.message_id}`, ws.key);
    expect(failed.json()).toMatchObject({ status: 'failed', to: '14155550100', error: { code: 131047 } });
  });

  it('131047 on free text still says free text, with the id; 132000 names the template, with the id', async () => {
    const ws = await connected();
    await t.api('POST', '/contacts', ws.key, { phone: '+14155550101' });
    await t.ctx.db.query('UPDATE contacts SET last_inbound_at = now() WHERE workspace_id = $1', [ws.id]);
    await simControl(t.base, '/control', { failNext: 1, failNextCode: 131047 });
    const text = await t.api('POST', '/messages', ws.key, { to: '+14155550101', type: 'text', text: 'Hi' });
    expect(text.statusCode).toBe(409);
    expect(text.json().error).toMatchObject({
      message: expect.stringMatching(/refused free text/),
      message_id: expect.stringMatching(/^msg_/),
    });
    await simControl(t.base, '/control', { failNext: 1, failNextCode: 132000 });
    const stale = await sendHello(ws);
    expect(stale.statusCode).toBe(422);
    const failed = await t.api('GET', `/messages/${stale.json().error.message_id}`, ws.key);
    expect(failed.json()).toMatchObject({ status: 'failed', error: { code: 132000 } });
  });
});

describe("body parameters in Meta's shape through POST /messages", () => {
  const welcome = (body: unknown) => ({ name: 'welcome', language: 'en', body });
  const price = {
    type: 'currency',
    currency: { fallback_value: '$100.99', code: 'USD', amount_1000: 100990 },
  };
  const when = { type: 'date_time', date_time: { fallback_value: 'February 25, 1977' } };

  it('are sent to the network as Meta documents them', async () => {
    const ws = await connected();
    const res = await t.api('POST', '/messages', ws.key, {
      to: '+14155550102',
      template: welcome([price, when]),
    });
    expect(res.statusCode).toBe(201);
    const sent = simState(t).messages.find((m) => m.to === '14155550102')!;
    expect((sent.payload as { template: { components: unknown[] } }).template.components).toEqual([
      { type: 'body', parameters: [price, when] },
    ]);
  });

  it.each([
    [
      'amount_1000 not a whole number',
      [{ ...price, currency: { ...price.currency, amount_1000: 1.5 } }, when],
      'template.body[0].currency.amount_1000',
    ],
    [
      'a two-letter code',
      [{ ...price, currency: { ...price.currency, code: 'US' } }, when],
      'template.body[0].currency.code',
    ],
    [
      'no fallback_value',
      [price, { type: 'date_time', date_time: {} }],
      'template.body[1].date_time.fallback_value',
    ],
    [
      'a lone surrogate',
      [price, { type: 'date_time', date_time: { fallback_value: '\ud800' } }],
      'template.body[1].date_time.fallback_value',
    ],
    [
      'a nested object for the amount',
      [{ ...price, currency: { ...price.currency, amount_1000: { $gt: 1 } } }, when],
      'template.body[0].currency.amount_1000',
    ],
    [
      'an unknown type',
      [{ type: 'image', image: { link: 'https://x.test/a.png' } }, when],
      'template.body[0].type',
    ],
    ['too many fields', [{ type: 'currency', a: 1, b: 2, c: 3, d: 4 }, when], 'template.body.0'],
    ['a number', [5, when], 'template.body.0'],
    ['null', [null, when], 'template.body.0'],
  ])('%s: 422 at the field at fault', async (_, body, field) => {
    const ws = await connected();
    const res = await t.api('POST', '/messages', ws.key, { to: '+14155550103', template: welcome(body) });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
  });
});
