import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { Queryable } from '../../src/db/db.js';
import { sha256Hex } from '../../src/lib/hash.js';
import { hashPassword } from '../../src/modules/accounts/passwords.js';
import { SESSION_COOKIE } from '../../src/modules/accounts/sessions.js';
import { addMember, createOwnedWorkspace, insertUser } from '../../src/modules/accounts/users.js';
import { createApiKey } from '../../src/modules/api-keys/create-api-key.js';
import type { TestApp } from './app.js';

export const PASSWORD = 'correct horse battery';

/** A signed-in browser of the web app: its cookie and CSRF token travel with every call. */
export interface AppClient {
  userId: string;
  workspaceId: string;
  email: string;
  cookie: string;
  csrf: string;
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
}

let n = 0;

let passwordHash: Promise<string> | undefined;

/**
 * A user whose password is PASSWORD, as createUser makes one, but with one hash per test process,
 * made with scrypt at N=2^10 instead of 2^15: sign-in still derives the key from the password with the
 * parameters stored beside it, in about a millisecond instead of 50 to 250 (thousands of sign-ins a run).
 */
export async function createTestUser(db: Queryable, email: string, name = ''): Promise<string> {
  passwordHash ??= hashPassword(PASSWORD, { N: 2 ** 10, r: 8, p: 1 });
  return insertUser(db, email, await passwordHash, name);
}

export function sessionCookie(res: LightMyRequestResponse): string {
  const header = res.headers['set-cookie'];
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? '').split(';')[0]!;
}

/** Signs in through POST /api/app/login and reads the CSRF token from GET /api/app/session. */
export async function signIn(t: TestApp, email: string, password = PASSWORD): Promise<AppClient> {
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/app/login',
    headers: { 'x-parley-csrf': '1' },
    payload: { email, password },
  });
  if (login.statusCode !== 200) throw new Error(`sign-in failed: ${login.body}`);
  return clientOf(t, email, sessionCookie(login));
}

/**
 * A new session of the user in their first workspace, written as sign-in writes it, for a test that
 * needs more sessions of one user than sign-in starts in 15 minutes (20).
 */
export async function newSession(t: TestApp, email: string): Promise<AppClient> {
  const token = randomBytes(32).toString('base64url');
  await t.ctx.db.query(
    `INSERT INTO sessions (token_hash, user_id, workspace_id, expires_at)
     SELECT $1, u.id, m.workspace_id, now() + interval '1 day' FROM users u
     JOIN memberships m ON m.user_id = u.id WHERE lower(u.email) = lower($2)
     ORDER BY m.created_at, m.workspace_id LIMIT 1`,
    [sha256Hex(token), email],
  );
  return clientOf(t, email, `${SESSION_COOKIE}=${token}`);
}

async function clientOf(t: TestApp, email: string, cookie: string): Promise<AppClient> {
  const session = (
    await t.app.inject({ method: 'GET', url: '/api/app/session', headers: { cookie } })
  ).json();
  const client: AppClient = {
    userId: session.user.id,
    workspaceId: session.workspace.id,
    email,
    cookie,
    csrf: session.csrf_token,
    call: (method, path, body, headers = {}) =>
      t.app.inject({
        method: method as 'GET',
        url: `/api/app${path}`,
        headers: { cookie: client.cookie, 'x-parley-csrf': client.csrf, ...headers },
        ...(body === undefined ? {} : { payload: body as object }),
      }),
  };
  return client;
}

/**
 * A new workspace with an owner (and optionally more members), each signed in. `session: 'direct'`
 * writes the session row as sign-in does (newSession) instead of posting the password to
 * /api/app/login, which spends another scrypt (~250 ms): for fixtures that make many workspaces and
 * do not test sign-in itself.
 */
export async function workspaceWithOwner(
  t: TestApp,
  role: 'owner' | 'admin' | 'member' = 'owner',
  { session = 'sign-in' }: { session?: 'sign-in' | 'direct' } = {},
) {
  const owner = `owner${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const ownerId = await createTestUser(t.ctx.db, owner, 'Owner');
  const workspaceId = await createOwnedWorkspace(t.ctx.db, ownerId, `Workspace ${n}`, '91');
  let email = owner;
  if (role !== 'owner') {
    email = `${role}${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await addMember(t.ctx.db, workspaceId, await createTestUser(t.ctx.db, email), role);
  }
  return {
    workspaceId,
    client: session === 'direct' ? await newSession(t, email) : await signIn(t, email),
    apiKey: (await createApiKey(t.ctx.db, workspaceId)).key,
  };
}
