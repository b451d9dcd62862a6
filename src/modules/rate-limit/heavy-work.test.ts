import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { until } from '../../../test/support/until.js';
import { createApiKey } from '../api-keys/create-api-key.js';
import { HEAVY_WORK } from './heavy-work.js';

const t = testAppForTests({ queue: true });

/** An import whose upload is still arriving: it holds its place until `finish()` sends the rest. */
function slowUpload(url: string, headers: Record<string, string>) {
  const body = new PassThrough();
  body.write('phone\n');
  const answer = t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'text/csv', ...headers },
    payload: body,
  });
  return {
    answer,
    finish() {
      body.end('+14155550100\n');
      return answer;
    },
  };
}

const receiving = async (workspaceId: string, count: number) =>
  until(async () => {
    const { rows } = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM contact_imports WHERE workspace_id = $1 AND status = 'receiving'`,
      [workspaceId],
    );
    return rows[0]!.n === count;
  });

describe('exports and imports running at once', () => {
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  const importWith = (key: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/contacts/import',
      headers: { 'content-type': 'text/csv', ...auth(key) },
      payload: 'phone\n+14155550101\n',
    });

  it("refuses an API key's third while its workspace has room, which another key takes", async () => {
    const a = await t.workspace();
    const uploads = [1, 2].map(() => slowUpload('/api/v1/contacts/import', auth(a.key)));
    await receiving(a.id, 2);

    const third = await t.api('GET', '/contacts/export', a.key);
    expectRestError(third, 429, 'rate_limited');
    expect(third.body).toContain('this API key');
    expect(third.headers['retry-after']).toBe(String(HEAVY_WORK.retryAfterSeconds));
    expectRestError(await importWith(a.key), 429, 'rate_limited');

    const teammateKey = (await createApiKey(t.ctx.db, a.id)).key;
    const other = await t.api('GET', '/contacts/export', teammateKey);
    expect(other.statusCode).toBe(200);
    expect(other.body).toContain('id,phone,name');
    for (const u of uploads) expect((await u.finish()).statusCode).toBe(202);
  });

  it("refuses a workspace's fourth with 429 and Retry-After while another workspace's export proceeds", async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const second = (await createApiKey(t.ctx.db, a.id)).key;
    const uploads = [
      ...[1, 2].map(() => slowUpload('/api/v1/contacts/import', auth(a.key))),
      slowUpload('/api/v1/contacts/import', auth(second)),
    ];
    await receiving(a.id, 3);

    // The second key runs one of its two: only the workspace's bound is reached.
    const fourth = await t.api('GET', '/leads/export', second);
    expectRestError(fourth, 429, 'rate_limited');
    expect(fourth.body).toContain('this workspace');
    expect(fourth.headers['retry-after']).toBe(String(HEAVY_WORK.retryAfterSeconds));

    const other = await t.api('GET', '/contacts/export', b.key);
    expect(other.statusCode).toBe(200);

    for (const u of uploads) expect((await u.finish()).statusCode).toBe(202);
    // Their places are given back once answered.
    expect((await t.api('GET', '/contacts/export', a.key)).statusCode).toBe(200);
    expect((await importWith(second)).statusCode).toBe(202);
  });

  it("counts a person's exports and imports across their workspaces in the web app", async () => {
    const first = await workspaceWithOwner(t);
    const elsewhere = await signIn(t, first.client.email);
    const created = await elsewhere.call('POST', '/workspaces', { name: 'Second' });
    expect(created.statusCode).toBe(201);
    const teammate = await workspaceWithOwner(t);
    const session = { cookie: first.client.cookie, 'x-parley-csrf': first.client.csrf };
    const uploads = [1, 2].map(() => slowUpload('/api/app/contacts/import', session));
    await receiving(first.workspaceId, 2);

    // The second workspace runs nothing, but its person already runs two.
    const mine = await elsewhere.call('GET', '/leads/export');
    expectRestError(mine, 429, 'rate_limited');
    expect(mine.headers['retry-after']).toBe(String(HEAVY_WORK.retryAfterSeconds));
    expect((await teammate.client.call('GET', '/contacts/export')).statusCode).toBe(200);

    for (const u of uploads) expect((await u.finish()).statusCode).toBe(202);
    expect((await elsewhere.call('GET', '/leads/export')).statusCode).toBe(200);
    expect((await first.client.call('GET', '/contacts/export')).statusCode).toBe(200);
  });
});
