import { beforeAll, describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { fieldsNamed, hostilePageQueries } from '../../../test/support/hostile-pages.js';
import { submit } from '../../../test/support/intake.js';
import { encodeCursor } from '../../api/page-cursor.js';

// Malformed and hostile input to the REST v1 lead and form routes: a clear 4xx naming what is wrong,
// never a 500, and nothing changed.
const t = testAppForTests({ queue: true, role: 'api' });
let key = '';
let leadId = '';
let formId = '';

beforeAll(async () => {
  const ws = await t.workspace();
  key = ws.key;
  const form = await t.api('POST', '/forms', key, { name: 'Enquiry', active: true });
  expect(form.statusCode, form.body).toBe(201);
  formId = form.json().form.id;
  const res = await submit(t, { token: form.json().form.token, email: 'ann@example.com' });
  expect(res.statusCode, res.body).toBe(201);
  leadId = res.json().lead_id;
});

const CURSORS: [string, string][] = [
  ...hostilePageQueries('ld'),
  [`cursor=${encodeCursor({ micros: '1', id: 'ld_1' }).slice(0, -2)}`, 'cursor'],
];

const FILTERS: [string, string][] = [
  ['status=maybe', 'status'],
  ['status=new&status=won', 'status'],
  [`form_id=${'f'.repeat(65)}`, 'form_id'],
  ['form_id=', 'form_id'],
  ['automation_id=%00', 'automation_id'],
  ['since=yesterday', 'since'],
  ['since=2026-02-30T00:00:00Z', 'since'],
  ['until=2026-01-01', 'until'],
  ["until=2026-01-01T00:00:00Z' OR 1=1 --", 'until'],
];

describe('hostile queries to the lists', () => {
  it.each([...CURSORS, ...FILTERS])('GET /leads?%s: 422 at %s', async (query, name) => {
    const res = await t.api('GET', `/leads?${query}`, key);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res)).toContain(name);
  });

  it.each(FILTERS)('GET /leads/export?%s: 422 at %s, no file', async (query, name) => {
    const res = await t.api('GET', `/leads/export?${query}`, key);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res)).toContain(name);
  });

  it.each(CURSORS)('GET /leads/{id}/notes?%s and GET /forms?%s: 422 at %s', async (query, name) => {
    for (const path of [`/leads/${leadId}/notes?${query}`, `/forms?${query}`]) {
      const res = await t.api('GET', path, key);
      expectRestError(res, 422, 'validation_error');
      expect(fieldsNamed(res)).toContain(name);
    }
  });

  it('answers an unknown form or sequence with no leads, and ignores unknown parameters', async () => {
    for (const query of ["form_id=' OR 1=1 --", 'automation_id=sq_nothing', 'cache_buster=1&limit=5']) {
      const res = await t.api('GET', `/leads?${query}`, key);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().leads).toHaveLength(query.startsWith('cache') ? 1 : 0);
    }
  });
});

describe('hostile ids', () => {
  it.each([
    ["' OR 1=1 --", 404],
    ['ld_..%2F..%2Fforms', 404],
    ['%F0%9F%92%AC', 404],
    ['c'.repeat(65), 422],
  ])('%s answers %i on every lead and form route', async (bad, status) => {
    const code = status === 404 ? 'not_found' : 'validation_error';
    for (const [method, path, body] of [
      ['GET', `/leads/${bad}`],
      ['PATCH', `/leads/${bad}`, { status: 'won' }],
      ['GET', `/leads/${bad}/notes`],
      ['POST', `/leads/${bad}/notes`, { text: 'x' }],
      ['GET', `/forms/${bad}`],
      ['PATCH', `/forms/${bad}`, { name: 'x' }],
      ['DELETE', `/forms/${bad}`],
      ['DELETE', `/leads/${bad}`],
      ['POST', `/leads/${bad}/restore`],
      ['POST', `/forms/${bad}/restore`],
    ] as const) {
      expectRestError(await t.api(method, path, key, body), status, code);
    }
  });
});

describe('hostile bodies', () => {
  const lead = () => t.api('GET', `/leads/${leadId}`, key);

  it.each([
    ['an empty object', {}, 'body'],
    ['status as a number', { status: 5 }, 'status'],
    ['an unknown status', { status: 'closed' }, 'status'],
    ['an unknown field', { stage: 'won' }, 'stage'],
    ['owner_id as a number', { owner_id: 5 }, 'owner_id'],
    ['an empty owner_id', { owner_id: '' }, 'owner_id'],
    ['a 65-character owner_id', { owner_id: 'u'.repeat(65) }, 'owner_id'],
    ['a NUL in owner_id', { owner_id: 'usr\u0000' }, 'owner_id'],
    ['an unknown owner', { owner_id: "usr_' OR 1=1 --" }, 'owner_id'],
  ])('PATCH /leads/{id} with %s: 422 at %s, nothing changed', async (_what, body, name) => {
    const before = (await lead()).json();
    const res = await t.api('PATCH', `/leads/${leadId}`, key, body);
    expectRestError(res, 422, 'validation_error');
    if (name !== 'body') expect(fieldsNamed(res).join(' ')).toContain(name);
    expect((await lead()).json()).toEqual(before);
  });

  it.each([
    ['no text', {}, 'text'],
    ['text as a number', { text: 5 }, 'text'],
    ['an empty text', { text: '' }, 'text'],
    ['a text of spaces', { text: ' \n\t ' }, 'text'],
    ['a text of 5,001 characters', { text: 'x'.repeat(5001) }, 'text'],
    ['a NUL in text', { text: 'a\u0000b' }, 'text'],
    ['a lone surrogate in text', { text: 'a\uDC00b' }, 'text'],
    ['an unknown field', { text: 'x', author_id: 'usr_1' }, 'author_id'],
  ])('POST /leads/{id}/notes with %s: 422 at %s, nothing stored', async (_what, body, name) => {
    const res = await t.api('POST', `/leads/${leadId}/notes`, key, body);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res).join(' ')).toContain(name);
    expect((await t.api('GET', `/leads/${leadId}/notes`, key)).json().notes).toEqual([]);
  });

  const FORM_BODIES: [string, unknown, string][] = [
    ['a name as a number', { name: 5 }, 'name'],
    ['a name of 201 characters', { name: 'n'.repeat(201) }, 'name'],
    ['a line break in the name', { name: 'a\nb' }, 'name'],
    ['no fields', { fields: [] }, 'fields'],
    [
      '51 fields',
      {
        fields: Array.from({ length: 51 }, (_, i) => ({
          name: `f${i}`,
          label: 'F',
          type: 'text',
          required: false,
        })),
      },
      'fields',
    ],
    [
      'a field of an unknown type',
      { fields: [{ name: 'f', label: 'F', type: 'file', required: false }] },
      'type',
    ],
    ['a field without required', { fields: [{ name: 'f', label: 'F', type: 'text' }] }, 'required'],
    [
      'a reserved field name',
      { fields: [{ name: 'token', label: 'T', type: 'text', required: false }] },
      'fields',
    ],
    ['active as a string', { active: 'true' }, 'active'],
    ['a javascript: redirect', { redirect_url: 'javascript:alert(1)' }, 'redirect_url'],
    ['a relative redirect', { redirect_url: '/thanks' }, 'redirect_url'],
    ['a thank-you of 1,001 characters', { thank_you_message: 'x'.repeat(1001) }, 'thank_you_message'],
    ['an unknown field', { token: 'ft_mine' }, 'token'],
  ];

  it.each(FORM_BODIES)('POST /forms with %s: 422 at %s, nothing stored', async (_what, body, name) => {
    const res = await t.api('POST', '/forms', key, body);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res).join(' ')).toContain(name);
    expect((await t.api('GET', '/forms', key)).json().forms).toHaveLength(1);
  });

  it.each(FORM_BODIES)('PATCH /forms/{id} with %s: 422 at %s, nothing changed', async (_what, body, name) => {
    const before = (await t.api('GET', `/forms/${formId}`, key)).json();
    const res = await t.api('PATCH', `/forms/${formId}`, key, body);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res).join(' ')).toContain(name);
    expect((await t.api('GET', `/forms/${formId}`, key)).json()).toEqual(before);
  });

  it('refuses a body over 256 KiB with 413 and a text body with 415', async () => {
    const big = { name: 'x', thank_you_message: 'y'.repeat(300 * 1024) };
    expectRestError(await t.api('POST', '/forms', key, big), 413);
    const res = await t.api('POST', `/leads/${leadId}/notes`, key, 'text=hi', {
      'content-type': 'text/plain',
    });
    expectRestError(res, 415);
  });

  it('stores SQL metacharacters and unicode in a note literally', async () => {
    const text = "Robert'); DROP TABLE leads; -- 🙂 مرحبا e\u0301";
    const res = await t.api('POST', `/leads/${leadId}/notes`, key, { text });
    expect(res.statusCode, res.body).toBe(201);
    expect((await t.api('GET', `/leads/${leadId}/notes`, key)).json().notes[0].body).toBe(text);
    await t.ctx.db.query('DELETE FROM lead_notes WHERE lead_id = $1', [leadId]);
  });
});
