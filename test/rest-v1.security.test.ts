// Authentication and tenant walls of every route are generated from the route table: rest-v1.tenancy.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { testAppForTests } from './support/app.js';
import { expectRestError } from './support/endpoint-security.js';

const t = testAppForTests();

describe('hostile input to POST /contacts', () => {
  let key: string;
  beforeAll(async () => {
    key = (await t.workspace()).key;
  });

  it.each([
    ['phone as a number', { phone: 14155552671 }, 'phone'],
    ['phone as null', { phone: null }, 'phone'],
    ['phone as an array', { phone: ['+14155552671'] }, 'phone'],
    ['a 33-character phone', { phone: '+1'.padEnd(33, '4') }, 'phone'],
    ['name as an object', { phone: '+14155552671', name: { first: 'x' } }, 'name'],
    ['an empty name', { phone: '+14155552671', name: '' }, 'name'],
    ['a 201-character name', { phone: '+14155552671', name: 'n'.repeat(201) }, 'name'],
    ['a malformed e-mail', { phone: '+14155552671', email: 'not-an-email' }, 'email'],
    ['tags as a string', { phone: '+14155552671', tags: 'vip' }, 'tags'],
    ['a tag that is a number', { phone: '+14155552671', tags: [1] }, 'tags.0'],
    ['101 tags', { phone: '+14155552671', tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'tags'],
    ['a 65-character tag', { phone: '+14155552671', tags: ['t'.repeat(65)] }, 'tags.0'],
    ['traits as an array', { phone: '+14155552671', traits: ['a'] }, 'traits'],
    ['a nested trait', { phone: '+14155552671', traits: { a: { b: 1 } } }, 'traits.a'],
    ['a 1,025-character trait', { phone: '+14155552671', traits: { a: 'x'.repeat(1025) } }, 'traits.a'],
    [
      '101 traits',
      {
        phone: '+14155552671',
        traits: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])),
      },
      'traits',
    ],
    ['a NUL in the name', { phone: '+14155552671', name: 'a\u0000b' }, 'name'],
    ['a NUL in a trait key', { phone: '+14155552671', traits: { 'a\u0000': 1 } }, 'traits'],
    ['an unknown field', { phone: '+14155552671', nmae: 'typo' }, 'nmae'],
    ['letters in the phone', { phone: '+1 415 CALL NOW' }, 'phone'],
  ])('refuses %s with 422 naming the field', async (_name, body, field) => {
    const res = await t.api('POST', '/contacts', key, body);
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it.each([
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"+14155552671"'],
    ['JSON null', 'null'],
    ['a JSON number', '42'],
  ])('refuses %s as the body with 422', async (_name, payload) => {
    const res = await t.api('POST', '/contacts', key, payload, { 'content-type': 'application/json' });
    expectRestError(res, 422, 'validation_error');
  });

  it.each([
    ['broken JSON', '{"phone": "+1415'],
    ['an empty body', ''],
    ['a __proto__ key', '{"phone":"+14155552671","__proto__":{"admin":true}}'],
  ])('refuses %s with 400', async (_name, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contacts',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expectRestError(res, 400);
  });

  it('answers 4xx, never 500, to JSON nested 10,000 deep', async () => {
    const deep = `{"phone":"+14155552671","traits":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    const res = await t.api('POST', '/contacts', key, deep, { 'content-type': 'application/json' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('refuses a body over 256 KiB with 413', async () => {
    const res = await t.api('POST', '/contacts', key, {
      phone: '+14155552671',
      name: 'x'.repeat(300 * 1024),
    });
    expectRestError(res, 413, 'payload_too_large');
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['form-urlencoded', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
  ])('refuses a %s body with 415', async (_name, type) => {
    const res = await t.api('POST', '/contacts', key, 'phone=%2B14155552671', { 'content-type': type });
    expectRestError(res, 415, 'unsupported_media_type');
  });

  it('stores SQL metacharacters, unicode and look-alike keys literally', async () => {
    const name = "Robert'); DROP TABLE contacts; -- 🙂 مرحبا e\u0301";
    const traits = { "'; DELETE FROM workspaces; --": 'x', constructor: 'c', toString: 1, emoji: '👩‍👩‍👧' };
    const res = await t.api('POST', '/contacts', key, {
      phone: '+14155552688',
      name,
      tags: ['💬', "o'neil"],
      traits,
    });
    expect(res.statusCode).toBe(201);
    const listed = (await t.api('GET', '/contacts?limit=200', key)).json().contacts;
    const contact = listed.find((c: { id: string }) => c.id === res.json().id);
    expect(contact).toMatchObject({ name, tags: ['💬', "o'neil"], traits });
  });

  it('reads invalid UTF-8 as replacement characters, stored as such', async () => {
    const body = Buffer.concat([
      Buffer.from('{"phone":"+14155552677","name":"a'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('b"}'),
    ]);
    const res = await t.api('POST', '/contacts', key, body, { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(201);
    const listed = (await t.api('GET', '/contacts?limit=200', key)).json().contacts;
    expect(listed.find((c: { id: string }) => c.id === res.json().id).name).toBe('a\uFFFD\uFFFDb');
  });

  it('takes the last of duplicate JSON keys', async () => {
    const res = await t.api(
      'POST',
      '/contacts',
      key,
      '{"phone":"+14155552699","name":"first","name":"second"}',
      {
        'content-type': 'application/json',
      },
    );
    expect(res.statusCode).toBe(201);
    const listed = (await t.api('GET', '/contacts?limit=200', key)).json().contacts;
    expect(listed.find((c: { id: string }) => c.id === res.json().id).name).toBe('second');
  });
});

describe('hostile input to GET /contacts', () => {
  it.each([
    'limit=0',
    'limit=201',
    'limit=-1',
    'limit=abc',
    'limit=1.5',
    'offset=-1',
    'offset=abc',
    'limit=1e309',
    'offset=99999999999',
    'cursor=garbled',
    `cursor=${'a'.repeat(513)}`,
    'offset=0&cursor=WyIxIiwiY3RfeCJd',
    'phone=',
    'phone=%00',
    `phone=${'1'.repeat(33)}`,
    'phone=call%20me',
  ])('refuses %s with 422', async (query) => {
    const { key } = await t.workspace();
    const res = await t.api('GET', `/contacts?${query}`, key);
    expectRestError(res, 422, 'validation_error');
  });

  it('ignores unknown query parameters', async () => {
    const { key } = await t.workspace();
    expect((await t.api('GET', '/contacts?cache_buster=1&limit=5', key)).json()).toMatchObject({ limit: 5 });
  });
});

describe('hostile input to the one-contact routes', () => {
  let key: string;
  let id: string;
  beforeAll(async () => {
    key = (await t.workspace()).key;
    id = (await t.api('POST', '/contacts', key, { phone: '+14155552671', name: 'Asha' })).json().id;
  });
  const unchanged = async () =>
    expect((await t.api('GET', `/contacts/${id}`, key)).json().contact).toMatchObject({
      name: 'Asha',
      tags: [],
      traits: {},
      opted_out: false,
    });

  it.each([
    ['name as a number', { name: 7 }, 'name'],
    ['a control character in the name', { name: 'a\u0007b' }, 'name'],
    ['a NUL in the e-mail', { email: 'a\u0000@example.com' }, 'email'],
    ['tags as a list', { tags: ['vip'] }, 'tags'],
    ['tags.add as a string', { tags: { add: 'vip' } }, 'tags.add'],
    [
      '101 tags to remove',
      { tags: { remove: Array.from({ length: 101 }, (_, i) => `t${i}`) } },
      'tags.remove',
    ],
    ['a NUL in a tag', { tags: { add: ['a\u0000'] } }, 'tags.add.0'],
    ['a trait key too long', { traits: { ['k'.repeat(65)]: 1 } }, 'traits'],
    ['a lone surrogate in a trait', { traits: { a: '\ud800' } }, 'traits.a'],
    [
      '101 traits',
      { traits: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, null])) },
      'traits',
    ],
    ['opted_out as a string', { opted_out: 'true' }, 'opted_out'],
    ['an unknown field', { nmae: 'typo' }, 'nmae'],
  ])('PATCH refuses %s with 422 naming the field, changing nothing', async (_name, body, field) => {
    const res = await t.api('PATCH', `/contacts/${id}`, key, body);
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    await unchanged();
  });

  it.each([
    ['a JSON array', '[1]', 422],
    ['JSON null', 'null', 422],
    ['broken JSON', '{"name": "x', 400],
    ['a __proto__ key', '{"name":"x","__proto__":{"admin":true}}', 400],
  ])('PATCH refuses %s as the body', async (_name, payload, status) => {
    const res = await t.api('PATCH', `/contacts/${id}`, key, payload, { 'content-type': 'application/json' });
    expectRestError(res, status);
    await unchanged();
  });

  it('PATCH refuses a body over 256 KiB with 413 and text/plain with 415', async () => {
    const big = JSON.stringify({ name: 'x', traits: { a: 'y'.repeat(300 * 1024) } });
    expectRestError(
      await t.api('PATCH', `/contacts/${id}`, key, big, { 'content-type': 'application/json' }),
      413,
    );
    expectRestError(
      await t.api('PATCH', `/contacts/${id}`, key, 'name=x', { 'content-type': 'text/plain' }),
      415,
    );
    await unchanged();
  });

  it.each([
    ['an id too long', `/contacts/${'c'.repeat(65)}`, 422],
    // The router refuses a NUL in a path before any route reads it.
    ['a NUL in the id', '/contacts/ct_%00', 400],
    ['SQL in the id', `/contacts/${encodeURIComponent("' OR 1=1 --")}`, 404],
    ['an unknown id', '/contacts/ct_unknown', 404],
  ])('GET, PATCH, DELETE and the timeline refuse %s', async (_name, path, status) => {
    for (const [method, url, body] of [
      ['GET', path, undefined],
      ['PATCH', path, { name: 'x' }],
      ['DELETE', path, undefined],
      ['GET', `${path}/timeline`, undefined],
    ] as const)
      expectRestError(await t.api(method, url, key, body), status);
    await unchanged();
  });

  it.each([
    'cursor=',
    'cursor=%00',
    'cursor=not-a-cursor',
    `cursor=${Buffer.from('["1","x"]x').toString('base64url')}`,
    `cursor=${Buffer.from('["-1","ct_x"]').toString('base64url')}`,
    `cursor=${Buffer.from('["1","ct x"]').toString('base64url')}`,
    `cursor=${'a'.repeat(513)}`,
    'limit=0',
    'limit=201',
  ])('the timeline refuses %s with 422', async (query) => {
    expectRestError(await t.api('GET', `/contacts/${id}/timeline?${query}`, key), 422, 'validation_error');
  });
});

describe('unknown routes and methods', () => {
  it.each([
    ['GET', '/api/v1/nothing'],
    ['DELETE', '/api/v1/contacts'],
    ['PUT', '/api/v1/templates'],
    ['GET', `/api/v1/${'a'.repeat(5000)}`],
  ])('%s %s gives 404 with the envelope to a valid key, 401 without one', async (method, url) => {
    const { key } = await t.workspace();
    const known = await t.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${key}` },
    });
    expectRestError(known, 404, 'not_found');
    expectRestError(await t.app.inject({ method: method as 'GET', url }), 401, 'unauthorized');
  });
});

describe('hostile input to the settings, teams and quick replies bodies', () => {
  const long = 'x'.repeat(5000);
  const hours = {
    schedule: null,
    holidays: [],
    away: { enabled: false, text: 'Away' },
    greeting: { enabled: false, text: 'Hi' },
  };
  it.each([
    ['PUT', '/business-hours', { ...hours, schedule: 'always' }, 'schedule'],
    [
      'PUT',
      '/business-hours',
      { ...hours, schedule: { mon: [{ from: '09:00', to: 'noon' }] } },
      'schedule.mon.0.to',
    ],
    ['PUT', '/business-hours', { ...hours, schedule: { funday: [] } }, 'schedule.funday'],
    ['PUT', '/business-hours', { ...hours, away: { enabled: 'yes', text: 'x' } }, 'away.enabled'],
    ['PUT', '/business-hours', { ...hours, away: { enabled: true, text: 'a\u0000b' } }, 'away.text'],
    [
      'PUT',
      '/business-hours',
      { ...hours, holidays: [{ date: '2026-12-25', name: 'a\nb' }] },
      'holidays.0.name',
    ],
    ['PUT', '/routing', { auto_assign_team_id: 5, idle_minutes: 15 }, 'auto_assign_team_id'],
    ['PUT', '/routing', { auto_assign_team_id: null, idle_minutes: 1441 }, 'idle_minutes'],
    ['PUT', '/routing', { auto_assign_team_id: 'team_nothing', idle_minutes: 15 }, 'auto_assign_team_id'],
    ['POST', '/teams', { name: '' }, 'name'],
    ['POST', '/teams', { name: 'a\u0007b' }, 'name'],
    ['POST', '/teams', { name: 'n'.repeat(81) }, 'name'],
    ['POST', '/teams', { name: 'T', member_ids: 'usr_x' }, 'member_ids'],
    ['POST', '/teams', { name: 'T', member_ids: ['usr_nobody'] }, 'member_ids'],
    ['POST', '/teams', { name: 'T', max_open_per_member: 0 }, 'max_open_per_member'],
    ['POST', '/teams', { name: 'T', admin: true }, 'admin'],
    ['PUT', '/satisfaction/settings', { enabled: 1, question: 'Rate us' }, 'enabled'],
    ['PUT', '/satisfaction/settings', { enabled: true, question: long }, 'question'],
    ['POST', '/quick-replies', { title: ['x'], text: 'y' }, 'title'],
    ['POST', '/quick-replies', { title: 'x', text: long }, 'text'],
    ['POST', '/quick-replies', { title: 'x\u2028y', text: 'z' }, 'title'],
    ['POST', '/quick-replies', { title: 'x', text: 'a\u0000' }, 'text'],
  ])('%s %s refuses %j with 422 naming %s', async (method, path, body, field) => {
    const { key } = await t.workspace();
    const res = await t.api(method, path, key, body);
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it.each([
    ['PATCH', '/teams/team_nothing', { name: 'x' }],
    ['DELETE', '/teams/team_nothing', undefined],
    ['GET', '/teams/team_nothing', undefined],
    ['PUT', '/quick-replies/qr_nothing', { title: 'x', text: 'y' }],
    ['DELETE', '/quick-replies/qr_nothing', undefined],
    ['GET', '/runs/run_nothing', undefined],
    ['GET', `/runs/${encodeURIComponent("'; DROP TABLE runs; --")}`, undefined],
  ])('%s %s of an unknown id is 404', async (method, path, body) => {
    const { key } = await t.workspace();
    expectRestError(await t.api(method, path, key, body), 404, 'not_found');
  });

  it.each(['/teams', '/quick-replies', '/business-hours', '/routing', '/satisfaction/settings'])(
    'refuses broken JSON to %s with 400 and a text body with 415',
    async (path) => {
      const { key } = await t.workspace();
      const method = path === '/teams' || path === '/quick-replies' ? 'POST' : 'PUT';
      const broken = await t.api(method, path, key, '{"name":', { 'content-type': 'application/json' });
      expectRestError(broken, 400, 'invalid_json');
      const text = await t.api(method, path, key, 'name=x', { 'content-type': 'text/plain' });
      expectRestError(text, 415, 'unsupported_media_type');
    },
  );
});

describe('hostile queries to the lists and reports', () => {
  it.each([
    ['/runs', 'limit=0'],
    ['/runs', 'limit=201'],
    ['/runs', 'cursor=%00'],
    ['/runs', 'cursor=WyIxIl0'],
    ['/runs', `cursor=${'A'.repeat(600)}`],
    ['/runs', 'status=all'],
    ['/runs', `automation_id=${'a'.repeat(65)}`],
    ['/audit-log', 'limit=abc'],
    ['/audit-log', 'cursor=bm90IGpzb24'],
    ['/audit-log', 'entity=__proto__'],
    ['/dashboard', 'days=1e309'],
    ['/dashboard', 'days=-1'],
    ['/satisfaction', 'days=0'],
    ['/quick-replies', `contact_id=${'c'.repeat(65)}`],
  ])('GET %s?%s is a 422', async (path, query) => {
    const { key } = await t.workspace();
    expectRestError(await t.api('GET', `${path}?${query}`, key), 422, 'validation_error');
  });
});

describe('a request with a Content-Type and no body', () => {
  it('is taken by a route that takes no body, and refused by one that needs a body', async () => {
    const { key } = await t.workspace();
    const form = await t.api('POST', '/forms', key, { name: 'No body' });
    expect(form.statusCode, form.body).toBe(201);
    const url = `/api/v1/forms/${form.json().form.id}`;
    for (const type of ['application/json', 'application/json; charset=utf-8', 'text/plain']) {
      const headers = { authorization: `Bearer ${key}`, 'content-type': type };
      const read = await t.app.inject({ method: 'GET', url, headers });
      expect(read.statusCode, read.body).toBe(200);
      const archived = await t.app.inject({ method: 'DELETE', url, headers });
      expect(archived.statusCode, archived.body).toBe(204);
    }
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contacts',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    });
    expectRestError(empty, 400, 'invalid_json');
  });
});
