// npm run bench, messaging part (called by bench/run.mjs for each database):
//   1. POST /api/v1/messages (a template with one body value) against the WhatsApp Cloud API
//      simulator, beside POST /contacts measured on the same server in the same run: req/s, p99,
//      and the ratio of the two.
//   2. Pacing: a number configured at BENCH_PACING_RATE messages per second (default 50) gets
//      BENCH_PACING_SENDS sends at once (default 500); the rate the simulator sees is measured.
// The simulator runs as its own process (`parley simulator`), as the network would be.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { openDatabase } from '../dist/db/open.js';
import { SecretBox } from '../dist/lib/secret-box.js';
import { createApiKey } from '../dist/modules/api-keys/create-api-key.js';
import { connectNumber } from '../dist/modules/messaging/connected-numbers.js';
import { saveTemplate } from '../dist/modules/templates/save-template.js';
import { createWorkspace } from '../dist/modules/workspaces/create-workspace.js';
import { cpuTallyCell, measure, sleep, start, stop } from './lib.mjs';

const PACING_RATE = Number(process.env.BENCH_PACING_RATE ?? 50);
const PACING_SENDS = Number(process.env.BENCH_PACING_SENDS ?? 500);
const TEMPLATE = {
  name: 'hello',
  language: 'en_US',
  category: 'UTILITY',
  body: 'Hello {{1}}!',
  status: 'APPROVED',
};
const NUMBERS = {
  throughput: { phoneNumberId: '900001', messagesPerSecond: 1000 },
  pacing: { phoneNumberId: '900002', messagesPerSecond: PACING_RATE },
};

/** Connects the bench workspace (and a second one for pacing) to the simulator at simUrl. */
async function connectNumbers(env, secret, workspaceId, simUrl) {
  const db = await openDatabase({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
  // This process sends nothing: it has no cache of numbers for connectNumber to drop.
  const ctx = { db, secrets: new SecretBox(Buffer.from(secret, 'hex')), sending: { forget: () => {} } };
  const pacing = await createWorkspace(db, { name: 'Pacing', defaultCountryCode: '91', plan: 'scale' });
  const pacingKeys = [];
  for (let i = 0; i < 20; i++) pacingKeys.push((await createApiKey(db, pacing.id, `pacing ${i}`)).key);
  const numbers = [];
  for (const [ws, n] of [
    [workspaceId, NUMBERS.throughput],
    [pacing.id, NUMBERS.pacing],
  ]) {
    const secrets = { accessToken: `token-${n.phoneNumberId}`, appSecret: `secret-${n.phoneNumberId}` };
    const { id } = await connectNumber(ctx, ws, {
      ...n,
      ...secrets,
      businessAccountId: `waba${n.phoneNumberId}`,
      displayPhone: '+1 555 0100',
      verifyToken: 'bench',
      graphBaseUrl: simUrl,
    });
    await saveTemplate(db, ws, TEMPLATE);
    numbers.push({ id, ...n, ...secrets, businessAccountId: `waba${n.phoneNumberId}` });
  }
  await db.close();
  return { numbers, pacingKeys };
}

async function post(url, body, headers = {}) {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  } catch (err) {
    return { status: 0, body: { error: { code: err.cause?.code ?? err.message } } };
  }
}

/** "3 × a, 1 × b" for a list of strings. */
function summarise(values) {
  const counts = new Map();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([v, n]) => `${n} × ${v}`).join(', ');
}

/** The simulator's operator token, for its control routes. */
const SIM_TOKEN = randomBytes(32).toString('hex');
const simAuth = { authorization: `Bearer ${SIM_TOKEN}` };

/** Tells the simulator about the numbers (it keeps its state in memory); statuses off unless `statuses`. */
async function registerNumbers(simUrl, parleyUrl, numbers, statuses = false) {
  for (const n of numbers) {
    const registered = await post(
      `${simUrl}/numbers`,
      {
        phoneNumberId: n.phoneNumberId,
        businessAccountId: n.businessAccountId,
        displayPhone: '+1 555 0100',
        accessToken: n.accessToken,
        appSecret: n.appSecret,
        webhookUrl: `${parleyUrl}/api/webhooks/whatsapp/${n.id}`,
        templates: [TEMPLATE],
      },
      simAuth,
    );
    if (registered.status !== 200)
      throw new Error(`simulator refused the number: ${JSON.stringify(registered.body)}`);
  }
  if (!statuses) await post(`${simUrl}/control`, { status_delays_ms: [-1, -1, -1] }, simAuth);
}

/** POST /contacts, then POST /messages, measured on one server: the rows and their ratio. */
async function sendRows(parleyUrl, seeded, load, pids) {
  let k = 0;
  const auth = () => `Bearer ${seeded.keys[k++ % seeded.keys.length]}`;
  const phone = () => `+9198${String(Math.floor(Math.random() * 100_000)).padStart(8, '0')}`;
  const request = (body) => (req) => ({
    ...req,
    headers: { 'content-type': 'application/json', authorization: auth() },
    body: JSON.stringify(body()),
  });
  const contacts = await measure(`${parleyUrl}/api/v1/contacts`, {
    ...load,
    pids,
    method: 'POST',
    makeRequest: request(() => ({ phone: phone(), tags: ['bench'], traits: { source: 'bench' } })),
  });
  const messages = await measure(`${parleyUrl}/api/v1/messages`, {
    ...load,
    pids,
    method: 'POST',
    makeRequest: request(() => ({
      to: phone(),
      template: { name: TEMPLATE.name, language: TEMPLATE.language, body: ['Asha'] },
    })),
  });
  return { contacts, messages };
}

const profiled = (name) =>
  process.env.BENCH_CPU_PROF
    ? {
        nodeOptions: [
          '--cpu-prof',
          `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`,
          `--cpu-prof-name=${name}.cpuprofile`,
        ],
      }
    : {};

/**
 * The embedded default as a newcomer runs it: one `serve` on PGlite with the simulator mounted on
 * it (/_sim), its sent, delivered and read webhooks posted back to the same server and processed there.
 */
async function embeddedDefault(seeded, { port, secret, load, logLevel }) {
  const env = await seeded.clone('messaging-embedded');
  const parleyUrl = `http://127.0.0.1:${port}`;
  const simUrl = `${parleyUrl}/_sim`;
  const { numbers } = await connectNumbers(env, secret, seeded.workspaceId, simUrl);
  const server = await start(
    ['dist/cli/main.js', 'serve'],
    {
      ...env,
      PARLEY_SECRET_KEY: secret,
      PORT: String(port),
      APP_URL: parleyUrl,
      SIMULATOR_TOKEN: SIM_TOKEN,
      LOG_LEVEL: logLevel,
    },
    /Parley is running/,
    profiled('pglite-embedded-default'),
  );
  try {
    await registerNumbers(simUrl, parleyUrl, numbers.slice(0, 1), true);
    const { contacts, messages } = await sendRows(parleyUrl, seeded, load, {
      server: server.pid,
    });
    return [
      { endpoint: 'POST /contacts, embedded default', ...contacts },
      {
        endpoint: 'POST /messages (template), embedded default',
        ...messages,
        ratio: messages.rps / contacts.rps,
      },
    ];
  } finally {
    await stop(server);
  }
}

async function simMessages(simUrl, phoneNumberId) {
  const res = await fetch(`${simUrl}/messages?phone_number_id=${phoneNumberId}`, { headers: simAuth });
  return (await res.json()).messages;
}

/** PACING_SENDS sends at once to distinct phones; the rate the network saw, from its receive times. */
async function pacingRun(parleyUrl, simUrl, keys) {
  const started = Date.now();
  let lastAnswer = 0;
  const answers = await Promise.all(
    Array.from({ length: PACING_SENDS }, (_, i) =>
      post(
        `${parleyUrl}/api/v1/messages`,
        {
          to: `+9197${String(10_000_000 + i)}`,
          template: { name: TEMPLATE.name, language: TEMPLATE.language, body: ['Asha'] },
        },
        { authorization: `Bearer ${keys[i % keys.length]}` },
      ).then((answer) => {
        lastAnswer = Date.now();
        return answer;
      }),
    ),
  );
  let received = [];
  for (let waited = 0; waited < 120_000; waited += 250) {
    received = await simMessages(simUrl, NUMBERS.pacing.phoneNumberId);
    if (received.length >= PACING_SENDS) break;
    await sleep(250);
  }
  const drained = Date.now() - started;
  await sleep(2_000); // anything sent twice would show up by now
  received = await simMessages(simUrl, NUMBERS.pacing.phoneNumberId);
  const times = received.map((m) => m.receivedAt).sort((a, b) => a - b);
  const spanS = (times.at(-1) - times[0]) / 1000;
  let busiest = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= 1000) j++;
    busiest = Math.max(busiest, i - j + 1);
  }
  const rate = (times.length - 1) / spanS;
  // Once every request has been answered, every message not yet sent is stored and waiting: from then
  // on the rate is the pacing's alone (before it, also how fast 500 requests get stored).
  const backlog = times.filter((t) => t >= lastAnswer);
  const backlogRate =
    backlog.length > 1 ? (backlog.length - 1) / ((backlog.at(-1) - backlog[0]) / 1000) : Number.NaN;
  const perSecond = [];
  for (const t of times)
    perSecond[Math.floor((t - times[0]) / 1000)] = (perSecond[Math.floor((t - times[0]) / 1000)] ?? 0) + 1;
  process.stderr.write(`  pacing, sends the network received per second: ${perSecond.join(' ')}\n`);
  const refusals = answers
    .filter((a) => a.status !== 201)
    .map((a) => `${a.status} ${a.body?.error?.code ?? ''}`);
  if (refusals.length > 0) process.stderr.write(`  pacing, not answered 201: ${summarise(refusals)}\n`);
  return {
    configured: PACING_RATE,
    sends: PACING_SENDS,
    answered: answers.filter((a) => a.status === 201).length,
    inRequest: answers.filter((a) => a.body.status === 'accepted').length,
    queued: answers.filter((a) => a.body.status === 'queued').length,
    atNetwork: received.length,
    distinct: new Set(received.map((m) => m.to)).size,
    rate: Math.round(rate * 10) / 10,
    backlogSends: backlog.length,
    backlogRate: Number.isNaN(backlogRate) ? '-' : Math.round(backlogRate * 10) / 10,
    deviation: backlogRate / PACING_RATE - 1,
    busiest,
    drainedS: Math.round(drained / 100) / 10,
  };
}

/** One database kind: a Parley server and a simulator, both measured runs, the pacing run. */
export async function messagingBench(kind, seeded, { port, secret, load, logLevel }) {
  const loadAverage = os.loadavg()[0];
  const env = await seeded.clone('messaging');
  const simUrl = `http://127.0.0.1:${port + 2}/_sim`;
  const parleyUrl = `http://127.0.0.1:${port}`;
  const { numbers, pacingKeys } = await connectNumbers(env, secret, seeded.workspaceId, simUrl);
  const sim = await start(
    ['dist/cli/main.js', 'simulator', '--port', String(port + 2)],
    { SIMULATOR_TOKEN: SIM_TOKEN, APP_URL: parleyUrl },
    /simulator at/,
  );
  const server = await start(
    ['dist/cli/main.js', 'serve'],
    { ...env, PARLEY_SECRET_KEY: secret, PORT: String(port), LOG_LEVEL: logLevel },
    /Parley is running/,
    profiled(`${kind}-messaging`),
  );
  try {
    await registerNumbers(simUrl, parleyUrl, numbers);
    const { contacts, messages } = await sendRows(parleyUrl, seeded, load, {
      server: server.pid,
      simulator: sim.pid,
    });
    const pacing = process.env.BENCH_NO_PACING ? null : await pacingRun(parleyUrl, simUrl, pacingKeys);
    await stop(server);
    const embedded = kind === 'pglite' ? await embeddedDefault(seeded, { port, secret, load, logLevel }) : [];
    return {
      kind,
      loadAverage,
      rows: [
        { endpoint: 'POST /contacts', ...contacts },
        { endpoint: 'POST /messages (template)', ...messages, ratio: messages.rps / contacts.rps },
        ...embedded,
      ],
      pacing,
    };
  } finally {
    await stop(server);
    await stop(sim);
  }
}

const START = '<!-- bench-messaging:start (written by npm run bench) -->';
const END = '<!-- bench-messaging:end -->';

export function messagingSection(results, load) {
  const rows = results.flatMap((r) =>
    r.rows.map(
      (x) =>
        `| ${r.kind} | ${x.endpoint} | ${x.rps} | ${x.p50} | ${x.p99} | ${x.ratio === undefined ? '-' : x.ratio.toFixed(2)} | ${cpuTallyCell(x.cpu)} | ${x.failed} |`,
    ),
  );
  const pacing = results
    .filter((r) => r.pacing)
    .map(
      ({ kind, pacing: p }) =>
        `| ${kind} | ${p.configured} | ${p.sends} | ${p.inRequest} / ${p.queued} | ${p.atNetwork} (${p.distinct} distinct) | ${p.rate} | ${p.backlogRate} (${p.backlogSends} sends) | ${Number.isNaN(p.deviation) ? '-' : `${(p.deviation * 100).toFixed(1)}%`} | ${p.busiest} | ${p.drainedS} |`,
    );
  return `${START}
## Messaging

Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, on the machine described above
(${load.connections} connections, ${load.warmup} s warm-up, ${load.duration} s measured). Load average (1 min) when each
database's run started: ${results.map((r) => `${r.kind} ${r.loadAverage.toFixed(1)}`).join(', ')}, on ${os.availableParallelism()} cores: anything
above the core count means other work shared the machine, and every figure below is lower for it.

**POST /messages against the simulator.** One Parley server per database (\`serve\`, the bench's seeded
database, a number connected to the simulator at 1,000 messages per second so pacing never holds a
request), the simulator in its own process (\`parley simulator\`) with status webhooks off, so the row
measures the send path: validation, the number and template (held in memory), one statement for
the month's count, the contact, the message and its send slot, the Graph API call, one statement for
\`accepted\` and its event. \`POST /contacts\` is measured on the same server in the same run; the
ratio is messages over contacts. "CPU ms per request" tallies the machine over the measured
seconds, per 2xx answer: the Parley server, the simulator, every PostgreSQL process (on PGlite the
database is inside the server) and the bench's own load generator, their sum, and the share of all
cores' time the machine was busy: near 100%, the row is bound by the machine's CPU and its rate is
about the cores' time divided by that sum; other work on the machine changes these figures far less
than it changes req/s. On PGlite, the rows marked *embedded default* are the product as a
newcomer runs it: one \`serve\` on a fresh copy of the same data with the simulator mounted in it
(\`/_sim\`), whose sent, delivered and read webhooks come back to the same server and are processed
there (three webhook requests and three status changes for each send).

| database | endpoint | req/s | p50 ms | p99 ms | ratio to POST /contacts | CPU ms per request: server / simulator / PostgreSQL / load generator = all (machine busy) | non-2xx / errors |
|---|---|--:|--:|--:|--:|--:|--:|
${rows.join('\n')}

${pacing.length === 0 ? '' : pacingPart(pacing)}${END}`;
}

const pacingPart = (
  pacing,
) => `**Pacing.** A second number, configured at ${PACING_RATE} messages per second, gets ${PACING_SENDS} sends at once
(all requests in flight together, to distinct phones). Each request waits up to its 3 s deadline for a
send slot; the rest answer \`queued\` and the \`messages.send\` job sends them as slots free up. The
rate is the simulator's: (sends - 1) / (last receive time - first), over the whole run and over the
part after the last request was answered, when every message left was stored and waiting (before
that, the rate also depends on how fast the server stores 500 requests arriving together). "off by"
compares the second to the configured rate; "busiest second" is the most sends the simulator
received in any 1,000 ms window.

| database | configured /s | sends | answered accepted / queued | at the network | measured /s, whole run | measured /s, backlog | off by | busiest second | all sent after s |
|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|
${pacing.join('\n')}
`;

/** Replaces (or appends) the messaging section of docs/benchmarks.md, leaving the rest as it is. */
export function writeMessagingSection(file, section) {
  const doc = readFileSync(file, 'utf8');
  const [from, to] = [doc.indexOf(START), doc.indexOf(END)];
  writeFileSync(
    file,
    from >= 0 && to > from
      ? doc.slice(0, from) + section + doc.slice(to + END.length)
      : `${doc.trimEnd()}\n\n${section}\n`,
  );
}
