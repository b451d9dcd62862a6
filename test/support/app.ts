import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config/env.js';
import type { AppContext } from '../../src/context.js';
import { migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';
import { droppedFields } from '../../src/http/response-check.js';
import { buildServer } from '../../src/http/server.js';
import { createApiKey } from '../../src/modules/api-keys/create-api-key.js';
import type { RateLimiter } from '../../src/modules/rate-limit/limiter.js';
import { createWorkspace, type NewWorkspace } from '../../src/modules/workspaces/create-workspace.js';
import { openRuntime } from '../../src/runtime/compose.js';
import { createLogger } from '../../src/runtime/logger.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { startedForTests } from './started-for-tests.js';

/** The simulator's operator token in test servers (see simHeaders in ./messaging.ts). */
export const SIM_TOKEN = 'test-simulator-operator-token';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** A new workspace with one API key. */
  workspace(input?: Partial<NewWorkspace>): Promise<{ id: string; key: string }>;
  /** A REST v1 call with the given key. */
  api(
    method: string,
    path: string,
    key: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  limiter?: RateLimiter;
  queue?: boolean;
  env?: Record<string, string>;
  /** 'api' sends jobs without running them (a worker process runs them). */
  role?: 'all' | 'api';
  /** A logger of the test's own, to read what is logged. */
  log?: FastifyBaseLogger;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase({ migrated: true });
  // Nothing to apply on a template's copy; kept so a template behind the migrations would be caught up.
  await migrate(database.db);
  return instanceOn(database, options);
}

/** createTestApp for the tests of this file (or describe block): made before them, closed after. */
export function testAppForTests(options: TestAppOptions = {}): TestApp {
  return startedForTests(
    () => createTestApp(options),
    (t) => t.close(),
  );
}

/**
 * Another instance of Parley on the database `t` runs on, with a pool of its own, as a second
 * `serve --role api` process would be. PostgreSQL only (PGlite is one connection in one process).
 * Closing it leaves the database to `t`.
 */
export async function secondInstance(t: TestApp): Promise<TestApp> {
  const url = t.ctx.config.databaseUrl;
  if (!url) throw new Error('a second instance needs PostgreSQL (PARLEY_TEST_DB=postgres)');
  const db = await openPostgres(url, 10);
  return instanceOn({ db, url, drop: () => db.close() }, { queue: false });
}

// One logger per level for every app a test worker starts: files share a worker (isolate: false,
// vitest.config.ts), and each logger hooks the process's exit.
const loggers = new Map<string, ReturnType<typeof createLogger>>();
function loggerAt(level: string) {
  const log = loggers.get(level) ?? createLogger(level);
  loggers.set(level, log);
  return log;
}

async function instanceOn(database: TestDatabase, options: TestAppOptions): Promise<TestApp> {
  // Its own data directory (the media store's files), never the checkout's ./data.
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-test-'));
  const config = loadConfig({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    PARLEY_SECRET_KEY: '0'.repeat(64),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    APP_URL: 'http://parley.test',
    SIMULATOR: 'true',
    SIMULATOR_TOKEN: SIM_TOKEN,
    SEND_DEADLINE_MS: process.env.TEST_SEND_DEADLINE_MS ?? '3000',
    CHECK_RESPONSE_SCHEMAS: 'true',
    ...options.env,
  });
  const runtime = await openRuntime(config, {
    role: options.role ?? 'all',
    log: options.log ?? loggerAt(config.logLevel),
    db: database.db,
    limiter: options.limiter,
    queue: options.queue ?? false,
  });
  const app = await buildServer(runtime.ctx);
  return {
    app,
    ctx: runtime.ctx,
    async workspace(input = {}) {
      const ws = await createWorkspace(runtime.ctx.db, { name: 'Test', plan: 'growth', ...input });
      const key = await createApiKey(runtime.ctx.db, ws.id);
      return { id: ws.id, key: key.key };
    },
    api(method, path, key, body, headers = {}) {
      return app.inject({
        method: method as 'GET',
        url: `/api/v1${path}`,
        headers: { authorization: `Bearer ${key}`, ...headers },
        ...(body === undefined
          ? {}
          : typeof body === 'string'
            ? { payload: body }
            : { payload: body as object }),
      });
    },
    async close() {
      const dropped = droppedFields(app);
      await app.close();
      await runtime.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
      // Also when the test that met it did not look at the status.
      if (dropped.length > 0) throw new Error(`Response schemas dropped fields:\n${dropped.join('\n')}`);
    },
  };
}
