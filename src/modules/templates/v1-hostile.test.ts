import { beforeAll, describe, expect, it } from 'vitest';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { fieldsNamed, hostilePageQueries } from '../../../test/support/hostile-pages.js';
import { simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { encodeCursor } from '../../api/page-cursor.js';

// Malformed and hostile input to the REST v1 template, webhook endpoint and usage routes: a clear 4xx
// naming what is wrong, never a 500, and nothing made or changed (here or on WhatsApp).
const t = simulatorAppForTests({ statusDelaysMs: [-1, -1, -1] });
let ws: Awaited<ReturnType<typeof t.connectedWorkspace>>;
let endpointId = '';
let templateId = '';

beforeAll(async () => {
  ws = await t.connectedWorkspace();
  const { rows } = await t.ctx.db.query<{ id: string }>(
    "SELECT id FROM templates WHERE workspace_id = $1 AND status = 'APPROVED' LIMIT 1",
    [ws.id],
  );
  templateId = rows[0]!.id;
  const added = await t.api('POST', '/webhooks', ws.key, { url: 'https://hooks.example.com/parley' });
  expect(added.statusCode, added.body).toBe(201);
  endpointId = added.json().endpoint.id;
});

const state = async () => ({
  network: simState(t).templates.get(ws.number.businessAccountId)!.length,
  templates: (
    await t.ctx.db.query('SELECT id, status FROM templates WHERE workspace_id = $1 ORDER BY id', [ws.id])
  ).rows,
  endpoints: (
    await t.ctx.db.query('SELECT id FROM webhook_endpoints WHERE workspace_id = $1 ORDER BY id', [ws.id])
  ).rows,
});

describe('hostile queries to the lists', () => {
  const CURSORS: [string, string][] = [
    ...hostilePageQueries('tpl'),
    [`cursor=${encodeCursor({ micros: '99999999999999999', id: 'x' })}&limit=0`, 'limit'],
  ];

  it.each([
    ...CURSORS,
    ['status=APPROVED', 'status'],
    ['status=approved&status=all', 'status'],
    ["status=' OR 1=1 --", 'status'],
  ])('GET /templates?%s: 422 at %s', async (query, name) => {
    const res = await t.api('GET', `/templates?${query}`, ws.key);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res)).toContain(name);
  });

  it.each(CURSORS)('GET /webhooks and its deliveries ?%s: 422 at %s', async (query, name) => {
    for (const path of ['/webhooks', `/webhooks/${endpointId}/deliveries`]) {
      const res = await t.api('GET', `${path}?${query}`, ws.key);
      expectRestError(res, 422, 'validation_error');
      expect(fieldsNamed(res)).toContain(name);
    }
  });

  it('ignores unknown query parameters', async () => {
    for (const path of ['/templates', '/webhooks', '/usage'])
      expect((await t.api('GET', `${path}?cache_buster=1`, ws.key)).statusCode).toBe(200);
  });
});

describe('hostile ids', () => {
  it.each([
    ["' OR 1=1 --", 404],
    ['tpl_..%2F..%2Ftemplates', 404],
    ['%F0%9F%92%AC', 404],
    ['x'.repeat(65), 422],
  ])('%s answers %i on every route taking an id, changing nothing', async (bad, status) => {
    const before = await state();
    const code = status === 404 ? 'not_found' : 'validation_error';
    for (const [method, path] of [
      ['GET', `/templates/${bad}`],
      ['DELETE', `/templates/${bad}`],
      ['DELETE', `/webhooks/${bad}`],
      ['POST', `/webhooks/${bad}/test`],
      ['GET', `/webhooks/${bad}/deliveries`],
    ] as const) {
      expectRestError(await t.api(method, path, ws.key), status, code);
    }
    expect(await state()).toEqual(before);
  });
});

describe('hostile bodies', () => {
  const TEMPLATE = { name: 'fine_name', language: 'en', category: 'UTILITY', body: 'Hi {{1}}' };

  it.each([
    ['an empty object', {}, 'name'],
    ['name as a number', { ...TEMPLATE, name: 5 }, 'name'],
    ['an empty name', { ...TEMPLATE, name: '' }, 'name'],
    ['a 513-character name', { ...TEMPLATE, name: 'a'.repeat(513) }, 'name'],
    ['a line break in the name', { ...TEMPLATE, name: 'a\nb' }, 'name'],
    ['a name with SQL in it', { ...TEMPLATE, name: "x'; DROP TABLE templates; --" }, 'name'],
    ['a NUL in the body', { ...TEMPLATE, body: 'Hi\u0000 {{1}}' }, 'body'],
    ['a lone surrogate in the body', { ...TEMPLATE, body: 'Hi \ud800 {{1}}' }, 'body'],
    ['a 1,025-character body', { ...TEMPLATE, body: 'x'.repeat(1025) }, 'body'],
    ['examples as a string', { ...TEMPLATE, examples: 'Asha' }, 'examples'],
    ['101 examples', { ...TEMPLATE, examples: Array.from({ length: 101 }, () => 'x') }, 'examples'],
    ['a language of one letter', { ...TEMPLATE, language: 'e' }, 'language'],
    ['a language that is no code', { ...TEMPLATE, language: 'english' }, 'language'],
    ['components as an object', { ...TEMPLATE, body: undefined, components: { type: 'BODY' } }, 'components'],
    [
      'five components',
      { ...TEMPLATE, body: undefined, components: Array(5).fill({ type: 'BODY', text: 'x' }) },
      'components',
    ],
    ['both body and components', { ...TEMPLATE, components: [{ type: 'BODY', text: 'Hi' }] }, 'components'],
    ['a parameter_format of its own', { ...TEMPLATE, parameter_format: 'BOTH' }, 'parameter_format'],
    ['an unknown field', { ...TEMPLATE, status: 'APPROVED' }, 'status'],
  ])('POST /templates refuses %s with 422 at %s, submitting nothing', async (_name, body, name) => {
    const before = await state();
    const res = await t.api('POST', '/templates', ws.key, body);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res)).toContain(name);
    expect(await state()).toEqual(before);
  });

  it.each([
    ['url as a number', { url: 42 }, 'url'],
    ['an empty url', { url: '' }, 'url'],
    ['a url over the limit', { url: `https://example.com/${'a'.repeat(3000)}` }, 'url'],
    ['a javascript: url', { url: 'javascript:alert(1)' }, 'url'],
    ['a file: url', { url: 'file:///etc/passwd' }, 'url'],
    ['a loopback address', { url: 'http://127.0.0.1:8080/hook' }, 'url'],
    ['a cloud metadata address', { url: 'http://169.254.169.254/latest/meta-data' }, 'url'],
    ['21 events', { url: 'https://example.com/h', events: Array(21).fill('lead.created') }, 'events'],
    ['an event that is a number', { url: 'https://example.com/h', events: [1] }, 'events.0'],
    ['a NUL in an event', { url: 'https://example.com/h', events: ['lead.created\u0000'] }, 'events.0'],
    ['an unknown field', { url: 'https://example.com/h', enabled: false }, 'enabled'],
  ])('POST /webhooks refuses %s with 422 at %s, adding nothing', async (_name, body, name) => {
    const before = await state();
    const res = await t.api('POST', '/webhooks', ws.key, body);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res)).toContain(name);
    expect(await state()).toEqual(before);
  });

  it.each(['/templates', '/webhooks'])(
    'POST %s refuses broken JSON, odd bodies, 415 and 413',
    async (path) => {
      const before = await state();
      const json = { 'content-type': 'application/json' };
      for (const payload of ['{"name": "x', '{"url":"https://example.com","__proto__":{"a":1}}'])
        expectRestError(await t.api('POST', path, ws.key, payload, json), 400);
      for (const payload of ['[1,2]', '"x"', 'null', '42'])
        expectRestError(await t.api('POST', path, ws.key, payload, json), 422, 'validation_error');
      const deep = `{"components":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
      const nested = await t.api('POST', path, ws.key, deep, json);
      expect(nested.statusCode).toBeGreaterThanOrEqual(400);
      expect(nested.statusCode).toBeLessThan(500);
      const plain = await t.api('POST', path, ws.key, 'url=x', { 'content-type': 'text/plain' });
      expectRestError(plain, 415, 'unsupported_media_type');
      const big = await t.api('POST', path, ws.key, { name: 'x', url: 'x'.repeat(300 * 1024) });
      expectRestError(big, 413, 'payload_too_large');
      expect(await state()).toEqual(before);
    },
  );

  it('refuses an Idempotency-Key sent again with another body', async () => {
    const headers = { 'idempotency-key': 'hostile-webhook-1' };
    const first = await t.api('POST', '/webhooks', ws.key, { url: 'https://a.example.com/h' }, headers);
    expect(first.statusCode).toBe(201);
    const other = await t.api('POST', '/webhooks', ws.key, { url: 'https://b.example.com/h' }, headers);
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('idempotency_key_reused');
    await t.api('DELETE', `/webhooks/${first.json().endpoint.id}`, ws.key);
  });

  it('left the template it was given untouched', async () => {
    expect((await t.api('GET', `/templates/${templateId}`, ws.key)).json().template.status).toBe('APPROVED');
  });
});
