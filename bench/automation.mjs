// npm run bench (second part): the automation engine on PostgreSQL.
//   1. POST /events with 1 and with 50 matching published flows, beside POST /contacts measured in
//      the same run on the same kind of server (the ratio is events/contacts).
//   2. End-to-end run throughput: N events stored with the workers stopped, then 1 or 2
//      `serve --role worker` processes started; runs (and steps) completed per second until all are done.
// Writes its section of docs/benchmarks.md. Environment: BENCH_ADMIN_URL, BENCH_SECONDS,
// BENCH_WARMUP, BENCH_CONNECTIONS as for bench/run.mjs; BENCH_RUNS (default 10,000); BENCH_NO_WRITE.
import pg from 'pg';
import { openDatabase } from '../dist/db/open.js';
import { SecretBox } from '../dist/lib/secret-box.js';
import { createAutomation } from '../dist/modules/automation/save-automation.js';
import {
  ADMIN_URL,
  cleanupAll,
  cpuTally,
  cpuTallyCell,
  measure,
  SERVER_ONLY,
  seedDatabase,
  sleep,
  start,
  stop,
  writeBenchSection,
} from './lib.mjs';

const load = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 20),
  duration: Number(process.env.BENCH_SECONDS ?? 10),
  warmup: Number(process.env.BENCH_WARMUP ?? 3),
};
// Long enough (about 15 s at 2,000 steps a second) for a second worker's share to show.
const RUNS = Number(process.env.BENCH_RUNS ?? 10_000);
const SECRET = '1'.repeat(64);
const PORT = 4200;
const secrets = new SecretBox(Buffer.from(SECRET, 'hex'));
const randomPhone = () => `+9198${String(Math.floor(Math.random() * 100_000)).padStart(8, '0')}`;

async function withFlows(env, workspaceId, count, steps) {
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL });
  for (let i = 0; i < count; i++) {
    await createAutomation(
      { db, secrets },
      workspaceId,
      { name: `Bench flow ${i}`, trigger: { type: 'event', event: 'bench' }, steps },
      { publish: true },
    );
  }
  await db.close();
}

async function requestRows(seeded) {
  const rows = [];
  for (const flows of [0, 1, 50]) {
    const env = await seeded.clone(`events_${flows}`);
    await withFlows(env, seeded.workspaceId, flows, [{ id: 'tag', type: 'add_tag', tag: 'bench' }]);
    const server = await start(
      ['dist/cli/main.js', 'serve'],
      { ...env, PORT: String(PORT), LOG_LEVEL: 'warn' },
      /Parley is running/,
    );
    try {
      let k = 0;
      const auth = () => `Bearer ${seeded.keys[k++ % seeded.keys.length]}`;
      const path = flows === 0 ? 'contacts' : 'events';
      const body =
        flows === 0 ? (phone) => ({ phone, tags: ['bench'] }) : (phone) => ({ phone, event: 'bench' });
      const r = await measure(`http://127.0.0.1:${PORT}/api/v1/${path}`, {
        ...load,
        pids: { server: server.pid },
        method: 'POST',
        makeRequest: (req) => ({
          ...req,
          headers: { 'content-type': 'application/json', authorization: auth() },
          body: JSON.stringify(body(randomPhone())),
        }),
      });
      const label =
        flows === 0 ? 'POST /contacts' : `POST /events, ${flows} matching flow${flows > 1 ? 's' : ''}`;
      process.stderr.write(`  ${label}: ${r.rps} req/s, p99 ${r.p99} ms\n`);
      rows.push({ label, ...r });
    } finally {
      await stop(server);
    }
  }
  return rows;
}

async function throughputRow(seeded, workers) {
  const env = await seeded.clone(`runs_${workers}`);
  await withFlows(env, seeded.workspaceId, 1, [
    { id: 'a', type: 'add_tag', tag: 'one' },
    { id: 'b', type: 'set_trait', key: 'step', value: 'two' },
    { id: 'c', type: 'add_tag', tag: 'three' },
  ]);
  const api = await start(
    ['dist/cli/main.js', 'serve', '--role', 'api'],
    { ...env, PORT: String(PORT), LOG_LEVEL: 'warn' },
    /Parley is running/,
  );
  let next = 0;
  const post = async () => {
    while (next < RUNS) {
      const i = next++;
      const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/events`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${seeded.keys[i % seeded.keys.length]}`,
        },
        body: JSON.stringify({ phone: `+9197${String(i).padStart(8, '0')}`, event: 'bench' }),
      });
      if (res.status !== 202) throw new Error(`POST /events answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: 20 }, post));
  await stop(api);

  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  db.on('error', () => {});
  await db.connect();
  const procs = await Promise.all(
    Array.from({ length: workers }, () =>
      start(
        ['dist/cli/main.js', 'serve', '--role', 'worker'],
        { ...env, LOG_LEVEL: 'warn' },
        /worker is running/,
      ),
    ),
  );
  // Timed from when the workers are up (they start together); start-up is not what this measures.
  const started = Date.now();
  const tally = cpuTally(Object.fromEntries(procs.map((p, i) => [`worker ${i + 1}`, p.pid])));
  let done = 0;
  while (done < RUNS) {
    await sleep(200);
    done = (await db.query("SELECT count(*)::int AS n FROM runs WHERE status = 'completed'")).rows[0].n;
    if (Date.now() - started > 600_000)
      throw new Error(`only ${done} of ${RUNS} runs completed in 10 minutes`);
  }
  const seconds = (Date.now() - started) / 1000;
  const { perAnswer, machineBusy } = tally(3 * RUNS);
  // The workers together, beside PostgreSQL.
  const all = procs.reduce((a, _, i) => a + perAnswer[`worker ${i + 1}`], 0);
  const cpu = { perAnswer: { ...perAnswer, workers: all }, machineBusy };
  await db.end();
  for (const p of procs) await stop(p);
  const row = { workers, runs: RUNS, seconds, perSecond: Math.round(RUNS / seconds), cpu };
  process.stderr.write(
    `  ${workers} worker(s): ${RUNS} runs of 3 steps in ${seconds.toFixed(1)} s = ${row.perSecond} runs/s, ${3 * row.perSecond} steps/s\n`,
  );
  return row;
}

try {
  process.stderr.write('automation (postgres): seeding...\n');
  const seeded = await seedDatabase('postgres', {
    adminUrl: ADMIN_URL,
    secret: SECRET,
    keys: 200,
    preload: 20_000,
    phonePrefix: '9198',
  });
  const requests = await requestRows(seeded);
  const runs = [await throughputRow(seeded, 1), await throughputRow(seeded, 2)];
  const contacts = requests[0];
  const section = [
    '## Automation (PostgreSQL)',
    '',
    `POST /events beside POST /contacts on the same server build, ${load.connections} connections, ${load.duration} s after ${load.warmup} s of warm-up; the workers run in the same process (\`serve\`), so the runs the events start compete for the same two cores.`,
    '',
    '| request | req/s | p50 ms | p99 ms | ratio to POST /contacts | CPU ms per request: server / PostgreSQL / load generator = all (machine busy) | non-2xx / errors |',
    '|---|--:|--:|--:|--:|--:|--:|',
    ...requests.map(
      (r) =>
        `| ${r.label} | ${r.rps} | ${r.p50} | ${r.p99} | ${(r.rps / contacts.rps).toFixed(2)} | ${cpuTallyCell(r.cpu, SERVER_ONLY)} | ${r.failed} |`,
    ),
    '',
    `Runs end to end: ${RUNS} events stored first, then worker processes started (timed from when they are up: the outbox drained into runs, then every step); each run is three database-only steps (tag, trait, tag), which run in one job and one transaction.`,
    '',
    '| worker processes | runs | seconds | runs/s | steps/s | CPU ms per step: workers / PostgreSQL = all (machine busy) |',
    '|--:|--:|--:|--:|--:|--:|',
    ...runs.map(
      (r) =>
        `| ${r.workers} | ${r.runs} | ${r.seconds.toFixed(1)} | ${r.perSecond} | ${3 * r.perSecond} | ${cpuTallyCell(r.cpu, ['workers', 'database'])} |`,
    ),
  ].join('\n');
  console.log(section);
  writeBenchSection('automation', section);
} finally {
  await cleanupAll();
}
