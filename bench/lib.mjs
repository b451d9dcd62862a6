// Helpers for npm run bench: child processes that are always cleaned up, autocannon runs, and the
// seeded databases every server under test starts from.
import { spawn } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { migrate } from '../dist/db/migrate.js';
import { openDatabase } from '../dist/db/open.js';
import { createApiKey } from '../dist/modules/api-keys/create-api-key.js';
import { createWorkspace } from '../dist/modules/workspaces/create-workspace.js';

/** The PostgreSQL server the benches make their databases on. */
export const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const children = new Set();
const cleanups = [];

/** Registers work to undo at the end (databases, directories), run even when the bench fails. */
export function onCleanup(fn) {
  cleanups.push(fn);
}

/** Stops every child and undoes every registered step, newest first. Safe to call twice. */
export async function cleanupAll() {
  await Promise.all([...children].map((child) => stop(child)));
  for (let fn = cleanups.pop(); fn; fn = cleanups.pop()) {
    try {
      await fn();
    } catch (err) {
      console.error('bench cleanup failed:', err.message);
    }
  }
}

// A child must never outlive the bench, even when it is killed: SIGKILL what is left at exit.
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping servers and dropping bench databases...`);
    cleanupAll().finally(() => process.exit(130));
  });
}

/** Starts `node args...` and resolves once its output matches readyPattern. */
export function start(args, env, readyPattern, { nodeOptions = [] } = {}) {
  // A server meant for the embedded database must not pick up the shell's DATABASE_URL, nor one meant
  // for the in-memory rate limiter the shell's REDIS_URL (its counts outlive each server, and the
  // automation bench's second server was answered 429 by the first one's).
  const childEnv = { ...process.env, ...env };
  if (!('DATABASE_URL' in env)) delete childEnv.DATABASE_URL;
  if (!('REDIS_URL' in env)) delete childEnv.REDIS_URL;
  const child = spawn(process.execPath, [...nodeOptions, ...args], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  // BENCH_LOG_DIR: every server's whole output also goes to a file there, for looking into a run.
  if (process.env.BENCH_LOG_DIR) {
    const file = createWriteStream(`${process.env.BENCH_LOG_DIR}/${basename(args[0])}-${child.pid}.log`);
    child.stdout.pipe(file);
    child.stderr.pipe(file);
  }
  return new Promise((resolve, reject) => {
    // Keep only the tail of the output: enough to report a failed start without holding a whole
    // run's log in memory.
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
    child.on('exit', (code, signal) => {
      if (!ready) reject(new Error(`${args.join(' ')} exited (${code ?? signal}): ${out.slice(-2000)}`));
    });
  });
}

/** SIGTERM, then SIGKILL if the child has not exited within 15 s. */
export async function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  let timer;
  const late = new Promise((r) => {
    timer = setTimeout(r, 15_000);
  }).then(() => child.kill('SIGKILL'));
  await Promise.race([exited, late]);
  clearTimeout(timer);
  await exited;
}

function load(url, { method = 'GET', makeRequest, connections, duration }) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections, duration, requests: [{ method, setupRequest: (req) => makeRequest(req) }] },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** CPU time (user + system, ms) the process has used, from /proc (Linux; clock ticks of 10 ms). */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time of every PostgreSQL process on the machine (ms): the server and its backends. */
function postgresCpuMs() {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuMs(pid);
    } catch {
      // exited while listed
    }
  }
  return total;
}

/** The machine's busy and total clock ticks since boot, over all cores (/proc/stat). */
function machineTicks() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - fields[3] - fields[4], total };
}

/**
 * Where a measured run's CPU went: for each named process (`pids`), the PostgreSQL processes and
 * this process (the load generator), the CPU time per 2xx answer (ms); and how busy the machine's
 * cores were (share of all cores' time), which says whether the run was bound by CPU or by waiting.
 */
export function cpuTally(pids) {
  const read = () => ({
    ...Object.fromEntries(Object.entries(pids).map(([label, pid]) => [label, cpuMs(pid)])),
    database: postgresCpuMs(),
    'load generator': (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    machine: machineTicks(),
  });
  const before = read();
  return (answers) => {
    const after = read();
    const perAnswer = {};
    for (const label of Object.keys(after)) {
      if (label !== 'machine') perAnswer[label] = (after[label] - before[label]) / Math.max(1, answers);
    }
    const busy = (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total);
    return { perAnswer, machineBusy: busy };
  };
}

/**
 * A warm-up run, then the measured one: 2xx per second, latency p50 and p99 (ms), failures; with
 * `pids` ({label: pid}), where the machine's CPU went per 2xx answer (cpuTally), which other work on
 * the machine changes much less than it changes throughput.
 */
export async function measure(url, { warmup, pids, ...options }) {
  await load(url, { ...options, duration: warmup });
  const tally = pids ? cpuTally(pids) : null;
  const r = await load(url, options);
  return {
    rps: Math.round(r['2xx'] / r.duration),
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: r.non2xx + r.errors + r.timeouts,
    cpu: tally?.(r['2xx']),
  };
}

/**
 * "0.41 / 0.30 / 0.52 / 0.12 = 1.35 (96%)": a cpuTally's figures for `labels`, in that order, their
 * sum, and how busy the cores were.
 */
export function cpuTallyCell(cpu, labels = ['server', 'simulator', 'database', 'load generator']) {
  if (!cpu) return '-';
  const parts = labels.map((label) => cpu.perAnswer[label] ?? 0);
  const all = parts.reduce((a, b) => a + b, 0);
  return `${parts.map((v) => v.toFixed(2)).join(' / ')} = ${all.toFixed(2)} (${Math.round(cpu.machineBusy * 100)}%)`;
}

/** The labels of a row with no simulator: the server, PostgreSQL and the load generator. */
export const SERVER_ONLY = ['server', 'database', 'load generator'];

/**
 * One seeded database per kind, cloned for every server under test so each starts from the same
 * state: the schema, a workspace on a plan far from its contact limit, `keys` API keys, `preload`
 * contacts (phonePrefix + 8 digits), vacuumed and analyzed. Returns the workspace, the keys and clone(name) => server env.
 */
export async function seedDatabase(kind, { adminUrl, secret, keys: keyCount, preload, phonePrefix }) {
  const seed = async (db) => {
    await migrate(db);
    const ws = await createWorkspace(db, { name: 'Bench', defaultCountryCode: '91', plan: 'scale' });
    const keys = [];
    for (let i = 0; i < keyCount; i++) keys.push((await createApiKey(db, ws.id, `bench ${i}`)).key);
    await db.query(
      `INSERT INTO contacts (workspace_id, id, phone, tags, traits)
       SELECT $1, 'ct_pre' || n, $3 || lpad(n::text, 8, '0'), '{bench}', '{}' FROM generate_series(0, $2 - 1) AS n`,
      [ws.id, preload, phonePrefix],
    );
    await db.exec('VACUUM ANALYZE');
    await db.close();
    return { workspaceId: ws.id, keys };
  };

  if (kind === 'pglite') {
    const root = mkdtempSync(join(os.tmpdir(), 'parley-bench-'));
    onCleanup(() => rmSync(root, { recursive: true, force: true }));
    const seedDir = join(root, 'seed');
    const seeded = await seed(await openDatabase({ dataDir: seedDir }));
    return {
      ...seeded,
      clone: async (name) => {
        const dir = join(root, name);
        cpSync(seedDir, dir, { recursive: true });
        return { DATA_DIR: dir };
      },
    };
  }

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  onCleanup(() => admin.end());
  const { rows } = await admin.query('SHOW server_version');
  const prefix = `parley_bench_${Date.now()}`;
  const urlOf = (name) => {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const create = async (rawName, template) => {
    const name = rawName.replaceAll('-', '_');
    onCleanup(() => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  };
  await create(`${prefix}_seed`);
  const seeded = await seed(await openDatabase({ databaseUrl: urlOf(`${prefix}_seed`) }));
  return {
    ...seeded,
    serverVersion: rows[0].server_version,
    clone: async (name) => {
      await create(`${prefix}_${name}`, `${prefix}_seed`);
      return { DATABASE_URL: urlOf(`${prefix}_${name}`.replaceAll('-', '_')), PARLEY_SECRET_KEY: secret };
    },
  };
}

/**
 * Puts `section` into docs/benchmarks.md between markers named after `name`, replacing the last run's
 * (unless BENCH_NO_WRITE is set); each bench script owns its own section.
 */
export function writeBenchSection(name, section) {
  if (process.env.BENCH_NO_WRITE) return;
  const start = `<!-- bench-${name}:start (written by npm run bench) -->`;
  const end = `<!-- bench-${name}:end -->`;
  const path = 'docs/benchmarks.md';
  const doc = readFileSync(path, 'utf8');
  const block = `${start}\n${section}\n${end}`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  writeFileSync(
    path,
    i >= 0 && j > i ? doc.slice(0, i) + block + doc.slice(j + end.length) : `${doc.trimEnd()}\n\n${block}\n`,
  );
}

export { sleep };
