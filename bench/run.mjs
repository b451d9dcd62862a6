// npm run bench: Parley's REST endpoints under load, each beside a bare-Fastify baseline doing the
// same database work, measured in the same run on PGlite and on PostgreSQL. Writes docs/benchmarks.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { migrate } from '../dist/db/migrate.js';
import { openDatabase } from '../dist/db/open.js';
import { createApiKey } from '../dist/modules/api-keys/create-api-key.js';
import { createWorkspace } from '../dist/modules/workspaces/create-workspace.js';

const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = 3;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const KEYS = 2000;
const PRELOAD = 20_000;
const PHONES = 100_000;
const SECRET = '1'.repeat(64);
const children = new Set();

const phone = (i) => `+9198${String(i % PHONES).padStart(8, '0')}`;
const randomPhone = () => phone(Math.floor(Math.random() * PHONES));

function start(args, env, readyPattern) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    // Keep only the tail of the output: enough to report a failed start, without holding a whole
    // run's request log in memory.
    let out = '';
    let ready = false;
    const onData = (d) => {
      out = (out + d).slice(-4000);
      if (!ready && readyPattern.test(out)) {
        ready = true;
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out.slice(-2000)}`)));
  });
}

async function stop(child) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
}

function load(url, { method = 'GET', makeRequest, duration = DURATION }) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration,
        requests: [{ method, setupRequest: (req) => makeRequest(req) }],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

async function measure(url, options) {
  await load(url, { ...options, duration: WARMUP });
  const r = await load(url, options);
  const ok = r['2xx'];
  return {
    rps: Math.round((ok / r.duration) * 10) / 10,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx + r.errors + r.timeouts,
  };
}

async function prepareDatabase(kind) {
  if (kind === 'pglite') {
    const dirs = ['parley', 'baseline'].map(() => mkdtempSync(join(os.tmpdir(), 'parley-bench-')));
    const envs = [];
    for (const dir of dirs) {
      const db = await openDatabase({ dataDir: dir });
      await migrate(db);
      envs.push({ env: { DATA_DIR: dir }, db });
    }
    const cleanup = () => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    };
    return { envs, cleanup };
  }
  const names = ['parley', 'baseline'].map((n) => `parley_bench_${n}_${process.pid}`);
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const envs = [];
  for (const name of names) {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const db = await openDatabase({ databaseUrl: url.toString() });
    await migrate(db);
    envs.push({ env: { DATABASE_URL: url.toString(), PARLEY_SECRET_KEY: SECRET }, db });
  }
  return {
    envs,
    cleanup: async () => {
      for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function benchDatabase(kind, port) {
  const { envs, cleanup } = await prepareDatabase(kind);
  const [parleyDb, baselineDb] = envs;
  const rows = [];
  try {
    // Parley: one workspace on the largest plan, 2,000 keys so the limiter counts but never refuses.
    const ws = await createWorkspace(parleyDb.db, { name: 'Bench', defaultCountryCode: '91', plan: 'scale' });
    const keys = [];
    for (let i = 0; i < KEYS; i++) keys.push((await createApiKey(parleyDb.db, ws.id)).key);
    const baseWs = await createWorkspace(baselineDb.db, { name: 'Baseline', plan: 'scale' });
    // Both start from the same contacts, with planner statistics as autovacuum would have left them.
    for (const [{ db }, workspaceId] of [
      [parleyDb, ws.id],
      [baselineDb, baseWs.id],
    ]) {
      await db.query(
        `INSERT INTO contacts (workspace_id, id, phone, tags, traits)
         SELECT $1, 'ct_pre' || n, '9198' || lpad(n::text, 8, '0'), '{bench}', '{}' FROM generate_series(0, $2 - 1) AS n`,
        [workspaceId, PRELOAD],
      );
      await db.query('ANALYZE');
      await db.close();
    }

    let k = 0;
    const nextKey = () => keys[k++ % KEYS];
    const upsert = (req) => ({
      ...req,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${nextKey()}` },
      body: JSON.stringify({ phone: randomPhone(), tags: ['bench'], traits: { source: 'bench' } }),
    });
    const list = (req) => ({ ...req, headers: { authorization: `Bearer ${nextKey()}` } });

    const baseUpsertRequest = (req) => ({
      ...req,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: randomPhone().slice(1), tags: ['bench'], traits: { source: 'bench' } }),
    });
    // First Parley's own upsert statement (with the contact-limit trigger), then the bare upsert.
    const baselines = {};
    for (const sql of ['parley', 'bare']) {
      const baseline = await start(
        ['bench/baseline-server.mjs'],
        { ...baselineDb.env, PORT: String(port + 1), WORKSPACE_ID: baseWs.id, BASELINE_SQL: sql },
        /ready/,
      );
      baselines[sql] = await measure(`http://127.0.0.1:${port + 1}/upsert`, {
        method: 'POST',
        makeRequest: baseUpsertRequest,
      });
      if (sql === 'bare') {
        baselines.list = await measure(`http://127.0.0.1:${port + 1}/list`, { makeRequest: (req) => req });
      }
      await stop(baseline);
    }

    const server = await start(
      ['dist/cli/main.js', 'serve'],
      { ...parleyDb.env, PORT: String(port), LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' },
      /Parley is running/,
    );
    const url = `http://127.0.0.1:${port}/api/v1`;
    const contactsUpsert = await measure(`${url}/contacts`, { method: 'POST', makeRequest: upsert });
    const contactsList = await measure(`${url}/contacts?limit=50&offset=0`, { makeRequest: list });
    await stop(server);

    rows.push({
      db: kind,
      endpoint: 'POST /contacts',
      ...contactsUpsert,
      baseline: baselines.bare,
      sameSql: baselines.parley,
    });
    rows.push({
      db: kind,
      endpoint: 'GET /contacts',
      ...contactsList,
      baseline: baselines.list,
      sameSql: baselines.list,
    });
  } finally {
    await cleanup();
  }
  return rows;
}

function table(rows) {
  const header =
    '| database | endpoint | req/s | p50 ms | p99 ms | baseline req/s | baseline p99 ms | ratio | same-SQL baseline req/s | ratio to it | non-2xx |';
  const lines = rows.map(
    (r) =>
      `| ${r.db} | ${r.endpoint} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.baseline.rps} | ${r.baseline.p99} | ${(r.rps / r.baseline.rps).toFixed(2)} | ${r.sameSql.rps} | ${(r.rps / r.sameSql.rps).toFixed(2)} | ${r.non2xx} |`,
  );
  return [header, `|${'---|'.repeat(11)}`, ...lines].join('\n');
}

async function main() {
  const databases = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');
  const rows = [];
  for (const [i, kind] of databases.entries()) rows.push(...(await benchDatabase(kind, 4100 + i * 10)));
  const result = table(rows);
  process.stdout.write(`${result}\n`);
  const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
  writeFileSync(
    'docs/benchmarks.md',
    `# Benchmarks

Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}; machine: ${machine}.

Each Parley endpoint runs beside **baselines measured in the same run**: a bare Fastify server doing
the same database work with no authentication, rate limiting, validation or logging. \`baseline\` is
the bare upsert (one \`INSERT ... ON CONFLICT\`, none of Parley's bookkeeping) or one page \`SELECT\`;
\`same-SQL baseline\` runs Parley's own upsert statement, including the trigger that keeps the
plan's contact limit exactly, so the two ratios separate the cost of the service layer from the cost
of the limit. Load: autocannon on loopback, ${CONNECTIONS} connections, ${WARMUP} s warm-up then
${DURATION} s measured; \`POST /contacts\` upserts random phones from a pool of ${PHONES.toLocaleString('en')},
rotating among ${KEYS.toLocaleString('en')} API keys so the rate limiter counts every request but never
refuses; the server runs with its defaults (log level info; access lines are at debug). Both databases
start fresh with the same ${PRELOAD.toLocaleString('en')} contacts, analyzed. The load generator shares the
machine's cores with the server and the database: PostgreSQL figures move by about 10% from run to
run, PGlite's by up to a third (the embedded engine, its maintenance and the server share one thread).
What the figures say, and what is left to gain: docs/DECISIONS.md, section Performance.

${result}

Re-run with \`npm run bench\` (PostgreSQL at \`BENCH_ADMIN_URL\`, default
\`postgres://postgres@127.0.0.1:5432/test\`; \`BENCH_DATABASES=pglite\` for the embedded one only;
\`BENCH_SECONDS\`, \`BENCH_CONNECTIONS\` to change the load).
`,
  );
}

const cleanupChildren = () => {
  for (const child of children) child.kill('SIGKILL');
};
process.on('exit', cleanupChildren);
process.on('SIGINT', () => process.exit(130));
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
