import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type RunningServer, runCli, runCliJson, startServer, tempDataDir } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { until } from './support/until.js';

/**
 * `parley restore` with DATABASE_URL: a backup of an embedded server goes into an empty PostgreSQL
 * database, and a server started there with the backup's secret key serves its data to the old API
 * key and sends through the stored number.
 */
describe('parley restore into PostgreSQL', () => {
  const source = tempDataDir();
  const restored = tempDataDir();
  const work = tempDataDir();
  const file = join(work.dir, 'backup.tar.gz');
  let port: number;
  let target: TestDatabase;
  let server: RunningServer | undefined;
  let apiKey: string;
  let contactId: string;
  let messageId: string;

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
      ...init,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...init.headers },
    });
  const sendWelcome = async () => {
    const res = await api('/messages', {
      method: 'POST',
      body: JSON.stringify({
        to: '919876543210',
        template: { name: 'welcome', language: 'en', body: ['Asha', 'Parley'] },
      }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };

  beforeAll(async () => {
    port = await freePort();
    const env = { DATA_DIR: source.dir, LOG_LEVEL: 'warn', PORT: String(port) };
    server = await startServer([], env);
    apiKey = (await runCliJson<{ api_key: string }>(['demo'], env)).api_key;
    const contact = await api('/contacts', {
      method: 'POST',
      body: JSON.stringify({ phone: '919876543211', name: 'Ravi' }),
    });
    expect(contact.status).toBeLessThan(300);
    contactId = ((await contact.json()) as { id: string }).id;
    messageId = await sendWelcome();
    const made = await runCli(['backup', '--out', file], env);
    expect(made.code, made.stderr).toBe(0);
    await server.stop();
    server = undefined;
    target = await createTestDatabase();
  }, 180_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await target?.drop();
    for (const d of [source, restored, work]) d.remove();
  });

  const restoreEnv = (secretKey: string) => ({
    DATA_DIR: restored.dir,
    DATABASE_URL: target.url!,
    PARLEY_SECRET_KEY: secretKey,
    LOG_LEVEL: 'warn',
  });
  const backupKey = () => readFileSync(join(source.dir, 'secret.key'), 'utf8').trim();

  it('refuses a PARLEY_SECRET_KEY other than the backup’s, writing nothing', async () => {
    const r = await runCli(['restore', '--in', file], restoreEnv('2'.repeat(64)));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/PARLEY_SECRET_KEY is not the key this backup's secrets were encrypted with/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const { rows } = await target.db.query(
      "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'",
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('restores into the empty database, and the server there serves the old key and sends', async () => {
    const r = await runCliJson(['restore', '--in', file], restoreEnv(backupKey()));
    expect(r).toMatchObject({ migrations_to_apply: 0 });

    server = await startServer([], {
      ...restoreEnv(backupKey()),
      PORT: String(port),
      SIMULATOR: 'true',
      SIMULATOR_TOKEN: readFileSync(join(source.dir, 'simulator.token'), 'utf8').trim(),
    });
    const contacts = (await (await api('/contacts?limit=10')).json()) as { contacts: { id: string }[] };
    expect(contacts.contacts.map((c) => c.id)).toContain(contactId);
    const message = (await (await api(`/messages/${messageId}`)).json()) as { id: string; status: string };
    expect(message.id).toBe(messageId);

    // The number's access token, encrypted with the backup's key, still reads: a new send is taken.
    const again = await sendWelcome();
    await until(async () => {
      const m = (await (await api(`/messages/${again}`)).json()) as { status: string };
      return ['sent', 'delivered', 'read'].includes(m.status);
    });
  }, 120_000);

  it('refuses a database that is no longer empty', async () => {
    const r = await runCli(['restore', '--in', file], { ...restoreEnv(backupKey()), DATA_DIR: work.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not empty/);
  });
});
