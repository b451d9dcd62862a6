import { createServer, type Server } from 'node:http';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { encodeCursor } from '../../api/page-cursor.js';
import { recordEvent } from './emit.js';

const logLines: string[] = [];
const t = testAppForTests({
  env: { WEBHOOKS_ALLOW_PRIVATE: 'true' },
  log: pino({ level: 'trace' }, { write: (line: string) => logLines.push(line) }),
});

/** A customer's endpoint: answers with the statuses queued in `answers` (200 when none). */
const answers: number[] = [];
let received = 0;
const server: Server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(answers.shift() ?? 200).end();
  });
});
let hookUrl: string;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const add = async (key: string, body: unknown = { url: hookUrl }, headers?: Record<string, string>) =>
  t.api('POST', '/webhooks', key, body, headers);

describe('POST /webhooks, GET /webhooks, DELETE /webhooks/{id}', () => {
  it('adds an endpoint, answering its secret once; stores it sealed and never logs it', async () => {
    const ws = await t.workspace();
    const res = await add(ws.key, { url: hookUrl, events: ['message.received', 'lead.created'] });
    expect(res.statusCode).toBe(201);
    const { endpoint, secret } = res.json();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^we_/),
      url: hookUrl,
      events: ['message.received', 'lead.created'],
      enabled: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      failed: 0,
    });
    const list = await t.api('GET', '/webhooks', ws.key);
    expect(list.json()).toEqual({ result: true, endpoints: [endpoint], next_cursor: null });
    expect(list.body).not.toContain(secret);
    const { rows } = await t.ctx.db.query<{ secret_enc: string }>(
      'SELECT secret_enc FROM webhook_endpoints WHERE workspace_id = $1',
      [ws.id],
    );
    expect(rows[0]!.secret_enc).not.toContain(secret.slice(6));
    expect(t.ctx.secrets.open(rows[0]!.secret_enc)).toBe(secret);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(secret.slice(6));
  });

  it('takes every event when none are named', async () => {
    const ws = await t.workspace();
    const { endpoint } = (await add(ws.key)).json();
    expect(endpoint.events).toContain('message.status');
    expect(endpoint.events).toContain('conversation.resolved');
  });

  it('replays a create with the same Idempotency-Key: one endpoint, and the secret is not stored to replay', async () => {
    const ws = await t.workspace();
    const headers = { 'idempotency-key': 'hook-1' };
    const first = await add(ws.key, { url: hookUrl }, headers);
    expect(first.statusCode).toBe(201);
    const again = await add(ws.key, { url: hookUrl }, headers);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual({ result: true, endpoint: first.json().endpoint });
    expect((await t.api('GET', '/webhooks', ws.key)).json().endpoints).toHaveLength(1);
    const stored = await t.ctx.db.query<{ body: string }>(
      'SELECT response_body AS body FROM idempotency_keys WHERE workspace_id = $1',
      [ws.id],
    );
    expect(stored.rows[0]!.body).not.toContain(first.json().secret.slice(6));
  });

  it('removes an endpoint and its deliveries; a second delete is a 404', async () => {
    const ws = await t.workspace();
    const { endpoint } = (await add(ws.key)).json();
    await recordEvent(t.ctx.db, ws.id, 'lead.created', 'k1', { id: 'ld_1' });
    const res = await t.api('DELETE', `/webhooks/${endpoint.id}`, ws.key);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await t.api('GET', '/webhooks', ws.key)).json().endpoints).toEqual([]);
    const left = await t.ctx.db.query('SELECT 1 FROM webhook_deliveries WHERE workspace_id = $1', [ws.id]);
    expect(left.rows).toEqual([]);
    expectRestError(await t.api('DELETE', `/webhooks/${endpoint.id}`, ws.key), 404, 'not_found');
  });

  it("answers 404 for another workspace's endpoint on every route taking an id, changing nothing", async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const { endpoint } = (await add(a.key)).json();
    const before = received;
    expectRestError(await t.api('DELETE', `/webhooks/${endpoint.id}`, b.key), 404, 'not_found');
    expectRestError(await t.api('POST', `/webhooks/${endpoint.id}/test`, b.key), 404, 'not_found');
    expectRestError(await t.api('GET', `/webhooks/${endpoint.id}/deliveries`, b.key), 404, 'not_found');
    expect(received).toBe(before);
    expect((await t.api('GET', '/webhooks', b.key)).json().endpoints).toEqual([]);
    expect((await t.api('GET', '/webhooks', a.key)).json().endpoints).toEqual([endpoint]);
  });

  it.each([
    ['no url', {}, 'url'],
    ['a url that is not one', { url: 'not a url' }, 'url'],
    ['an ftp url', { url: 'ftp://example.com/x' }, 'url'],
    ['an unknown event', { url: 'https://example.com/h', events: ['message.deleted'] }, 'events'],
    ['no events', { url: 'https://example.com/h', events: [] }, 'events'],
    ['events as a string', { url: 'https://example.com/h', events: 'lead.created' }, 'events'],
    ['an unknown field', { url: 'https://example.com/h', secret: 'mine' }, 'secret'],
    ['a NUL in the url', { url: 'https://example.com/\u0000' }, 'url'],
  ])('refuses %s with 422 naming the field, adding nothing', async (_name, body, field) => {
    const ws = await t.workspace();
    const res = await add(ws.key, body);
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await t.api('GET', '/webhooks', ws.key)).json().endpoints).toEqual([]);
  });

  it('refuses a private address unless the server allows them', async () => {
    const strict = await t.workspace();
    const was = t.ctx.config.allowPrivateWebhooks;
    (t.ctx.config as { allowPrivateWebhooks: boolean }).allowPrivateWebhooks = false;
    try {
      const res = await add(strict.key, { url: 'http://127.0.0.1:9/hooks' });
      expectRestError(res, 422, 'validation_error');
      expect(res.json().error.message).toMatch(/private or local address/);
    } finally {
      (t.ctx.config as { allowPrivateWebhooks: boolean }).allowPrivateWebhooks = was;
    }
  });
});

describe('POST /webhooks/{id}/test and GET /webhooks/{id}/deliveries', () => {
  it("sends a test event and answers the endpoint's answer; the delivery is listed", async () => {
    const ws = await t.workspace();
    const { endpoint } = (await add(ws.key)).json();
    const before = received;
    const ok = await t.api('POST', `/webhooks/${endpoint.id}/test`, ws.key);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      result: true,
      delivery: {
        id: expect.stringMatching(/^evt_/),
        status: 'delivered',
        last_status: 200,
        last_error: null,
      },
    });
    expect(received).toBe(before + 1);
    answers.push(500);
    const failed = (await t.api('POST', `/webhooks/${endpoint.id}/test`, ws.key)).json().delivery;
    expect(failed).toMatchObject({ last_status: 500 });
    expect(failed.status).not.toBe('delivered');

    const listed = (await t.api('GET', `/webhooks/${endpoint.id}/deliveries`, ws.key)).json();
    expect(listed.next_cursor).toBeNull();
    expect(listed.deliveries.map((d: { id: string }) => d.id).sort()).toEqual(
      [ok.json().delivery.id, failed.id].sort(),
    );
    expect(listed.deliveries.find((d: { id: string }) => d.id === failed.id)).toMatchObject({
      event_type: 'webhook.test',
      attempts: 1,
      last_status: 500,
      delivered_at: null,
    });
    expect(listed.deliveries.find((d: { id: string }) => d.id === ok.json().delivery.id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status: 200,
      delivered_at: expect.stringMatching(/Z$/),
    });
  });

  it('pages deliveries by cursor, newest first, each once while new ones arrive', async () => {
    const ws = await t.workspace();
    const { endpoint } = (await add(ws.key)).json();
    for (let i = 0; i < 5; i++) await recordEvent(t.ctx.db, ws.id, 'lead.created', `first-${i}`, { i });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query = `limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await t.api('GET', `/webhooks/${endpoint.id}/deliveries?${query}`, ws.key);
      expect(res.statusCode).toBe(200);
      seen.push(...res.json().deliveries.map((d: { id: string }) => d.id));
      cursor = res.json().next_cursor;
      await recordEvent(t.ctx.db, ws.id, 'lead.created', `later-${pages}`, { pages });
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
    const { rows } = await t.ctx.db.query<{ id: string }>(
      "SELECT id FROM webhook_deliveries WHERE workspace_id = $1 AND event_key LIKE 'first-%'",
      [ws.id],
    );
    expect([...seen].sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it('pages endpoints by cursor too', async () => {
    const ws = await t.workspace();
    for (let i = 0; i < 3; i++) await add(ws.key, { url: `${hookUrl}/${i}` });
    const first = (await t.api('GET', '/webhooks?limit=2', ws.key)).json();
    expect(first.endpoints).toHaveLength(2);
    const second = (
      await t.api('GET', `/webhooks?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`, ws.key)
    ).json();
    expect(second).toMatchObject({ next_cursor: null });
    const urls = [...first.endpoints, ...second.endpoints].map((e: { url: string }) => e.url).sort();
    expect(urls).toEqual([0, 1, 2].map((i) => `${hookUrl}/${i}`));
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['cursor=garbled', 'cursor'],
    [`cursor=${encodeCursor({ micros: 'x', id: 'evt_1' })}`, 'cursor'],
  ])('refuses ?%s with 422 naming the field, on both lists', async (query, field) => {
    const ws = await t.workspace();
    const { endpoint } = (await add(ws.key)).json();
    for (const path of ['/webhooks', `/webhooks/${endpoint.id}/deliveries`]) {
      const res = await t.api('GET', `${path}?${query}`, ws.key);
      expectRestError(res, 422, 'validation_error');
      const fields = res
        .json()
        .error.details.map((d: { field: string }) => d.field.replace('querystring.', ''));
      expect(fields).toContain(field);
    }
  });
});

describe('GET /usage', () => {
  it("answers the workspace's usage against its plan, as the app's Plan and usage page", async () => {
    const ws = await t.workspace();
    await t.api('POST', '/contacts', ws.key, { phone: '+14155552671' });
    const res = await t.api('GET', '/usage', ws.key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      result: true,
      plan: expect.any(String),
      contacts: { used: 1, limit: expect.any(Number) },
      messages_this_month: { used: 0, limit: expect.any(Number) },
      leads_this_month: { used: 0, limit: expect.any(Number) },
    });
    const other = await t.workspace();
    expect((await t.api('GET', '/usage', other.key)).json().contacts.used).toBe(0);
  });
});
