// npm run bench (proof part): the embedded default's start-up time and memory, and the API's
// latency while the WhatsApp network is slow (simulator latency fault), beside the same endpoints
// on a calm network; plus the counts of the last crash test (test-artifacts/crash-report.json).
// Writes its section of docs/benchmarks.md. Environment: BENCH_SECONDS (per measured window,
// default 10), BENCH_WARMUP, BENCH_CONNECTIONS (default 8), BENCH_NO_WRITE.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import {
  cleanupAll,
  measure,
  onCleanup,
  seedDatabase,
  sleep,
  start,
  stop,
  writeBenchSection,
} from './lib.mjs';

const load = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 8),
  duration: Number(process.env.BENCH_SECONDS ?? 10),
  warmup: Number(process.env.BENCH_WARMUP ?? 2),
};
const PORT = 4300;
const BASE = `http://127.0.0.1:${PORT}`;
const DEADLINE_MS = 1000;
const LATENCY_MS = 3000;
const SENDERS = 8;

const rssMiB = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : null;
};

function cli(args, env) {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['dist/cli/main.js', ...args],
      { env: { ...process.env, DATABASE_URL: '', ...env } },
      (err, out) => (err ? reject(err) : resolve(JSON.parse(out))),
    ),
  );
}

/** Starts the embedded default on `dataDir`; returns the child and the time to "running" (ms). */
async function startEmbedded(dataDir, extraEnv = {}) {
  const t0 = performance.now();
  const child = await start(
    ['dist/cli/main.js', 'serve'],
    {
      DATA_DIR: dataDir,
      PORT: String(PORT),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      ...extraEnv,
    },
    /Parley is running/,
  );
  return { child, ms: Math.round(performance.now() - t0) };
}

async function startup() {
  const dir = mkdtempSync(join(os.tmpdir(), 'parley-proof-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const first = await startEmbedded(dir);
  await sleep(5_000);
  const rest = rssMiB(first.child.pid);
  await stop(first.child);
  const second = await startEmbedded(dir);
  await stop(second.child);
  return { firstMs: first.ms, secondMs: second.ms, restMiB: rest };
}

/** SENDERS loops of POST /messages until `until()`; latency and answers. */
async function sendLoad(key, stopAt) {
  const times = [];
  const statuses = {};
  const ids = [];
  let n = 0;
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (Date.now() < stopAt) {
        const phone = `98${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
        const t0 = performance.now();
        const res = await fetch(`${BASE}/api/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key[n++ % key.length]}` },
          body: JSON.stringify({
            to: phone,
            template: { name: 'welcome', language: 'en', body: ['A', 'B'] },
          }),
        });
        const body = await res.json();
        times.push(performance.now() - t0);
        const label = res.status === 201 ? body.status : String(res.status);
        statuses[label] = (statuses[label] ?? 0) + 1;
        if (res.status === 201) ids.push(body.id);
      }
    }),
  );
  times.sort((a, b) => a - b);
  const at = (q) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0);
  return { count: times.length, p50: at(0.5), p99: at(0.99), statuses, ids };
}

async function nonSending(keys) {
  let k = 0;
  const auth = () => `Bearer ${keys[k++ % keys.length]}`;
  const phone = () => `+9197${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const rows = {};
  rows['GET /contacts'] = await measure(`${BASE}/api/v1/contacts?limit=50&offset=0`, {
    ...load,
    makeRequest: (req) => ({ ...req, headers: { authorization: auth() } }),
  });
  for (const [label, path, body] of [
    ['POST /contacts', 'contacts', () => ({ phone: phone(), tags: ['proof'] })],
    ['POST /events', 'events', () => ({ phone: phone(), event: 'proof' })],
  ]) {
    rows[label] = await measure(`${BASE}/api/v1/${path}`, {
      ...load,
      method: 'POST',
      makeRequest: (req) => ({
        ...req,
        headers: { 'content-type': 'application/json', authorization: auth() },
        body: JSON.stringify(body()),
      }),
    });
  }
  return rows;
}

async function slowNetwork() {
  const seeded = await seedDatabase('pglite', { keys: 400, preload: 20_000, phonePrefix: '9196' });
  const env = await seeded.clone('proof');
  const { child } = await startEmbedded(env.DATA_DIR, { SEND_DEADLINE_MS: String(DEADLINE_MS) });
  try {
    const demo = await cli(['demo', '--json'], { DATA_DIR: env.DATA_DIR });
    const sendKeys = [demo.api_key];
    const simAuth = { authorization: `Bearer ${demo.simulator_token}` };
    for (let i = 0; i < 14; i++) {
      sendKeys.push((await cli(['apikey', 'create', '--workspace', demo.workspace_id, '--json'], env)).key);
    }
    const control = (faults) =>
      fetch(`${BASE}/_sim/control`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...simAuth },
        body: JSON.stringify(faults),
      });
    await control({ status_delays_ms: [-1, -1, -1] });
    const rssAtRest = rssMiB(child.pid);
    const windowMs = (load.duration + load.warmup) * 3 * 1000 + 2_000;

    const calmSends = await sendLoad(sendKeys, Date.now() + load.duration * 1000);
    const calm = await nonSending(seeded.keys.slice(0, 200));

    await control({ latencyMs: LATENCY_MS });
    let rssPeak = 0;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(child.pid) ?? 0)), 250);
    const slowSendsP = sendLoad(sendKeys, Date.now() + windowMs);
    const slow = await nonSending(seeded.keys.slice(200));
    const slowSends = await slowSendsP;
    clearInterval(sampler);
    await control({ latencyMs: 0 });

    // Every queued send is delivered once the network is back: poll the ones still without a wamid.
    let pending = slowSends.ids;
    let n = 0;
    const t0 = performance.now();
    while (pending.length > 0 && performance.now() - t0 < 120_000) {
      await sleep(1000);
      const still = [];
      for (const id of pending) {
        const res = await fetch(`${BASE}/api/v1/messages/${id}`, {
          headers: { authorization: `Bearer ${sendKeys[n++ % sendKeys.length]}` },
        });
        if (res.status !== 200) throw new Error(`GET /messages/${id} answered ${res.status}`);
        if (!(await res.json()).wamid) still.push(id);
      }
      pending = still;
    }
    const undelivered = pending.length;
    const atSim = (await (await fetch(`${BASE}/_sim/messages`, { headers: simAuth })).json()).messages.length;
    return {
      calm,
      slow,
      calmSends,
      slowSends,
      rssAtRest,
      rssPeak,
      drainedSeconds: Math.round((performance.now() - t0) / 1000),
      undelivered,
      sentTotal: calmSends.ids.length + slowSends.ids.length,
      atSim,
    };
  } finally {
    await stop(child);
  }
}

function crashReport() {
  const path = 'test-artifacts/crash-report.json';
  if (!existsSync(path)) return null;
  return { ...JSON.parse(readFileSync(path, 'utf8')), at: statSync(path).mtime.toISOString().slice(0, 16) };
}

const loadBefore = os.loadavg()[0];
try {
  process.stderr.write('proof: start-up and memory of the embedded default...\n');
  const boot = await startup();
  process.stderr.write(
    `  first start ${boot.firstMs} ms, second ${boot.secondMs} ms, RSS ${boot.restMiB} MiB\n`,
  );
  process.stderr.write('proof: latency with a calm and with a slow network (embedded)...\n');
  const s = await slowNetwork();
  const crash = crashReport();
  const cpu = os.cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  const fmt = (o) =>
    Object.entries(o)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  const lines = [
    '## Start-up, memory, a slow network, crashes',
    '',
    `Written by \`npm run bench\` (bench/proof.mjs) on ${new Date().toISOString().slice(0, 10)}; machine: ${os.cpus().length} cores (${cpu}), ` +
      `${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}. The load generator, the server and its embedded ` +
      `database share the cores; the machine's load average was ${loadBefore.toFixed(1)} when this part started and ` +
      `${os.loadavg()[0].toFixed(1)} when it ended${Math.max(loadBefore, os.loadavg()[0]) > os.cpus().length ? ' (above the core count: other work was running, and the figures are slower than on a quiet machine)' : ''}.`,
    '',
    '**Embedded default** (`parley serve` on PGlite with the built-in simulator, `LOG_LEVEL=warn`):',
    '',
    '| measure | value |',
    '|---|---|',
    `| start-up, fresh data directory (a copy of the migrated database the build wrote, dist/pglite-seed) | ${boot.firstMs} ms |`,
    `| start-up, existing data directory | ${boot.secondMs} ms |`,
    `| RSS at rest, fresh database (5 s after start) | ${boot.restMiB} MiB |`,
    `| RSS at rest, 20,000 contacts | ${s.rssAtRest} MiB |`,
    `| RSS peak under load (${SENDERS} slow senders + ${load.connections} connections on other endpoints) | ${s.rssPeak} MiB |`,
    '',
    `**A slow network.** The same embedded server (\`SEND_DEADLINE_MS=${DEADLINE_MS}\`), 20,000 contacts, ` +
      `${load.connections} connections per endpoint for ${load.duration} s; "slow" adds ${LATENCY_MS} ms to every ` +
      `call to the simulator while ${SENDERS} clients keep sending (POST /messages) the whole time.`,
    '',
    '| endpoint | calm req/s | calm p50 ms | calm p99 ms | slow req/s | slow p50 ms | slow p99 ms | non-2xx (calm / slow) |',
    '|---|---|---|---|---|---|---|---|',
    ...Object.keys(s.calm).map((k) => {
      const a = s.calm[k];
      const b = s.slow[k];
      return `| ${k} | ${a.rps} | ${a.p50} | ${a.p99} | ${b.rps} | ${b.p50} | ${b.p99} | ${a.failed} / ${b.failed} |`;
    }),
    `| POST /messages (${SENDERS} clients) | ${Math.round(s.calmSends.count / load.duration)} | ${s.calmSends.p50} | ${s.calmSends.p99} | — | ${s.slowSends.p50} | ${s.slowSends.p99} | answers: ${fmt(s.calmSends.statuses)} / ${fmt(s.slowSends.statuses)} |`,
    '',
    `With the network slow, every send answered 201 without waiting for the network (p99 ${s.slowSends.p99} ms ` +
      `against a ${LATENCY_MS} ms network; the deadline counts from the attempt, after the message is stored), ` +
      `and once the latency was removed ${s.undelivered === 0 ? 'all' : `all but ${s.undelivered}`} ` +
      `of them had their wamid within ${s.drainedSeconds} s; the simulator received ${s.atSim} messages for ` +
      `${s.sentTotal} accepted sends.`,
    '',
  ];
  if (crash) {
    lines.push(
      `**Crash test** (test/crash.postgres.test.ts, last run ${crash.at} UTC): ${crash.seconds} s of sends, events ` +
        `and intake webhooks on two API instances and two workers (PostgreSQL, Redis) while ${crash.kills.length} ` +
        `SIGKILLs hit them (${crash.kills.join(', ')}), each restarted. ${crash.requests} requests: accepted ${fmt(crash.accepted)}; ` +
        `unanswered (connection refused or cut by a kill) ${fmt(crash.unanswered)}, of which ${crash.unanswered_with_effect} ` +
        `had an effect anyway (at most once)${crash.stuck_queued_unanswered === undefined ? '' : `, and ${crash.stuck_queued_unanswered} left a stored message still queued when the test ended (cut off between storing it and queueing its job: the minutely sweep sends it; see docs/operations.md)`}. ` +
        `${crash.resent_unconfirmed === undefined ? '' : `Sends whose attempt died unanswered and that no status webhook confirmed, so were sent again after the confirmation window: ${crash.resent_unconfirmed}. `}` +
        `Accepted requests with a missing or doubled effect: ${crash.wrong.length}; ` +
        `messages at the simulator: ${crash.messages_at_simulator} (one per accepted send and per event's run); ` +
        `runs failed: ${crash.runs_failed}. Full form: \`CRASH_SECONDS=600 npx vitest run --project postgres-alone test/crash.postgres.test.ts\` ` +
        'with `DATABASE_URL` and `REDIS_URL` set.',
      '',
    );
  }
  lines.push(
    '**Also proven by the tests** (behaviour, not timings): `test/fuzz-*.test.ts` send generated bodies, headers, ' +
      'queries and paths (fast-check; 200 inputs per property in CI, `FUZZ_RUNS` for more) to every public endpoint: ' +
      'never a 5xx, the envelope on every refusal, no row stored by a refusal. `test/slow-network.test.ts`: sends ' +
      'answer `queued` during latency and 5xx storms and each reaches the simulator once afterwards. ' +
      '`test/cluster.postgres.test.ts` (`npm run cluster`, docs/operations.md): exactly 300 of 360 requests with one ' +
      'key accepted across two API instances, 30 runs shared by two workers with every step once, a killed ' +
      "worker's steps finished by the other once their heartbeat lapsed (10 s).",
    '',
  );
  writeBenchSection('proof', lines.join('\n'));
  process.stderr.write(`${lines.join('\n')}\n`);
} finally {
  await cleanupAll();
}
