// npm run bench (broadcast): a broadcast to BENCH_BROADCAST_RECIPIENTS contacts (default 100,000) on
// PostgreSQL, from a number configured at 1,000 messages per second to the simulator in its own
// process (`parley simulator`, status webhooks off), delivered by a `serve --role worker` process that
// is killed (SIGKILL) three times on the way and started again each time, with `serve --role api`
// answering GET /api/v1/broadcasts/{id} throughout. Measures what the simulator received: the rate
// over the run and between the kills, the busiest 1-second window, recipients sent twice and missing;
// the wall time, the worker's RSS and CPU, the GET's latency. Writes its section of docs/benchmarks.md.
// Environment: BENCH_ADMIN_URL as for bench/run.mjs; BENCH_BROADCAST_RECIPIENTS; BENCH_CPU_PROF (a
// directory: the workers run with --cpu-prof); BENCH_NO_WRITE.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../dist/db/open.js';
import { SecretBox } from '../dist/lib/secret-box.js';
import { connectNumber } from '../dist/modules/messaging/connected-numbers.js';
import { saveTemplate } from '../dist/modules/templates/save-template.js';
import {
  ADMIN_URL,
  cleanupAll,
  cpuMs,
  cpuTally,
  cpuTallyCell,
  seedDatabase,
  sleep,
  start,
  stop,
  writeBenchSection,
} from './lib.mjs';

const RECIPIENTS = Number(process.env.BENCH_BROADCAST_RECIPIENTS ?? 100_000);
const RATE = 1000;
const KILLS = 3;
const SECRET = '1'.repeat(64);
const PORT = 4330;
const PHONE_PREFIX = '9198';
const SIM_TOKEN = randomBytes(32).toString('hex');
const simAuth = { authorization: `Bearer ${SIM_TOKEN}` };
const TEMPLATE = {
  name: 'offer',
  language: 'en_US',
  category: 'MARKETING',
  body: 'Hello {{1}}!',
  status: 'APPROVED',
};
const NUMBER = { phoneNumberId: '900010', messagesPerSecond: RATE };

const parleyUrl = `http://127.0.0.1:${PORT}`;
const simUrl = `http://127.0.0.1:${PORT + 2}/_sim`;

async function call(url, { method = 'GET', body, headers = {} } = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

const WARM_UP_SENDS = 5_000;
const WATCH = ['--require', fileURLToPath(new URL('./watch-clocks.cjs', import.meta.url))];

/**
 * Sends to the simulator straight from here, on a number of its own, before the broadcast: a cold
 * simulator answers its first thousands of sends slowly, falls behind, then catches up, stamping a
 * second's worth and more together (1,059 in one second at 1,000 configured), which said nothing of
 * Parley's pacing. Meta's servers are warm. No status webhooks while it runs.
 */
async function warmUp(number) {
  const id = '900099';
  await call(`${simUrl}/numbers`, {
    method: 'POST',
    headers: simAuth,
    body: {
      phoneNumberId: id,
      businessAccountId: `waba${id}`,
      displayPhone: '+1 555 0199',
      accessToken: `token-${id}`,
      appSecret: `secret-${id}`,
      webhookUrl: `${parleyUrl}/api/webhooks/whatsapp/${number.id}`,
      templates: [TEMPLATE],
      messagingLimitTier: 'TIER_UNLIMITED',
    },
  });
  await call(`${simUrl}/control`, {
    method: 'POST',
    headers: simAuth,
    body: { status_delays_ms: [-1, -1, -1] },
  });
  let next = 0;
  const sender = async () => {
    while (next < WARM_UP_SENDS) {
      const n = next++;
      await call(`${simUrl}/v21.0/${id}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer token-${id}` },
        body: {
          messaging_product: 'whatsapp',
          to: `1555${String(n).padStart(7, '0')}`,
          type: 'template',
          template: {
            name: TEMPLATE.name,
            language: { code: TEMPLATE.language },
            components: [{ type: 'body', parameters: [{ type: 'text', text: 'Asha' }] }],
          },
        },
      });
    }
  };
  await Promise.all(Array.from({ length: 32 }, sender));
}

/** The number at RATE per second, pointed at the simulator, the template and the contacts, stored in the clone. */
async function connect(env) {
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL });
  const { rows } = await db.query('SELECT id FROM workspaces');
  const secrets = {
    accessToken: `token-${NUMBER.phoneNumberId}`,
    appSecret: `secret-${NUMBER.phoneNumberId}`,
  };
  const { id } = await connectNumber({ db, secrets: new SecretBox(Buffer.from(SECRET, 'hex')) }, rows[0].id, {
    ...NUMBER,
    ...secrets,
    businessAccountId: `waba${NUMBER.phoneNumberId}`,
    displayPhone: '+1 555 0100',
    verifyToken: 'bench',
    graphBaseUrl: simUrl,
  });
  await saveTemplate(db, rows[0].id, TEMPLATE);
  // In slices: one statement for them all outlives the statement timeout on a busy machine.
  for (let from = 0; from < RECIPIENTS; from += 5_000)
    await db.query(
      `INSERT INTO contacts (workspace_id, id, phone, tags, traits)
       SELECT $1, 'ct_pre' || n, $4 || lpad(n::text, 8, '0'), '{bench}', '{}' FROM generate_series($2::int, $3::int - 1) AS n`,
      [rows[0].id, from, Math.min(RECIPIENTS, from + 5_000), PHONE_PREFIX],
    );
  await db.exec('VACUUM ANALYZE');
  await db.close();
  return { id, ...secrets };
}

const stat = (pid) => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { rssMb: Number(status.match(/VmRSS:\s+(\d+)/)[1]) / 1024, cpuMs: cpuMs(pid) };
  } catch {
    return null;
  }
};

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/** The most sends in any 1-second window of `times` (sorted), and where each window above `limit` starts. */
function busiestWindow(times, limit = RATE) {
  let most = 0;
  const overStarts = new Set();
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= 1000) j++;
    most = Math.max(most, i - j + 1);
    if (i - j + 1 > limit) overStarts.add(times[j]);
  }
  return { most, overStarts: [...overStarts] };
}

/** The receive times (sorted) and what they say: rates, the busiest second, the stretches between stops. */
function analyse(times) {
  const rate = (from, to) => (to > from ? ((to - from) / (times[to] - times[from])) * 1000 : Number.NaN);
  // Stretches of steady sending: split where the network heard nothing for over a second (a kill and
  // the wait for its lease), each trimmed by 2 s at both ends (the worker starting, the last sends).
  const stretches = [];
  let first = 0;
  for (let i = 1; i <= times.length; i++) {
    if (i < times.length && times[i] - times[i - 1] <= 1000) continue;
    const from = times.findIndex((t, k) => k >= first && t >= times[first] + 2000);
    let to = i - 1;
    while (to > first && times[to] > times[i - 1] - 2000) to--;
    if (from >= 0 && to > from) stretches.push({ sends: to - from, ms: times[to] - times[from] });
    if (i < times.length) stretches.push({ gapMs: times[i] - times[i - 1] });
    first = i;
  }
  const steady = stretches.filter((s) => s.sends);
  const steadySends = steady.reduce((a, s) => a + s.sends, 0);
  const steadyMs = steady.reduce((a, s) => a + s.ms, 0);
  return {
    overall: rate(0, times.length - 1),
    steady: (steadySends / steadyMs) * 1000,
    stretches: steady.map((s) => Math.round((s.sends / s.ms) * 1000)),
    gaps: stretches.filter((s) => s.gapMs).map((s) => s.gapMs / 1000),
  };
}

/**
 * What bench/watch-clocks.cjs recorded: when the workers wrote each send to the socket (Parley's own
 * clock) and when the simulator was paused (a garbage collection, a stalled event loop).
 */
function readWatch(dir) {
  const writes = [];
  const pauses = [];
  for (const file of readdirSync(dir)) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean);
    if (file.startsWith('writes-')) writes.push(...lines.map(Number));
    else pauses.push(...lines.map((l) => l.split(' ').map(Number)));
  }
  return { writes: writes.sort((a, b) => a - b), pauses };
}

/**
 * The busiest second twice over: as the simulator stamped the sends and as Parley wrote them. A
 * window above the rate on the simulator's clock that starts as one of its pauses ends holds sends
 * that arrived during the pause, stamped late and together: the simulator's lag, not a burst.
 */
function clocks(times, watch) {
  const network = busiestWindow(times);
  const written = busiestWindow(watch.writes);
  const pauseEndsAt = (t) => watch.pauses.some(([from, to]) => from - 5 <= t && t <= to + 5);
  return {
    busiest: network.most,
    overWindows: network.overStarts.length,
    overAfterPause: network.overStarts.filter(pauseEndsAt).length,
    busiestWritten: written.most,
    longestPauseMs: Math.max(0, ...watch.pauses.map(([from, to]) => to - from)),
  };
}

async function run() {
  process.stderr.write(`broadcast: seeding ${RECIPIENTS} contacts...\n`);
  const seeded = await seedDatabase('postgres', {
    adminUrl: ADMIN_URL,
    secret: SECRET,
    keys: 1,
    preload: 0,
    phonePrefix: PHONE_PREFIX,
  });
  const env = await seeded.clone('broadcast');
  const number = await connect(env);
  const serverEnv = { ...env, PARLEY_SECRET_KEY: SECRET, LOG_LEVEL: 'warn' };
  const watchDir = mkdtempSync(join(os.tmpdir(), 'parley-bench-clocks-'));
  const watch = (role) => ({ BENCH_WATCH_DIR: watchDir, BENCH_WATCH_ROLE: role });
  const sim = await start(
    ['dist/cli/main.js', 'simulator', '--port', String(PORT + 2)],
    { SIMULATOR_TOKEN: SIM_TOKEN, APP_URL: parleyUrl, ...watch('pauses') },
    /simulator at/,
    { nodeOptions: WATCH },
  );
  // The simulator stands for Meta's servers, which do not share Parley's cores: ahead of the others
  // for the CPU, it stamps each send as it arrives instead of when a busy core frees up (tens of ms
  // later at times, which put more than the rate in one second of its clock). Needs root; said if not.
  let simPriority = true;
  try {
    os.setPriority(sim.pid, -10);
  } catch {
    simPriority = false;
    process.stderr.write('  (the simulator could not be given priority: its receive times may run late)\n');
  }
  const api = await start(
    ['dist/cli/main.js', 'serve', '--role', 'api'],
    { ...serverEnv, PORT: String(PORT) },
    /Parley is running/,
  );
  let life = 0;
  const startWorker = () =>
    start(
      ['dist/cli/main.js', 'serve', '--role', 'worker'],
      { ...serverEnv, ...watch('writes') },
      /Parley (worker )?is running/,
      {
        nodeOptions: [
          ...WATCH,
          ...(process.env.BENCH_CPU_PROF
            ? [
                '--cpu-prof',
                `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`,
                `--cpu-prof-name=broadcast-worker-${life++}.cpuprofile`,
              ]
            : []),
        ],
      },
    );
  let worker = await startWorker();
  try {
    await call(`${simUrl}/numbers`, {
      method: 'POST',
      headers: simAuth,
      body: {
        phoneNumberId: NUMBER.phoneNumberId,
        businessAccountId: `waba${NUMBER.phoneNumberId}`,
        displayPhone: '+1 555 0100',
        accessToken: number.accessToken,
        appSecret: number.appSecret,
        webhookUrl: `${parleyUrl}/api/webhooks/whatsapp/${number.id}`,
        templates: [TEMPLATE],
        messagingLimitTier: 'TIER_UNLIMITED',
      },
    });
    await warmUp(number);
    // The `sent` status on, as Meta sends it: it is what confirms a send whose worker died before the
    // answer came back; without it such a send is sent again after the confirmation window.
    await call(`${simUrl}/control`, {
      method: 'POST',
      headers: simAuth,
      body: { status_delays_ms: [50, -1, -1] },
    });
    const auth = { authorization: `Bearer ${seeded.keys[0]}` };
    const loadStart = os.loadavg()[0];
    const began = performance.now();
    // The workers are killed on the way: their CPU is read from /proc at each poll (workerCpuMs).
    const tally = cpuTally({ simulator: sim.pid, api: api.pid });
    const { broadcast } = await call(`${parleyUrl}/api/v1/broadcasts`, {
      method: 'POST',
      headers: auth,
      body: {
        name: 'Bench',
        template: { name: TEMPLATE.name, language: TEMPLATE.language },
        audience: { tags_all: ['bench'] },
        values: { body: [{ from: 'text', text: 'Asha' }] },
      },
    });
    const latencies = [];
    const dbLatencies = [];
    const probe = new pg.Client({ connectionString: env.DATABASE_URL });
    probe.on('error', () => {});
    await probe.connect();
    const kills = [];
    let rssPeak = 0;
    let workerCpuMs = 0;
    let lastCpu = 0;
    let state;
    for (;;) {
      const t0 = performance.now();
      state = (await call(`${parleyUrl}/api/v1/broadcasts/${broadcast.id}`, { headers: auth })).broadcast;
      latencies.push(performance.now() - t0);
      const t1 = performance.now();
      await probe.query('SELECT 1');
      dbLatencies.push(performance.now() - t1);
      const s = stat(worker.pid);
      if (s) {
        rssPeak = Math.max(rssPeak, s.rssMb);
        lastCpu = s.cpuMs;
      }
      if (state.status === 'completed' || state.status === 'paused' || state.status === 'cancelled') break;
      if (kills.length < KILLS && state.counts.sent >= (RECIPIENTS * (kills.length + 1)) / (KILLS + 1)) {
        workerCpuMs += lastCpu;
        lastCpu = 0;
        worker.kill('SIGKILL');
        kills.push({ at: Date.now(), sent: state.counts.sent });
        process.stderr.write(`  SIGKILL the worker at ${state.counts.sent} sent\n`);
        await new Promise((r) =>
          worker.exitCode !== null || worker.signalCode !== null ? r() : worker.once('exit', r),
        );
        worker = await startWorker();
      }
      await sleep(500);
    }
    workerCpuMs += lastCpu;
    await probe.end();
    const wallS = (performance.now() - began) / 1000;
    const loadEnd = os.loadavg()[0];
    const cpu = tally(RECIPIENTS);
    await sleep(2000); // anything sent twice would show up by now
    const { messages } = await call(`${simUrl}/messages?phone_number_id=${NUMBER.phoneNumberId}`, {
      headers: simAuth,
    });
    const perPhone = new Map();
    for (const m of messages) perPhone.set(m.to, (perPhone.get(m.to) ?? 0) + 1);
    let missing = 0;
    for (let n = 0; n < RECIPIENTS; n++)
      if (!perPhone.has(`${PHONE_PREFIX}${String(n).padStart(8, '0')}`)) missing++;
    const times = messages.map((m) => m.receivedAt).sort((a, b) => a - b);
    if (process.env.BENCH_TIMES_FILE) writeFileSync(process.env.BENCH_TIMES_FILE, JSON.stringify(times));
    const figures = { ...analyse(times), ...clocks(times, readWatch(watchDir)) };
    latencies.sort((a, b) => a - b);
    dbLatencies.sort((a, b) => a - b);
    const result = {
      status: state.status,
      counts: state.counts,
      received: messages.length,
      simPriority,
      twice: [...perPhone.values()].filter((c) => c > 1).length,
      missing,
      wallS,
      ...figures,
      rssPeak,
      workerCpuS: workerCpuMs / 1000,
      cpu: { ...cpu, perAnswer: { ...cpu.perAnswer, worker: workerCpuMs / RECIPIENTS } },
      polls: latencies.length,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1),
      dbP50: percentile(dbLatencies, 50),
      dbP99: percentile(dbLatencies, 99),
      loadStart,
      loadEnd,
      kills: kills.map((k) => k.sent),
      serverVersion: seeded.serverVersion,
    };
    process.stderr.write(`  ${JSON.stringify(result)}\n`);
    return result;
  } finally {
    await stop(worker);
    await stop(api);
    await stop(sim);
    rmSync(watchDir, { recursive: true, force: true });
  }
}

function section(r) {
  const n = (x, d = 0) => x.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d });
  const off = (x) => `${((x / RATE - 1) * 100).toFixed(1)}%`;
  return [
    '## Broadcast',
    '',
    `A broadcast of an approved template (one body value) to ${n(RECIPIENTS)} contacts (a tag segment) on PostgreSQL ${r.serverVersion.split(' ')[0]}, from a number configured at ${n(RATE)} messages per second (messaging limit tier TIER_UNLIMITED) to the simulator in its own process (\`parley simulator\`, only the \`sent\` status webhook on, 50 ms after each send, processed by the API and worker: it is what confirms a send whose worker was killed before its answer came back; warmed up by ${n(WARM_UP_SENDS)} sends of its own first and given CPU priority${r.simPriority ? '' : ' (refused on this run)'}, as Meta's servers do not share Parley's cores). \`serve --role worker\` delivers it; it is killed with SIGKILL ${KILLS} times, at a quarter, half and three quarters of the recipients sent as the broadcast counts them, and started again at once each time; \`serve --role api\` answers \`GET /api/v1/broadcasts/{id}\`, polled every half second throughout, each poll followed by a \`SELECT 1\` on the same database (its round trip shows how busy the database and the machine were). Rates are the simulator's receive times: over the whole run (kills and the waits after them included) and *steady*, over the stretches between the kills, each less its first and last 2 s. *Silences* are the stretches of over a second in which the network heard nothing: after each kill (the dead worker's lease of 6 s, then the job handed on by the drain a second later) and wherever sending stalled. The busiest second is counted twice: on the simulator's clock, and on Parley's, from the moments the worker wrote each send to its socket (undici's \`sendHeaders\` diagnostics channel, bench/watch-clocks.cjs; the last tenth of a second before each kill is lost). The simulator is a Node process too: a garbage collection or a stalled event loop holds its stamps, and what arrived meanwhile is stamped at once when it ends, which can put more than the rate into a second of its clock; the bench records those pauses and names the windows above the rate that start as one ends. The aim holds when Parley wrote no more than the rate in any second; the windows above it at the network are counted, with how many of them start as a simulator pause ended. CPU per message is each process's CPU time from the broadcast's start to its completion over the recipients: the workers (all their lives), the API, the simulator, every PostgreSQL process and the bench itself (its polls), with how busy the machine's cores were meanwhile. Written by \`npm run bench\` (bench/broadcast.mjs) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores; load average ${r.loadStart.toFixed(1)} when the broadcast started and ${r.loadEnd.toFixed(1)} when it completed (above the core count, other work shared the machine).`,
    '',
    '| status | at the network | sent twice | missing | whole run /s | steady /s (off by) | per stretch /s | busiest 1 s window: at the network / as Parley wrote (windows above the rate at the network, of them starting as a simulator pause ended; its longest pause) | silences over 1 s: count, total s, longest s | wall s | worker peak RSS MB | worker CPU s | CPU ms per message: worker / API / simulator / PostgreSQL / bench = all (machine busy) | GET p50 / p99 / max ms | `SELECT 1` p50 / p99 ms |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    `| ${r.status} (${n(r.counts.sent)} sent, ${r.counts.failed} failed, ${r.counts.skipped} skipped) | ${n(r.received)} | ${r.twice} | ${r.missing} | ${n(r.overall, 1)} | ${n(r.steady, 1)} (${off(r.steady)}) | ${r.stretches.join(', ')} | ${r.busiest} / ${r.busiestWritten} (${r.overWindows}, ${r.overAfterPause}; ${r.longestPauseMs} ms) | ${r.gaps.length}, ${r.gaps.reduce((a, g) => a + g, 0).toFixed(1)}, ${[
      ...r.gaps,
    ]
      .sort((a, b) => b - a)
      .slice(0, KILLS)
      .map((g) => g.toFixed(1))
      .join(
        ' / ',
      )} | ${n(r.wallS, 1)} | ${Math.round(r.rssPeak)} | ${n(r.workerCpuS, 1)} | ${cpuTallyCell(r.cpu, ['worker', 'api', 'simulator', 'database', 'load generator'])} | ${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} / ${r.max.toFixed(1)} | ${r.dbP50.toFixed(1)} / ${r.dbP99.toFixed(1)} |`,
  ].join('\n');
}

try {
  const r = await run();
  const text = section(r);
  console.log(text);
  writeBenchSection('broadcast', text);
  if (r.twice || r.missing || r.busiestWritten > RATE) process.exitCode = 1;
} finally {
  await cleanupAll();
}
