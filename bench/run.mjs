// npm run bench: Parley's POST /contacts and GET /contacts under load, beside a bare-Fastify baseline
// doing the equivalent database work, measured in the same run, on PGlite and on PostgreSQL.
// Prints a table and writes docs/benchmarks.md. Environment (all optional):
//   BENCH_DATABASES    pglite,postgres (default both)
//   BENCH_ADMIN_URL    PostgreSQL to create the bench databases on (default postgres://postgres@127.0.0.1:5432/test)
//   BENCH_REDIS_URL    Redis for an extra PostgreSQL row with the shared rate limiter
//                      (default redis://127.0.0.1:6379; empty to skip; skipped when unreachable)
//   BENCH_SECONDS      measured seconds per run (default 10), BENCH_WARMUP (default 3)
//   BENCH_CONNECTIONS  concurrent connections (default 20)
//   BENCH_LOG_LEVEL    Parley's LOG_LEVEL (default info, the server's own default)
//   BENCH_ONLY         a subset of the servers: baseline,same-sql,parley,parley-redis,messaging
//   BENCH_PACING_RATE, BENCH_PACING_SENDS   the messaging pacing run (default 50/s, 500 sends);
//                      BENCH_NO_PACING skips it
//   BENCH_CPU_PROF     a directory: Parley runs with --cpu-prof and writes its profiles there
//   BENCH_NO_WRITE     set to leave docs/benchmarks.md alone
//   BENCH_PORT         the first of the ports the servers listen on (default 4100; it uses up to +12)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { resolve } from 'node:path';
import {
  ADMIN_URL,
  cleanupAll,
  cpuTallyCell,
  measure,
  SERVER_ONLY,
  seedDatabase,
  start,
  stop,
} from './lib.mjs';
import { messagingBench, messagingSection, writeMessagingSection } from './messaging.mjs';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const ONLY = process.env.BENCH_ONLY?.split(',');
const CPU_PROF = process.env.BENCH_CPU_PROF;
const KEYS = 2000;
const PHONES = 100_000;
const PRELOAD = 20_000;
const PHONE_PREFIX = '9198'; // +91 98xxxxxxxx: valid Indian mobile numbers
const SECRET = '1'.repeat(64);
const PORT = Number(process.env.BENCH_PORT ?? 4100);
const AIM = { ratio: 0.75, p99: 30 };

let serverVersion = '';
const load = { connections: CONNECTIONS, duration: DURATION, warmup: WARMUP };
const randomPhone = () => `${PHONE_PREFIX}${String(Math.floor(Math.random() * PHONES)).padStart(8, '0')}`;
const upsertBody = (phone) => JSON.stringify({ phone, tags: ['bench'], traits: { source: 'bench' } });
const wanted = (name) => !ONLY || ONLY.includes(name);
const messaging = [];

async function reachable(url) {
  if (!url) return false;
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379), timeout: 1000 });
    socket.once('connect', () => {
      socket.end();
      done(true);
    });
    socket.once('error', () => done(false));
    socket.once('timeout', () => {
      socket.destroy();
      done(false);
    });
  });
}

async function baselineRows(kind, seeded, variant) {
  const env = await seeded.clone(variant);
  const server = await start(
    ['bench/baseline-server.mjs'],
    { ...env, PORT: String(PORT + 1), WORKSPACE_ID: seeded.workspaceId, BASELINE_SQL: variant },
    /ready/,
  );
  try {
    const base = `http://127.0.0.1:${PORT + 1}`;
    const rows = [];
    const upsert = await measure(`${base}/upsert`, {
      ...load,
      pids: { server: server.pid },
      method: 'POST',
      makeRequest: (req) => ({
        ...req,
        headers: { 'content-type': 'application/json' },
        body: upsertBody(randomPhone()),
      }),
    });
    rows.push({ kind, endpoint: 'POST /contacts', server: variant, ...upsert });
    if (variant === 'bare') {
      const list = await measure(`${base}/list`, { ...load, makeRequest: (req) => req });
      rows.push({ kind, endpoint: 'GET /contacts', server: variant, ...list });
    }
    return rows;
  } finally {
    await stop(server);
  }
}

async function parleyRows(kind, seeded, variant, extraEnv) {
  const env = await seeded.clone(variant);
  const nodeOptions = CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${resolve(CPU_PROF)}`, `--cpu-prof-name=${kind}-${variant}.cpuprofile`]
    : [];
  const server = await start(
    ['dist/cli/main.js', 'serve'],
    { ...env, ...extraEnv, PORT: String(PORT), LOG_LEVEL },
    /Parley is running/,
    { nodeOptions },
  );
  try {
    const { keys } = seeded;
    let k = 0;
    const auth = () => `Bearer ${keys[k++ % keys.length]}`;
    const url = `http://127.0.0.1:${PORT}/api/v1/contacts`;
    const upsert = await measure(url, {
      ...load,
      pids: { server: server.pid },
      method: 'POST',
      makeRequest: (req) => ({
        ...req,
        headers: { 'content-type': 'application/json', authorization: auth() },
        body: upsertBody(`+${randomPhone()}`),
      }),
    });
    const list = await measure(`${url}?limit=50&offset=0`, {
      ...load,
      makeRequest: (req) => ({ ...req, headers: { authorization: auth() } }),
    });
    return [
      { kind, endpoint: 'POST /contacts', server: variant, ...upsert },
      { kind, endpoint: 'GET /contacts', server: variant, ...list },
    ];
  } finally {
    await stop(server);
  }
}

async function benchDatabase(kind) {
  process.stderr.write(`${kind}: seeding (${KEYS} keys, ${PRELOAD} contacts)...\n`);
  const seeded = await seedDatabase(kind, {
    adminUrl: ADMIN_URL,
    secret: SECRET,
    keys: KEYS,
    preload: PRELOAD,
    phonePrefix: PHONE_PREFIX,
  });
  serverVersion ||= seeded.serverVersion;
  const rows = [];
  const step = async (name, fn) => {
    if (!wanted(name)) return;
    process.stderr.write(`${kind}: ${name}...\n`);
    const r = await fn();
    for (const row of r)
      process.stderr.write(`  ${row.endpoint}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms\n`);
    rows.push(...r);
  };
  await step('baseline', () => baselineRows(kind, seeded, 'bare'));
  await step('parley', () => parleyRows(kind, seeded, 'parley', {}));
  await step('same-sql', () => baselineRows(kind, seeded, 'same-sql'));
  if (kind === 'postgres' && wanted('parley-redis')) {
    if (await reachable(REDIS_URL)) {
      await step('parley-redis', () => parleyRows(kind, seeded, 'parley-redis', { REDIS_URL }));
    } else if (REDIS_URL) {
      process.stderr.write(`postgres: Redis at ${REDIS_URL} unreachable; skipping the Redis row\n`);
    }
  }
  if (wanted('messaging')) {
    process.stderr.write(`${kind}: messaging...\n`);
    const opts = { port: PORT + 10, secret: SECRET, load, logLevel: LOG_LEVEL };
    messaging.push(await messagingBench(kind, seeded, opts));
    const { rows: m, pacing: p } = messaging.at(-1);
    for (const row of m) process.stderr.write(`  ${row.endpoint}: ${row.rps} req/s, p99 ${row.p99} ms\n`);
    if (p) process.stderr.write(`  pacing: ${p.configured}/s configured, ${p.rate}/s at the network\n`);
  }
  return rows;
}

const SERVER_NAMES = {
  bare: 'baseline: bare Fastify, the same SQL alone',
  'same-sql': 'bare Fastify, upsert + contact-limit trigger',
  parley: 'Parley',
  'parley-redis': 'Parley, rate limiter on Redis',
};

function table(rows) {
  const baselineOf = (r) =>
    rows.find((b) => b.kind === r.kind && b.endpoint === r.endpoint && b.server === 'bare');
  const lines = rows.map((r) => {
    const base = baselineOf(r);
    const ratio = base ? r.rps / base.rps : undefined;
    const aim = r.server.startsWith('parley')
      ? ratio !== undefined && ratio >= AIM.ratio && r.p99 < AIM.p99
        ? 'yes'
        : 'no'
      : '';
    return `| ${r.kind} | ${r.endpoint} | ${SERVER_NAMES[r.server]} | ${r.rps} | ${r.p50} | ${r.p99} | ${ratio === undefined ? '-' : ratio.toFixed(2)} | ${cpuTallyCell(r.cpu, SERVER_ONLY)} | ${r.failed} | ${aim} |`;
  });
  return [
    '| database | endpoint | server | req/s | p50 ms | p99 ms | ratio to baseline | CPU ms per request: server / PostgreSQL / load generator = all (machine busy) | non-2xx / errors | aim met |',
    '|---|---|---|--:|--:|--:|--:|--:|--:|---|',
    ...lines,
  ].join('\n');
}

function machine() {
  const cpus = os.cpus();
  return [
    `${os.availableParallelism()} cores (nproc; ${cpus[0]?.model.trim() ?? 'unknown CPU'})`,
    `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory`,
    `Node ${process.version}`,
    `${os.type()} ${os.release()}`,
    serverVersion ? `PostgreSQL ${serverVersion}` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

const START = '<!-- bench:start (written by npm run bench) -->';
const END = '<!-- bench:end -->';

/** Replaces the generated part of docs/benchmarks.md, keeping what is written around it by hand. */
function writeReport(file, result) {
  const generated = `${START}\n${report(result)}${END}\n`;
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const [from, to] = [old.indexOf(START), old.indexOf(END)];
  writeFileSync(
    file,
    from >= 0 && to > from
      ? old.slice(0, from) + generated + old.slice(to + END.length).replace(/^\n/, '')
      : `# Benchmarks\n\n${generated}`,
  );
}

function report(result) {
  return `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.
Machine: ${machine()}. Load generator, servers and PostgreSQL share these cores.

### What is measured

- **Parley**: \`node dist/cli/main.js serve\` as shipped (log level ${LOG_LEVEL}), on a fresh
  database per server: one workspace on the \`scale\` plan (far from its contact limit), ${KEYS.toLocaleString('en')}
  API keys and ${PRELOAD.toLocaleString('en')} contacts, vacuumed and analyzed.
  \`POST /contacts\` upserts a random phone from a pool of ${PHONES.toLocaleString('en')} (\`+91 98...\`, so most
  requests create a contact and some update one) with a tag and a trait; \`GET /contacts\` reads the
  first page of 50. Requests rotate over the ${KEYS.toLocaleString('en')} keys, so the rate limiter
  (300 per minute per key) counts every request and never refuses one.
- **Baseline**, measured in the same run on the same kind of database and a copy of the same data:
  a bare Fastify server (\`bench/baseline-server.mjs\`) running Parley's own upsert statement
  (\`INSERT ... ON CONFLICT\`, \`UPSERT_CONTACT_SQL\`) as one statement with the contact-limit
  trigger dropped, or Parley's own listing query; no authentication, rate limit, validation, phone
  normalisation, transaction, logging or metrics. PGlite in the server's process; PostgreSQL through
  \`pg\` with a pool of 20, like Parley.
- An extra row runs the baseline *with* the contact-limit trigger, to tell the cost of keeping the
  plan's contact limit in the database from the cost of Parley's HTTP layer; on PostgreSQL another
  row runs Parley with \`REDIS_URL\` set (shared rate-limit counters).
- Load: autocannon on loopback (127.0.0.1), ${CONNECTIONS} connections, ${WARMUP} s warm-up then
  ${DURATION} s measured, per row. req/s counts 2xx responses only.
- CPU per request (here and in the sections below): over the measured seconds, the CPU time of the
  server, of every PostgreSQL process (on PGlite the database runs inside the server) and of the
  load generator (autocannon, in the bench's own process), each divided by the 2xx answers, their
  sum, and how busy the machine's cores were (from \`/proc/stat\`). With the cores near 100% busy a
  row is bound by the machine's CPU, and its rate is about the cores' time over that sum; well
  under 100%, it is bound by waiting (locks, flushes, round trips).
- Aim (from the issue): Parley at least ${AIM.ratio * 100}% of the baseline's throughput, p99 under ${AIM.p99} ms.

### Results

${result}

With two cores shared by autocannon, the server and PostgreSQL, figures move from run to run by
about 10% on PostgreSQL and up to a third on PGlite (the embedded engine, its maintenance jobs and
the HTTP server share one thread). Compare rows of the same run, not figures across runs.

### Re-running

\`\`\`sh
npm run bench                          # both databases, about 4 minutes
BENCH_DATABASES=pglite npm run bench   # embedded only (no PostgreSQL needed)
BENCH_CONNECTIONS=50 BENCH_SECONDS=20 npm run bench
BENCH_CPU_PROF=/tmp/prof BENCH_ONLY=baseline,parley npm run bench   # CPU profiles of Parley
BENCH_ONLY=messaging BENCH_NO_PACING=1 BENCH_CPU_PROF=/tmp/prof npm run bench   # the send path alone, profiled
\`\`\`

PostgreSQL is reached at \`BENCH_ADMIN_URL\` (default \`postgres://postgres@127.0.0.1:5432/test\`); the
bench creates \`parley_bench_<timestamp>_*\` databases there and drops them at the end, also on
failure or Ctrl-C. Redis is used at \`BENCH_REDIS_URL\` (default \`redis://127.0.0.1:6379\`) when
reachable. See the top of \`bench/run.mjs\` for every option.
`;
}

async function main() {
  const databases = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');
  const rows = [];
  for (const kind of databases) rows.push(...(await benchDatabase(kind)));
  const result = table(rows);
  process.stdout.write(`\n${result}\n`);
  if (!process.env.BENCH_NO_WRITE && !ONLY) {
    writeReport('docs/benchmarks.md', result);
    process.stderr.write('wrote docs/benchmarks.md\n');
  }
  if (messaging.length > 0) {
    const section = messagingSection(messaging, load);
    process.stdout.write(`\n${section}\n`);
    if (!process.env.BENCH_NO_WRITE) writeMessagingSection('docs/benchmarks.md', section);
  }
}

let code = 0;
try {
  await main();
} catch (err) {
  console.error(err);
  code = 1;
} finally {
  await cleanupAll();
}
process.exit(code);
