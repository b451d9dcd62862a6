import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate.js';
import { createApiKey } from '../src/modules/api-keys/create-api-key.js';
import { createWorkspace } from '../src/modules/workspaces/create-workspace.js';
import { freePort, type RunningServer, runCliJson, startServer } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

// Two `serve --role api` processes on one PostgreSQL, each holding a key in its cache; the key is
// revoked by the CLI, a third process. Their poll is set to ten minutes, so only the notice sent as
// the revocation commits can stop the key on them.
let database: TestDatabase;
let env: Record<string, string>;
const apis: RunningServer[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await migrate(database.db);
  env = {
    DATABASE_URL: database.url!,
    PARLEY_SECRET_KEY: 'ab'.repeat(32),
    LOG_LEVEL: 'warn',
    API_KEY_POLL_MS: '600000',
  };
  const ports = [await freePort(), await freePort()];
  apis.push(
    ...(await Promise.all(ports.map((p) => startServer(['--role', 'api'], { ...env, PORT: String(p) })))),
  );
}, 120_000);
afterAll(async () => {
  for (const api of apis) await api.stop('SIGKILL');
  await database?.drop();
});

it('a key revoked through the CLI is refused by every API instance within a second', async () => {
  const ws = await createWorkspace(database.db, { name: 'Revoked' });
  const key = await createApiKey(database.db, ws.id);
  const call = (api: RunningServer) =>
    fetch(`${api.url}/api/v1/templates`, { headers: { authorization: `Bearer ${key.key}` } });
  for (const api of apis) expect((await call(api)).status).toBe(200);

  expect(await runCliJson(['apikey', 'revoke', '--id', key.id], env)).toEqual({ id: key.id, revoked: true });
  const revokedAt = Date.now();
  // The bound is the feature: revocation reaches every instance at once, not at its next poll.
  await Promise.all(
    apis.map(async (api) => {
      while ((await call(api)).status !== 401) {
        if (Date.now() - revokedAt > 1_000) throw new Error(`${api.url} still accepts the revoked key`);
        await sleep(50);
      }
    }),
  );
});
