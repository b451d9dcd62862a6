import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { sha256Hex } from '../../src/lib/hash.js';
import { SESSION_COOKIE } from '../../src/modules/accounts/sessions.js';
import { addMember, createOwnedWorkspace, createUser } from '../../src/modules/accounts/users.js';
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

/** A new workspace with an owner (and optionally more members), each signed in. */
export async function workspaceWithOwner(t: TestApp, role: 'owner' | 'admin' | 'member' = 'owner') {
  const owner = `owner${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const ownerId = await createUser(t.ctx.db, owner, PASSWORD, 'Owner');
  const workspaceId = await createOwnedWorkspace(t.ctx.db, ownerId, `Workspace ${n}`, '91');
  let email = owner;
  if (role !== 'owner') {
    email = `${role}${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await addMember(t.ctx.db, workspaceId, await createUser(t.ctx.db, email, PASSWORD), role);
  }
  return {
    workspaceId,
    client: await signIn(t, email),
    apiKey: (await createApiKey(t.ctx.db, workspaceId)).key,
  };
}
