import { beforeAll, describe, expect, it } from 'vitest';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { fieldsNamed, hostilePageQueries } from '../../../test/support/hostile-pages.js';
import { simulatorAppForTests } from '../../../test/support/messaging.js';
import { encodeCursor } from '../../api/page-cursor.js';

// Malformed and hostile input to the REST v1 conversation routes: a clear 4xx naming what is wrong,
// never a 500, and nothing changed.
const t = simulatorAppForTests({ queue: true });
let key = '';
let id = '';

beforeAll(async () => {
  const ws = await t.connectedWorkspace();
  key = ws.key;
  const sent = await t.api('POST', '/messages', key, {
    to: '+14155552671',
    template: { name: 'hello', language: 'en_US' },
  });
  expect(sent.statusCode, sent.body).toBe(201);
  const { rows } = await t.ctx.db.query<{ id: string }>('SELECT id FROM contacts WHERE workspace_id = $1', [
    ws.id,
  ]);
  id = rows[0]!.id;
});

describe('hostile queries to the lists', () => {
  it.each([
    ['status=closed', 'status'],
    ['status=open&status=resolved', 'status'],
    ...hostilePageQueries('ct'),
    [`assignee=${'u'.repeat(65)}`, 'assignee'],
    ['assignee=usr_nobody', 'assignee'],
    ["assignee=' OR 1=1 --", 'assignee'],
  ])('GET /conversations?%s: 422 at %s', async (query, name) => {
    const res = await t.api('GET', `/conversations?${query}`, key);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res)).toContain(name);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['cursor=garbage', 'cursor'],
    // A cursor of the conversations list is not one of a thread's.
    [`cursor=${encodeCursor({ micros: '1', id: 'ct_1' })}`, 'cursor'],
    [`cursor=${encodeCursor({ micros: '1', id: '999999999999999999-msg_1' })}`, 'cursor'],
  ])('GET /conversations/{id}/messages?%s: 422 at %s', async (query, name) => {
    const res = await t.api('GET', `/conversations/${id}/messages?${query}`, key);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res)).toContain(name);
  });

  it('ignores unknown query parameters', async () => {
    const res = await t.api('GET', '/conversations?cache_buster=1&limit=5', key);
    expect(res.statusCode).toBe(200);
  });
});

describe('hostile ids', () => {
  it.each([
    ["' OR 1=1 --", 404],
    ['ct_..%2F..%2Fcontacts', 404],
    ['%F0%9F%92%AC', 404],
    ['c'.repeat(65), 422],
  ])('GET /conversations/%s answers %i', async (bad, status) => {
    for (const path of [`/conversations/${bad}`, `/conversations/${bad}/messages`]) {
      const res = await t.api('GET', path, key);
      expectRestError(res, status, status === 404 ? 'not_found' : 'validation_error');
    }
    expectRestError(await t.api('POST', `/conversations/${bad}/resolve`, key), status);
  });
});

describe('hostile bodies', () => {
  it.each([
    ['an empty object', {}, 'body'],
    ['member_id as a number', { member_id: 5 }, 'member_id'],
    ['an empty member_id', { member_id: '' }, 'member_id'],
    ['a 65-character member_id', { member_id: 'u'.repeat(65) }, 'member_id'],
    ['a NUL in member_id', { member_id: 'usr\u0000' }, 'member_id'],
    ['member_id as an array', { member_id: ['usr_1'] }, 'member_id'],
    ['both member_id and team_id', { member_id: null, team_id: 'team_1' }, 'body'],
    ['an unknown field', { assignee_id: 'usr_1' }, 'assignee_id'],
    ['a member who is no one', { member_id: "usr_x' OR '1'='1" }, 'member_id'],
  ])('POST .../assign refuses %s with 422 at %s', async (_name, body, name) => {
    const res = await t.api('POST', `/conversations/${id}/assign`, key, body);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res)).toContain(name);
  });

  it.each([
    ['no text', {}, 'text'],
    ['an empty text', { text: '' }, 'text'],
    ['a 4,097-character text', { text: 'x'.repeat(4097) }, 'text'],
    ['text as a number', { text: 42 }, 'text'],
    ['a NUL in the text', { text: 'a\u0000b' }, 'text'],
    ['a lone surrogate', { text: 'a\ud800b' }, 'text'],
    ['an unknown field', { text: 'x', author: 'someone' }, 'author'],
  ])('POST .../notes refuses %s with 422 at %s', async (_name, body, name) => {
    const res = await t.api('POST', `/conversations/${id}/notes`, key, body);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res)).toContain(name);
  });

  it.each([
    ['broken JSON', '{"text": "x'],
    ['a __proto__ key', '{"text":"x","__proto__":{"admin":true}}'],
  ])('refuses %s with 400', async (_name, payload) => {
    const res = await t.api('POST', `/conversations/${id}/notes`, key, payload, {
      'content-type': 'application/json',
    });
    expectRestError(res, 400);
  });

  it('refuses a text/plain body with 415 and a body over 256 KiB with 413', async () => {
    const plain = await t.api('POST', `/conversations/${id}/notes`, key, 'text=x', {
      'content-type': 'text/plain',
    });
    expectRestError(plain, 415, 'unsupported_media_type');
    const big = await t.api('POST', `/conversations/${id}/notes`, key, { text: 'x'.repeat(300 * 1024) });
    expectRestError(big, 413, 'payload_too_large');
  });

  it('refuses an Idempotency-Key sent again with another body', async () => {
    const headers = { 'idempotency-key': 'hostile-1' };
    const first = await t.api('POST', `/conversations/${id}/notes`, key, { text: 'one' }, headers);
    expect(first.statusCode).toBe(201);
    const other = await t.api('POST', `/conversations/${id}/notes`, key, { text: 'two' }, headers);
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('idempotency_key_reused');
  });

  it('left the conversation as it was: only the one note, nobody assigned, still open', async () => {
    const { conversation } = (await t.api('GET', `/conversations/${id}`, key)).json();
    expect(conversation).toMatchObject({ status: 'open', assignee: null });
    const { rows } = await t.ctx.db.query<{ text: string }>(
      'SELECT text FROM conversation_notes WHERE contact_id = $1',
      [id],
    );
    expect(rows).toEqual([{ text: 'one' }]);
  });
});
