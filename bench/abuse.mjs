// npm run bench (abuse): another workspace's time while one workspace pushes the server. On
// PostgreSQL, one `serve` process (API and worker, TRUST_PROXY=true) and two workspaces: A with
// BENCH_ABUSE_CONTACTS contacts (default 200,000) and a published webhook sequence, B with a few
// hundred. B's requests (GET /api/v1/contacts?limit=50 and POST /api/v1/contacts, each at a steady
// rate) are measured quiet, then while A runs 6 exports at once (half read slowly, each retried
// after its 429's Retry-After until it has run) and 50 audience counts at once, then while strangers
// post wrong secrets to A's workflow webhook from many X-Forwarded-For addresses and A's real sender
// posts with the right one. Reports B's p50/p99 against the quiet run, the server's resident memory
// (before, peak, after, per export running), A's answers. Writes its section of docs/benchmarks.md.
// Environment: BENCH_ADMIN_URL as for bench/run.mjs; BENCH_ABUSE_CONTACTS; BENCH_ABUSE_SECONDS
// (each measured phase of B's load, default 20); BENCH_ABUSE_NODE_OPTIONS (the server's node
// options, e.g. --expose-gc); BENCH_NO_WRITE.

import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import autocannon from 'autocannon';
import { openDatabase } from '../dist/db/open.js';
import { SecretBox } from '../dist/lib/secret-box.js';
import { createApiKey } from '../dist/modules/api-keys/create-api-key.js';
import { createAutomation } from '../dist/modules/automation/save-automation.js';
import { HEAVY_WORK } from '../dist/modules/rate-limit/heavy-work.js';
import { createWorkspace } from '../dist/modules/workspaces/create-workspace.js';
import { ADMIN_URL, cleanupAll, seedDatabase, sleep, start, stop, writeBenchSection } from './lib.mjs';

const CONTACTS = Number(process.env.BENCH_ABUSE_CONTACTS ?? 200_000);
const QUIET_CONTACTS = 300;
const PHASE_SECONDS = Number(process.env.BENCH_ABUSE_SECONDS ?? 20);
const WARMUP_SECONDS = 5;
/** B's steady load: requests per second of each of its two requests. */
const B_RATE = 20;
const B_KEYS = 20;
const A_KEYS = 10;
const EXPORTS = 6;
/** A slow reader takes the CSV at this many bytes a second (a phone on a poor network). */
const SLOW_READ = 1024 * 1024;
/** The exports' phase ends when every export has run, or after this long (the rest are cut off). */
const EXPORT_PHASE_LIMIT_MS = 240_000;
const AUDIENCE_COUNTS = 50;
/** Wrong-secret posts a second to A's webhook, from this many addresses in turn. */
const GUESS_RATE = 200;
const GUESS_ADDRESSES = 300;
/** A's real sender: one post every this many ms, from one address. */
const SENDER_EVERY_MS = 500;
const SECRET = '1'.repeat(64);
const PORT = 4350;
const secrets = new SecretBox(Buffer.from(SECRET, 'hex'));

const base = `http://127.0.0.1:${PORT}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const pct = (values, p) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const tally = (statuses) => {
  const counts = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return Object.entries(counts)
    .sort(([a], [b]) => String(a).localeCompare(String(b)))
    .map(([s, n]) => `${n} × ${s}`)
    .join(', ');
};

/** The server's resident set and its peak so far (VmHWM), MiB. */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))[1]);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** Samples the server's RSS every 100 ms (with `running()`, the exports reading then) until stopped. */
function sampleMemory(pid, running = () => 0) {
  const samples = [];
  const take = () => samples.push({ rss: memoryOf(pid).rss, running: running() });
  take();
  const timer = setInterval(take, 100);
  return () => {
    clearInterval(timer);
    take();
    return {
      peak: Math.max(...samples.map((s) => s.rss)),
      mostRunning: Math.max(...samples.map((s) => s.running)),
    };
  };
}

/** One request on the keep-alive agent: status, answer text and milliseconds. */
function call(method, path, { headers = {}, body } = {}) {
  const began = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode, text, ms: performance.now() - began }));
      },
    );
    req.on('error', (err) =>
      resolve({ status: err.code ?? 'error', text: '', ms: performance.now() - began }),
    );
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

/**
 * B's steady load (GET the first page of 50, POST a new phone) at B_RATE a second each, until
 * `seconds` pass or stop() is called; resolves each request's p50/p99 (ms), 2xx a second and non-2xx.
 */
function quietLoad(keys, seconds) {
  let k = 0;
  const auth = () => `Bearer ${keys[k++ % keys.length]}`;
  const runOne = (method, path, body) => {
    let instance;
    const done = new Promise((resolve, reject) => {
      instance = autocannon(
        {
          url: `${base}${path}`,
          connections: 4,
          overallRate: B_RATE,
          duration: seconds,
          requests: [
            {
              method,
              setupRequest: (req) => ({
                ...req,
                headers: { authorization: auth(), ...(body ? { 'content-type': 'application/json' } : {}) },
                body: body?.(),
              }),
            },
          ],
        },
        (err, r) =>
          err
            ? reject(err)
            : resolve({
                p50: r.latency.p50,
                p99: r.latency.p99,
                max: r.latency.max,
                rps: r['2xx'] / r.duration,
                failed: r.non2xx + r.errors + r.timeouts,
              }),
      );
    });
    return { instance, done };
  };
  const get = runOne('GET', '/api/v1/contacts?limit=50');
  const post = runOne('POST', '/api/v1/contacts', () =>
    JSON.stringify({
      phone: `+9197${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      tags: ['b'],
    }),
  );
  return {
    stop: () => {
      get.instance.stop();
      post.instance.stop();
    },
    done: Promise.all([get.done, post.done]).then(([g, p]) => ({ get: g, post: p })),
  };
}

/** The seeded database's clone with A's contacts (a trait each), B's workspace and contacts, A's webhook sequence. */
async function prepare() {
  process.stderr.write(`abuse: seeding (${CONTACTS} contacts in A, ${QUIET_CONTACTS} in B)...\n`);
  const seeded = await seedDatabase('postgres', {
    adminUrl: ADMIN_URL,
    secret: SECRET,
    keys: A_KEYS,
    preload: 0,
    phonePrefix: '9198',
  });
  const env = await seeded.clone('abuse');
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL });
  try {
    // In slices: one statement for them all outlives the statement timeout on a busy machine.
    const fill = async (workspaceId, count, idPrefix, phonePrefix) => {
      for (let from = 0; from < count; from += 5_000)
        await db.query(
          `INSERT INTO contacts (workspace_id, id, phone, name, email, tags, traits)
           SELECT $1, $4 || n, $5 || lpad(n::text, 8, '0'), 'Customer ' || n, 'c' || n || '@example.com',
                  ARRAY['bench', 'batch' || (n % 10)], jsonb_build_object('city', 'City ' || (n % 100))
           FROM generate_series($2::int, $3::int - 1) AS n`,
          [workspaceId, from, Math.min(count, from + 5_000), idPrefix, phonePrefix],
        );
    };
    await fill(seeded.workspaceId, CONTACTS, 'ct_a', '9198');
    const b = await createWorkspace(db, { name: 'Quiet', defaultCountryCode: '91', plan: 'scale' });
    const bKeys = [];
    for (let i = 0; i < B_KEYS; i++) bKeys.push((await createApiKey(db, b.id, `quiet ${i}`)).key);
    await fill(b.id, QUIET_CONTACTS, 'ct_b', '9196');
    const sequence = await createAutomation(
      { db, secrets },
      seeded.workspaceId,
      {
        name: 'Leads from the site',
        trigger: { type: 'webhook' },
        steps: [{ id: 'contacted', type: 'update_lead_status', status: 'contacted' }],
      },
      { publish: true },
    );
    await db.exec('VACUUM ANALYZE');
    return { env, serverVersion: seeded.serverVersion, aKeys: seeded.keys, bKeys, sequence };
  } finally {
    await db.close();
  }
}

let exportsRunning = 0;

/**
 * One GET /api/v1/contacts/export, read at `bytesPerSecond` (or as fast as it comes): its status,
 * Retry-After, bytes and lines read, and how long its body took. `signal` cuts it off.
 */
function exportOnce(key, bytesPerSecond, signal) {
  const began = performance.now();
  return new Promise((resolve) => {
    const req = http.get(
      `${base}/api/v1/contacts/export`,
      { headers: { authorization: `Bearer ${key}` }, agent: false, signal },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode, retryAfter: Number(res.headers['retry-after'] ?? 5) }),
          );
          return;
        }
        exportsRunning++;
        let bytes = 0;
        let lines = 0;
        let finished = false;
        const finish = (status) => {
          if (finished) return;
          finished = true;
          exportsRunning--;
          resolve({ status, bytes, lines, ms: performance.now() - began });
        };
        res.on('data', (chunk) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
          // The server writes a chunk per line: pause once ahead of the rate by 20 ms or more.
          const ahead = (bytes / bytesPerSecond) * 1000 - (performance.now() - began);
          if (bytesPerSecond && ahead >= 20) {
            res.pause();
            setTimeout(() => res.resume(), ahead);
          }
        });
        res.on('end', () => finish(200));
        res.on('error', () => finish('cut off'));
        res.on('close', () => finish(res.complete ? 200 : 'cut off'));
      },
    );
    req.on('error', () => resolve({ status: 'cut off', bytes: 0, lines: 0, ms: performance.now() - began }));
  });
}

/** An exporter that retries after each 429's Retry-After until its export has run (or the phase's limit). */
async function exporter(key, bytesPerSecond, signal) {
  const began = performance.now();
  let refused = 0;
  for (;;) {
    const r = await exportOnce(key, bytesPerSecond, signal);
    if (r.status === 429 && !signal.aborted) {
      refused++;
      await sleep(r.retryAfter * 1000, undefined, { signal }).catch(() => {});
      if (!signal.aborted) continue;
    }
    return { ...r, refused, slow: Boolean(bytesPerSecond), wallMs: performance.now() - began };
  }
}

/** Sends `send(i)` at `rate` a second for `seconds` (not waiting for answers); resolves every answer. */
async function atRate(rate, seconds, send) {
  const answers = [];
  const began = performance.now();
  let i = 0;
  while (performance.now() - began < seconds * 1000) {
    const due = Math.floor(((performance.now() - began) / 1000) * rate);
    for (; i < due; i++) answers.push(send(i));
    await sleep(10);
  }
  return Promise.all(answers);
}

async function run() {
  const { env, serverVersion, aKeys, bKeys, sequence } = await prepare();
  const nodeOptions = process.env.BENCH_ABUSE_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
  const server = await start(
    ['dist/cli/main.js', 'serve'],
    { ...env, PORT: String(PORT), LOG_LEVEL: 'warn', TRUST_PROXY: 'true' },
    /Parley is running/,
    { nodeOptions },
  );
  const phases = [];
  try {
    process.stderr.write('abuse: warm-up, then B quiet...\n');
    await quietLoad(bKeys, WARMUP_SECONDS).done;
    const quietMemory = sampleMemory(server.pid);
    const quiet = await quietLoad(bKeys, PHASE_SECONDS).done;
    const quietMem = quietMemory();
    phases.push({ label: 'quiet (baseline)', ...quiet, peakRss: quietMem.peak });
    const before = memoryOf(server.pid).rss;
    process.stderr.write(`  ${JSON.stringify(quiet)}; RSS ${before.toFixed(0)} MiB\n`);

    process.stderr.write(`abuse: ${EXPORTS} exports and ${AUDIENCE_COUNTS} audience counts from A...\n`);
    const cut = new AbortController();
    const limit = setTimeout(() => cut.abort(), EXPORT_PHASE_LIMIT_MS);
    const exportMemory = sampleMemory(server.pid, () => exportsRunning);
    const b = quietLoad(bKeys, EXPORT_PHASE_LIMIT_MS / 1000 + 60);
    const began = performance.now();
    const exportsDone = Promise.all(
      Array.from({ length: EXPORTS }, (_, i) =>
        exporter(aKeys[i % aKeys.length], i % 2 === 0 ? SLOW_READ : 0, cut.signal),
      ),
    );
    const counts = await Promise.all(
      Array.from({ length: AUDIENCE_COUNTS }, (_, i) =>
        call('POST', '/api/v1/broadcasts/audience', {
          headers: { authorization: `Bearer ${aKeys[(i + EXPORTS) % aKeys.length]}` },
          body: { audience: { traits: [{ key: 'city', equals: `City ${i % 100}` }], tags_any: ['bench'] } },
        }),
      ),
    );
    const exports = await exportsDone;
    clearTimeout(limit);
    const abuseSeconds = (performance.now() - began) / 1000;
    b.stop();
    const during = await b.done;
    const exportMem = exportMemory();
    phases.push({ label: 'A: exports and audience counts', ...during, peakRss: exportMem.peak });
    process.stderr.write(
      `  ${JSON.stringify(during)}; ${abuseSeconds.toFixed(1)} s; peak RSS ${exportMem.peak.toFixed(0)} MiB, ${exportMem.mostRunning} exports at once\n`,
    );
    for (const e of exports) process.stderr.write(`  export: ${JSON.stringify(e)}\n`);
    process.stderr.write(`  audience: ${tally(counts.map((c) => c.status))}\n`);
    await sleep(10_000);
    const after = memoryOf(server.pid).rss;

    process.stderr.write('abuse: webhook guesses and the real sender...\n');
    const webhookMemory = sampleMemory(server.pid);
    const bHook = quietLoad(bKeys, PHASE_SECONDS);
    const path = `/api/automation/webhooks/${sequence.id}`;
    const [guesses, sends] = await Promise.all([
      atRate(GUESS_RATE, PHASE_SECONDS, (i) =>
        call('POST', `${path}/wrong-${i}`, {
          headers: { 'x-forwarded-for': `10.9.${(i % GUESS_ADDRESSES) >> 8}.${(i % GUESS_ADDRESSES) & 255}` },
          body: { name: 'Guess', phone: '+919812345678' },
        }),
      ),
      atRate(1000 / SENDER_EVERY_MS, PHASE_SECONDS, (i) =>
        call('POST', `${path}/${sequence.secret}`, {
          headers: { 'x-forwarded-for': '192.0.2.10' },
          body: { name: `Lead ${i}`, phone: `+9195${String(i).padStart(8, '0')}`, campaign: 'site' },
        }),
      ),
    ]);
    const hook = await bHook.done;
    const hookMem = webhookMemory();
    phases.push({ label: 'A: webhook guesses', ...hook, peakRss: hookMem.peak });
    process.stderr.write(
      `  ${JSON.stringify(hook)}; guesses ${tally(guesses.map((g) => g.status))}; sender ${tally(sends.map((s) => s.status))}\n`,
    );
    return {
      serverVersion,
      phases,
      memory: {
        before,
        quietPeak: quietMem.peak,
        peak: exportMem.peak,
        after,
        mostRunning: exportMem.mostRunning,
      },
      abuseSeconds,
      exports,
      counts,
      guesses,
      sends,
    };
  } finally {
    await stop(server);
  }
}

function section(r, loadBefore) {
  const [quiet] = r.phases;
  const ratio = (v, q) => (q ? `${(v / q).toFixed(1)}×` : '-');
  const ran = r.exports.filter((e) => e.status === 200);
  const refusals = r.exports.reduce((n, e) => n + e.refused, 0);
  // The server writes at most HEAVY_WORK.perWorkspace at once; a slow reader can still be reading the
  // end of one the server has finished (the sockets' buffers hold megabytes).
  const serving = Math.max(1, Math.min(r.memory.mostRunning, HEAVY_WORK.perWorkspace));
  const perExport = (r.memory.peak - r.memory.quietPeak) / serving;
  const exportSeconds = ran.map((e) => (e.ms / 1000).toFixed(1));
  const countMs = r.counts.map((c) => c.ms);
  const sendMs = r.sends.map((s) => s.ms);
  const guessMs = r.guesses.map((g) => g.ms);
  return [
    "## Abuse: another workspace's time under exports, audience counts and webhook guesses",
    '',
    `One \`serve\` process (API and worker, log level warn, \`TRUST_PROXY=true\`) on PostgreSQL ${r.serverVersion.split(' ')[0]}, two workspaces on the scale plan: A with ${CONTACTS.toLocaleString('en')} contacts (a name, an e-mail, two tags, a \`city\` trait each) and a published webhook sequence, B with ${QUIET_CONTACTS}. B's load is the same in every phase: \`GET /api/v1/contacts?limit=50\` and \`POST /api/v1/contacts\` (a new phone each), ${B_RATE} a second each from 4 connections each (autocannon at a fixed rate; a request held up delays the next on its connection, so a stall shows in the p99 rather than as queued requests), over ${B_KEYS} keys. *Quiet* is ${PHASE_SECONDS} s of it after ${WARMUP_SECONDS} s of warm-up, alone. Then A, with B's load running throughout: ${EXPORTS} \`GET /api/v1/contacts/export\` at once, three read at ${SLOW_READ / 1024 / 1024} MiB/s and three as fast as they come, each retried after its 429's Retry-After until it has run; and at their start ${AUDIENCE_COUNTS} \`POST /api/v1/broadcasts/audience\` at once (a trait and a tag condition: a count over A's contacts). Then ${PHASE_SECONDS} s of wrong-secret posts to A's workflow webhook, ${GUESS_RATE} a second from ${GUESS_ADDRESSES} addresses in turn (X-Forwarded-For), while A's real sender posts with the right secret every ${SENDER_EVERY_MS} ms from its own address. Memory is the server's resident set (/proc VmRSS, sampled every 100 ms): before A starts, its peak while the exports run, 10 s after they end; an export's cost is that peak less the quiet phase's peak, over the exports the server was writing at once (at most ${HEAVY_WORK.perWorkspace}, the workspace's bound; a slow client may still be reading the end of one the server has finished, from the sockets' buffers). Written by \`npm run bench\` (bench/abuse.mjs) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores shared by the server, PostgreSQL and the load; load average ${loadBefore} when it started and ${os.loadavg()[0].toFixed(1)} when it ended.`,
    '',
    "| phase | B's GET p50 / p99 ms | × quiet | B's POST p50 / p99 ms | × quiet | B's non-2xx | server peak RSS MiB |",
    '|---|--:|--:|--:|--:|--:|--:|',
    ...r.phases.map(
      (p) =>
        `| ${p.label} | ${p.get.p50} / ${p.get.p99} | ${ratio(p.get.p50, quiet.get.p50)} / ${ratio(p.get.p99, quiet.get.p99)} | ${p.post.p50} / ${p.post.p99} | ${ratio(p.post.p50, quiet.post.p50)} / ${ratio(p.post.p99, quiet.post.p99)} | ${p.get.failed + p.post.failed} | ${p.peakRss.toFixed(0)} |`,
    ),
    '',
    '| what A did | answers | figures |',
    '|---|---|---|',
    `| ${EXPORTS} exports (each retried after 429) | ${ran.length} ran to the end (${ran.map((e) => e.lines - 1).join(', ')} rows), ${refusals} answers 429, at most ${r.memory.mostRunning} being read at once by the clients | all done in ${r.abuseSeconds.toFixed(1)} s; each export's body ${exportSeconds.join(', ')} s |`,
    `| ${AUDIENCE_COUNTS} audience counts at once | ${tally(r.counts.map((c) => c.status))} | p50 ${pct(countMs, 50).toFixed(0)} ms, max ${Math.max(...countMs).toFixed(0)} ms |`,
    `| memory (RSS MiB) | before ${r.memory.before.toFixed(0)}, peak ${r.memory.peak.toFixed(0)}, 10 s after ${r.memory.after.toFixed(0)} | ${perExport.toFixed(0)} MiB per export the server was writing (${serving} at once) |`,
    `| ${r.guesses.length} wrong-secret webhook posts | ${tally(r.guesses.map((g) => g.status))} | p50 ${pct(guessMs, 50).toFixed(0)} ms, p99 ${pct(guessMs, 99).toFixed(0)} ms |`,
    `| ${r.sends.length} posts by the real sender, right secret | ${tally(r.sends.map((s) => s.status))} | p50 ${pct(sendMs, 50).toFixed(0)} ms, p99 ${pct(sendMs, 99).toFixed(0)} ms, max ${Math.max(...sendMs).toFixed(0)} ms |`,
  ].join('\n');
}

try {
  const loadBefore = os.loadavg()[0].toFixed(1);
  const result = await run();
  const text = section(result, loadBefore);
  console.log(text);
  writeBenchSection('abuse', text);
} finally {
  agent.destroy();
  await cleanupAll();
}
