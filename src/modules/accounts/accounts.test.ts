import { describe, expect, it } from 'vitest';
import { createTestApp, testAppForTests } from '../../../test/support/app.js';
import { PASSWORD, sessionCookie, signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { addMember, createUser } from './users.js';

const t = testAppForTests();

const post = (url: string, payload: unknown, headers: Record<string, string> = { 'x-parley-csrf': '1' }) =>
  t.app.inject({ method: 'POST', url: `/api/app${url}`, headers, payload: payload as object });

describe('first run', () => {
  it('creates the owner and workspace once, signs them in, then refuses a second setup', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/app/session' })).json();
    expect(before).toMatchObject({ authenticated: false, needs_setup: true });

    const body = {
      email: 'founder@example.com',
      password: PASSWORD,
      name: 'Asha',
      workspace_name: 'Acme',
      default_country_code: '+91',
    };
    const setup = await post('/setup', body);
    expect(setup.statusCode).toBe(201);
    const cookie = setup.headers['set-cookie'] as string;
    expect(cookie).toMatch(/^parley_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);

    const session = (
      await t.app.inject({
        method: 'GET',
        url: '/api/app/session',
        headers: { cookie: sessionCookie(setup) },
      })
    ).json();
    expect(session).toMatchObject({
      authenticated: true,
      role: 'owner',
      user: { email: 'founder@example.com', name: 'Asha' },
      workspace: { name: 'Acme', default_country_code: '91' },
    });

    expectRestError(await post('/setup', { ...body, email: 'other@example.com' }), 409, 'conflict');
    const after = (await t.app.inject({ method: 'GET', url: '/api/app/session' })).json();
    expect(after).toMatchObject({ authenticated: false, needs_setup: false });
  });

  it('stores the password only as a salted scrypt hash and the session only as a hash', async () => {
    const { rows } = await t.ctx.db.query<{ password_hash: string }>('SELECT password_hash FROM users');
    for (const r of rows) {
      expect(r.password_hash).toMatch(/^scrypt\$\d+\$8\$1\$/);
      expect(r.password_hash).not.toContain(PASSWORD);
    }
    const a = await workspaceWithOwner(t);
    const token = a.client.cookie.split('=')[1]!;
    const s = await t.ctx.db.query('SELECT token_hash FROM sessions');
    expect(JSON.stringify(s.rows)).not.toContain(token);
  });
});

describe('sign-in', () => {
  it('signs in with the right password, refuses a wrong one the same way as an unknown address', async () => {
    const { client } = await workspaceWithOwner(t);
    expect((await signIn(t, client.email)).userId).toBe(client.userId);
    const wrong = await post('/login', { email: client.email, password: 'not the password' });
    const unknown = await post('/login', { email: 'nobody@example.com', password: 'not the password' });
    expectRestError(wrong, 401, 'unauthorized');
    expectRestError(unknown, 401, 'unauthorized');
    expect(wrong.json().error.message).toBe(unknown.json().error.message);
  });

  it('throttles repeated failures for one address with 429, even with the right password', async () => {
    const { client } = await workspaceWithOwner(t);
    for (let i = 0; i < 10; i++) {
      expect((await post('/login', { email: client.email, password: `guess ${i}` })).statusCode).toBe(401);
    }
    expectRestError(await post('/login', { email: client.email, password: PASSWORD }), 429, 'rate_limited');
  });

  it('counts failures of one client together however its address is written, and an IPv6 /64 as one client', async () => {
    const from = (remoteAddress: string, email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/app/login',
        remoteAddress,
        headers: { 'x-parley-csrf': '1' },
        payload: { email, password: 'a wrong guess' },
      });
    // 50 failures an address: each e-mail tried once, so only the address can be what is counted.
    for (let i = 0; i < 50; i++) {
      const address = i % 2 ? `2001:db8:9:9::${i.toString(16)}` : `2001:DB8:9:9:${i.toString(16)}::1`;
      expect((await from(address, `nobody${i}@example.com`)).statusCode).toBe(401);
    }
    expectRestError(await from('2001:db8:9:9:ffff::1', 'fresh@example.com'), 429, 'rate_limited');
    expect((await from('2001:db8:9:a::1', 'fresh@example.com')).statusCode).toBe(401);

    for (let i = 0; i < 50; i++) {
      const address = i % 2 ? '192.0.2.77' : '::ffff:192.0.2.77';
      expect((await from(address, `someone${i}@example.com`)).statusCode).toBe(401);
    }
    expectRestError(await from('::FFFF:192.0.2.77', 'other@example.com'), 429, 'rate_limited');
    // 100 sign-ins, each hashing a password: seconds alone, past the default limit on a loaded CI machine.
  }, 120_000);

  it('ends the session on sign-out', async () => {
    const { client } = await workspaceWithOwner(t);
    expect((await client.call('POST', '/logout')).statusCode).toBe(200);
    expectRestError(await client.call('GET', '/workspace'), 401, 'unauthorized');
  });

  it('refuses every signed-in endpoint without a session, or with a made-up cookie', async () => {
    for (const [method, url] of [
      ['GET', '/workspace'],
      ['GET', '/contacts'],
      ['GET', '/api-keys'],
      ['POST', '/api-keys'],
      ['GET', '/messages'],
      ['GET', '/templates'],
      ['GET', '/team'],
    ]) {
      for (const cookie of [undefined, 'parley_session=forged', `parley_session=${'x'.repeat(5000)}`]) {
        const res = await t.app.inject({
          method: method as 'GET',
          url: `/api/app${url}`,
          headers: { 'x-parley-csrf': '1', ...(cookie ? { cookie } : {}) },
        });
        expectRestError(res, 401, 'unauthorized');
      }
    }
  });
});

describe('CSRF', () => {
  it('refuses a state-changing request without the session token header, or with another token', async () => {
    const { client } = await workspaceWithOwner(t);
    const other = await workspaceWithOwner(t);
    for (const headers of [
      { 'x-parley-csrf': '' },
      { 'x-parley-csrf': other.client.csrf },
      { 'x-parley-csrf': '1' },
    ]) {
      expectRestError(await client.call('POST', '/api-keys', {}, headers), 403, 'csrf_failed');
    }
    const noHeader = await t.app.inject({
      method: 'POST',
      url: '/api/app/api-keys',
      headers: { cookie: client.cookie },
      payload: {},
    });
    expectRestError(noHeader, 403, 'csrf_failed');
    expect((await client.call('POST', '/api-keys', {})).statusCode).toBe(201);
  });

  it('refuses requests from another origin, and cross-site fetches', async () => {
    const { client } = await workspaceWithOwner(t);
    expectRestError(
      await client.call('POST', '/api-keys', {}, { origin: 'https://evil.example' }),
      403,
      'csrf_failed',
    );
    expectRestError(
      await client.call('POST', '/api-keys', {}, { 'sec-fetch-site': 'cross-site' }),
      403,
      'csrf_failed',
    );
    expectRestError(
      await post(
        '/login',
        { email: client.email, password: PASSWORD },
        { 'x-parley-csrf': '1', origin: 'null' },
      ),
      403,
      'csrf_failed',
    );
    expectRestError(
      await post('/login', { email: client.email, password: PASSWORD }, {}),
      403,
      'csrf_failed',
    );
    expect((await client.call('POST', '/api-keys', {}, { origin: 'http://parley.test' })).statusCode).toBe(
      201,
    );
  });

  // A page whose name is made to resolve to this server (DNS rebinding) sends its own name as both
  // Host and Origin: only APP_URL tells this server's origin.
  it('refuses an Origin that matches the Host header but not APP_URL (DNS rebinding)', async () => {
    const { client } = await workspaceWithOwner(t);
    const rebound = { host: 'rebound.example:3000', origin: 'http://rebound.example:3000' };
    expectRestError(await client.call('POST', '/api-keys', {}, rebound), 403, 'csrf_failed');
    expectRestError(
      await post(
        '/setup',
        { email: 'x@example.com', password: PASSWORD },
        { 'x-parley-csrf': '1', ...rebound },
      ),
      403,
      'csrf_failed',
    );
    expect(
      (
        await client.call(
          'POST',
          '/api-keys',
          {},
          { host: 'rebound.example:3000', origin: 'http://parley.test' },
        )
      ).statusCode,
    ).toBe(201);
  });

  it('takes the same loopback server under its other names when APP_URL is a loopback address', async () => {
    const local = await createTestApp({ env: { APP_URL: 'http://127.0.0.1:3456' } });
    try {
      const { client } = await workspaceWithOwner(local);
      for (const origin of ['http://localhost:3456', 'http://[::1]:3456', 'http://127.0.0.1:3456']) {
        expect((await client.call('POST', '/api-keys', {}, { origin })).statusCode).toBe(201);
      }
      for (const origin of [
        'http://localhost:9999',
        'https://localhost:3456',
        'http://rebound.example:3456',
      ]) {
        expectRestError(await client.call('POST', '/api-keys', {}, { origin }), 403, 'csrf_failed');
      }
    } finally {
      await local.close();
    }
  });
});

describe('roles', () => {
  it('lets a member read but not manage keys, webhooks, the team or settings', async () => {
    const { client } = await workspaceWithOwner(t, 'member');
    expect((await client.call('GET', '/api-keys')).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', '/api-keys', {}],
      ['POST', '/webhooks', { url: 'https://example.com/h' }],
      ['POST', '/invitations', { email: 'x@example.com', role: 'member' }],
      ['PATCH', '/workspace', { name: 'Mine now' }],
    ] as const) {
      expectRestError(await client.call(method, url, body), 403, 'forbidden');
    }
  });

  it('lets an admin invite members but not owners, and keeps at least one owner', async () => {
    const { client: admin, workspaceId } = await workspaceWithOwner(t, 'admin');
    expect(
      (await admin.call('POST', '/invitations', { email: 'new@example.com', role: 'member' })).statusCode,
    ).toBe(201);
    expectRestError(
      await admin.call('POST', '/invitations', { email: 'boss@example.com', role: 'owner' }),
      403,
    );
    const team = (await admin.call('GET', '/team')).json();
    const owner = team.members.find((m: { role: string }) => m.role === 'owner');
    expectRestError(await admin.call('DELETE', `/members/${owner.id}`), 403, 'forbidden');
    const ownerClient = await signIn(t, owner.email);
    expect(ownerClient.workspaceId).toBe(workspaceId);
    expectRestError(
      await ownerClient.call('PATCH', `/members/${owner.id}`, { role: 'member' }),
      409,
      'conflict',
    );
  });
});

describe('removing a member', () => {
  it('unassigns their conversations and leads, in this workspace only', async () => {
    const { client: owner, workspaceId } = await workspaceWithOwner(t);
    const other = await workspaceWithOwner(t);
    const email = `leaving-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const memberId = await createUser(t.ctx.db, email, PASSWORD);
    await addMember(t.ctx.db, workspaceId, memberId, 'member');
    await addMember(t.ctx.db, other.workspaceId, memberId, 'member');
    for (const ws of [workspaceId, other.workspaceId]) {
      await t.ctx.db.query(
        `WITH c AS (INSERT INTO contacts (workspace_id, id, phone) VALUES ($1, 'ct_left', '14155550199') RETURNING id)
         INSERT INTO conversations (workspace_id, contact_id, assignee_id) SELECT $1, id, $2 FROM c`,
        [ws, memberId],
      );
      await t.ctx.db.query(
        `INSERT INTO leads (workspace_id, id, name, source, source_id, owner_id) VALUES ($1, 'ld_left', 'Lee', 'form', 'fm_x', $2)`,
        [ws, memberId],
      );
    }
    const assigned = async (ws: string) =>
      (
        await t.ctx.db.query<{ assignee: string | null; owner: string | null }>(
          `SELECT (SELECT assignee_id FROM conversations WHERE workspace_id = $1) AS assignee,
             (SELECT owner_id FROM leads WHERE workspace_id = $1) AS owner`,
          [ws],
        )
      ).rows[0];
    expect((await owner.call('DELETE', `/members/${memberId}`)).statusCode).toBe(200);
    expect(await assigned(workspaceId)).toEqual({ assignee: null, owner: null });
    expect(await assigned(other.workspaceId)).toEqual({ assignee: memberId, owner: memberId });
  });
});

describe('invitations', () => {
  it('brings a teammate in with a one-time link that sets their password', async () => {
    const { client, workspaceId } = await workspaceWithOwner(t);
    const inv = (
      await client.call('POST', '/invitations', { email: 'mate@example.com', role: 'admin' })
    ).json();
    const token = inv.url.split('/invite/')[1];
    expect(inv.url).toBe(`http://parley.test/invite/${token}`);
    const preview = await t.app.inject({ method: 'GET', url: `/api/app/invitations/${token}` });
    expect(preview.json().invitation).toMatchObject({
      email: 'mate@example.com',
      role: 'admin',
      has_account: false,
    });

    const accept = await post('/invitations/accept', {
      token,
      password: 'a brand new password',
      name: 'Mate',
    });
    expect(accept.statusCode).toBe(201);
    const mate = await signIn(t, 'mate@example.com', 'a brand new password');
    expect(mate.workspaceId).toBe(workspaceId);
    expect((await mate.call('POST', '/api-keys', {})).statusCode).toBe(201);

    expectRestError(
      await post('/invitations/accept', { token, password: 'a brand new password' }),
      409,
      'conflict',
    );
  });

  it('asks an existing user for their own password, and adds the workspace to theirs', async () => {
    const a = await workspaceWithOwner(t);
    const b = await workspaceWithOwner(t);
    const inv = (
      await a.client.call('POST', '/invitations', { email: b.client.email, role: 'member' })
    ).json();
    const token = inv.url.split('/invite/')[1];
    expectRestError(await post('/invitations/accept', { token, password: 'somebody elses guess' }), 401);
    expect((await post('/invitations/accept', { token, password: PASSWORD })).statusCode).toBe(201);
    const session = (await b.client.call('GET', '/session')).json();
    expect(session.workspaces.map((w: { id: string }) => w.id).sort()).toEqual(
      [a.workspaceId, b.workspaceId].sort(),
    );
    expect(
      (await b.client.call('POST', '/session/workspace', { workspace_id: a.workspaceId })).statusCode,
    ).toBe(200);
    expect((await b.client.call('GET', '/session')).json()).toMatchObject({
      role: 'member',
      workspace: { id: a.workspaceId },
    });
  });
});

describe('tenant wall', () => {
  it("answers 404 for another workspace's keys, webhooks, contacts, members and invitations", async () => {
    const a = await workspaceWithOwner(t);
    const b = await workspaceWithOwner(t);
    const key = (await b.client.call('POST', '/api-keys', {})).json();
    const hook = (await b.client.call('POST', '/webhooks', { url: 'https://example.com/hook' })).json();
    const contact = (
      await t.api('POST', '/contacts', b.apiKey, { phone: '+14155552671', name: 'Bea' })
    ).json();
    const inv = (
      await b.client.call('POST', '/invitations', { email: 'z@example.com', role: 'member' })
    ).json();

    for (const [method, url] of [
      ['DELETE', `/api-keys/${key.id}`],
      ['DELETE', `/webhooks/${hook.id}`],
      ['POST', `/webhooks/${hook.id}/test`],
      ['GET', `/webhooks/${hook.id}/deliveries`],
      ['GET', `/contacts/${contact.id}`],
      ['GET', `/conversations/${contact.id}`],
      ['POST', `/conversations/${contact.id}/messages`],
      ['DELETE', `/members/${b.client.userId}`],
      ['PATCH', `/members/${b.client.userId}`],
      ['DELETE', `/invitations/${inv.id}`],
      ['POST', '/session/workspace'],
    ] as const) {
      const body =
        method === 'PATCH'
          ? { role: 'member' }
          : url === '/session/workspace'
            ? { workspace_id: b.workspaceId }
            : url.endsWith('/messages')
              ? { text: 'hi' }
              : undefined;
      expectRestError(await a.client.call(method, url, body), 404, 'not_found');
    }
    const list = (await a.client.call('GET', '/contacts?q=Bea')).json();
    expect(list.contacts).toEqual([]);
    expect((await b.client.call('GET', '/api-keys')).json().api_keys[0].revoked_at).toBeNull();
  });
});

describe('hostile input', () => {
  it('answers 4xx, never 500, to malformed bodies, params and queries', async () => {
    const { client } = await workspaceWithOwner(t);
    const cases: [string, string, unknown][] = [
      ['POST', '/api-keys', { name: 'x'.repeat(5000) }],
      ['POST', '/api-keys', { name: 'nul\u0000byte' }],
      ['POST', '/api-keys', { unexpected: true }],
      ['POST', '/api-keys', '{"name": '],
      ['POST', '/api-keys', [1, 2]],
      ['PATCH', '/workspace', { default_country_code: '999' }],
      ['PATCH', '/workspace', { default_country_code: "1' OR 1=1" }],
      ['PATCH', '/workspace', { name: '   ' }],
      ['POST', '/webhooks', { url: 'javascript:alert(1)' }],
      ['POST', '/webhooks', { url: 'https://example.com', events: ['nope'] }],
      ['POST', '/invitations', { email: 'not an email', role: 'member' }],
      ['POST', '/invitations', { email: 'a@example.com', role: 'god' }],
      ['GET', `/contacts/${'x'.repeat(150)}`, undefined],
      ['GET', "/contacts/ct_' OR 1=1 --", undefined],
      ['GET', '/contacts?limit=-1', undefined],
      ['GET', '/contacts?limit=abc', undefined],
      ['GET', '/messages?direction=sideways', undefined],
      ['POST', '/conversations/nope/messages', { text: '' }],
      ['POST', '/templates/sync', undefined],
      ['POST', '/session/workspace', { workspace_id: 'ws_nope' }],
      ['GET', '/no/such/route', undefined],
    ];
    for (const [method, url, body] of cases) {
      const res = await client.call(method, url, body);
      expect(res.statusCode, `${method} ${url} -> ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${method} ${url} -> ${res.body}`).toBeLessThan(500);
      expect(res.json().result, `${method} ${url} -> ${res.body}`).toBe(false);
    }
    // LIKE wildcards in a search are matched literally.
    expect((await client.call('GET', `/contacts?q=${encodeURIComponent('%_\\')}`)).json().contacts).toEqual(
      [],
    );
    const setupAgain = await post('/setup', { email: 'x', password: 'short', workspace_name: '' });
    expectRestError(setupAgain, 422, 'validation_error');
  });
});
