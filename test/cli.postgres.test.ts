import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/lib/hash.js';
import { verifyPassword } from '../src/modules/accounts/passwords.js';
import { resetPassword } from '../src/modules/accounts/reset-password.js';
import { createUser, userByEmail } from '../src/modules/accounts/users.js';
import { freePort, type RunningServer, runCli, runCliJson, startServer } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

describe('parley CLI on PostgreSQL', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url!, PARLEY_SECRET_KEY: 'ab'.repeat(32), LOG_LEVEL: 'warn' };
  });
  afterAll(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    await database?.drop();
  });

  it('refuses to serve while migrations are pending, naming the fix', async () => {
    const r = await runCli(['serve'], { ...env, PORT: String(await freePort()) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/run "parley migrate" first/);
  });

  it('migrates once', async () => {
    const files = readdirSync(join(import.meta.dirname, '../migrations'))
      .filter((f) => f.endsWith('.sql'))
      .sort();
    expect(files.length).toBeGreaterThan(0);
    expect(await runCliJson(['migrate'], env)).toEqual({ applied: files });
    expect(await runCliJson(['migrate'], env)).toEqual({ applied: [] });
  });

  it('prints a one-time password reset link (user reset-password) whose hash alone is stored', async () => {
    const userId = await createUser(database.db, 'pg-reset@example.com', 'the first password');
    const link = await runCliJson<{ url: string }>(
      ['user', 'reset-password', '--email', 'pg-reset@example.com'],
      {
        ...env,
        APP_URL: 'https://parley.example.com',
      },
    );
    expect(link.url).toMatch(/^https:\/\/parley\.example\.com\/reset-password\/[A-Za-z0-9]{32}$/);
    const token = link.url.split('/reset-password/')[1]!;
    const { rows } = await database.db.query('SELECT user_id FROM password_resets WHERE token_hash = $1', [
      sha256Hex(token),
    ]);
    expect(rows).toEqual([{ user_id: userId }]);
    await resetPassword(database.db, token, 'the second password');
    const user = await userByEmail(database.db, 'pg-reset@example.com');
    expect(await verifyPassword('the second password', user!.password_hash)).toBe(true);
    const unknown = await runCli(['user', 'reset-password', '--email', 'nobody@example.com'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no user with e-mail nobody@example.com/);
  });

  it('refuses a demo when no simulator is mounted, naming what to set, and creates nothing', async () => {
    const r = await runCli(['demo', '--json'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/simulator is not mounted on this server/);
    expect(r.stderr).toMatch(/SIMULATOR=true and SIMULATOR_TOKEN/);
    expect(r.stderr).toMatch(/parley number connect/);
    expect((await database.db.query('SELECT id FROM workspaces')).rows).toEqual([]);
    const noToken = await runCli(['demo'], { ...env, SIMULATOR: 'true' });
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toMatch(/SIMULATOR_TOKEN is required when SIMULATOR=true/);
  });

  it('runs api and worker roles as separate processes beside the CLI', async () => {
    const port = String(await freePort());
    const api = await startServer(['--role', 'api'], { ...env, PORT: port });
    servers.push(api);
    const worker = await startServer(['--role', 'worker'], env);
    servers.push(worker);
    expect(worker.output()).toMatch(/Parley worker is running/);

    const ws = await runCliJson(
      ['workspace', 'create', '--name', 'Prod', '--default-country-code', '1'],
      env,
    );
    const res = await fetch(`${api.url}/api/v1/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '(415) 555-2671' }),
    });
    expect(res.status).toBe(201);
    expect(await api.stop('SIGTERM')).toBe(0);
    expect(await worker.stop('SIGTERM')).toBe(0);
  });
});
