// npm run bench, bots part: a keyword bot with a button question, on both databases.
//   New conversations arrive at BENCH_BOT_RATES a second (default 50 and 200) for BENCH_BOT_SECONDS
//   (default 10): each customer writes "menu" (the bot asks a question with two buttons), then, once
//   every question has reached the network, taps a button at the same rate (the bot answers).
//   Latency: from the simulator posting the customer's webhook to the bot's message reaching the
//   simulator, both on the simulator's clock. Every conversation must get one question and one answer:
//   "twice" and "missing" count those that did not.
//   On PostgreSQL a last run kills the worker process with SIGKILL mid-way and starts another.
// The simulator runs as its own process (`parley simulator`), as the network would be; status
// webhooks are on, as on the network.
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../dist/db/open.js';
import { SecretBox } from '../dist/lib/secret-box.js';
import { createAutomation } from '../dist/modules/automation/save-automation.js';
import { connectNumber } from '../dist/modules/messaging/connected-numbers.js';
import { ADMIN_URL, cleanupAll, seedDatabase, sleep, start, stop, writeBenchSection } from './lib.mjs';

const RATES = (process.env.BENCH_BOT_RATES ?? '50,200').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_BOT_SECONDS ?? 10);
const SECRET = '2'.repeat(64);
const PORT = 4300;
const SIM_TOKEN = randomBytes(32).toString('hex');
const simAuth = { authorization: `Bearer ${SIM_TOKEN}`, 'content-type': 'application/json' };
const NUMBER = { phoneNumberId: '930001', messagesPerSecond: 1000 };

const BOT = {
  name: 'Bench bot',
  trigger: { type: 'message_received', keywords: ['menu'] },
  steps: [
    {
      id: 'menu',
      type: 'ask',
      text: 'What can we do for you?',
      buttons: [
        { id: 'track', title: 'Track my order', next: 'tracked' },
        { id: 'person', title: 'Talk to us', next: 'person' },
      ],
      timeout: '1h',
    },
    { id: 'tracked', type: 'send_text', text: 'Your order is on its way.', next: null },
    { id: 'person', type: 'send_text', text: 'A teammate will answer soon.', next: null },
  ],
};

async function prepare(env) {
  const db = await openDatabase({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
  // This process sends nothing: it has no cache of numbers for connectNumber to drop.
  const ctx = { db, secrets: new SecretBox(Buffer.from(SECRET, 'hex')), sending: { forget: () => {} } };
  const { rows } = await db.query('SELECT id FROM workspaces LIMIT 1');
  const workspaceId = rows[0].id;
  const secrets = { accessToken: 'bench-token', appSecret: 'bench-secret' };
  const { id } = await connectNumber(ctx, workspaceId, {
    ...NUMBER,
    ...secrets,
    businessAccountId: `waba${NUMBER.phoneNumberId}`,
    displayPhone: '+1 555 0100',
    verifyToken: 'bench',
    graphBaseUrl: `http://127.0.0.1:${PORT + 2}/_sim`,
  });
  await createAutomation(ctx, workspaceId, BOT, { publish: true });
  await db.close();
  return { numberId: id, ...secrets };
}

async function sim(path, body) {
  const res = await fetch(`http://127.0.0.1:${PORT + 2}/_sim${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: simAuth,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.json();
}

/** Sends `count` inbound messages at `rate` a second (open loop: each on its own schedule). */
async function wave(count, rate, message) {
  const began = Date.now();
  const sent = [];
  for (let i = 0; i < count; i++) {
    const due = began + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    sent.push(
      sim('/inbound', { phone_number_id: NUMBER.phoneNumberId, ...message(i) }).catch((err) => ({
        error: err.message,
      })),
    );
  }
  const answers = await Promise.all(sent);
  return answers.filter((a) => a.delivered_status !== 200).length;
}

const phoneOf = (rate, i) => `9177${String(rate).padStart(3, '0')}${String(i).padStart(5, '0')}`;

/** Waits until the simulator holds `count` messages of the bot matching `pick`, or 120 s passed. */
async function arrived(pick, count) {
  const end = Date.now() + 120_000;
  for (;;) {
    const { messages } = await sim(`/messages?phone_number_id=${NUMBER.phoneNumberId}`);
    const mine = messages.filter(pick);
    if (mine.length >= count || Date.now() > end) return mine;
    await sleep(500);
  }
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
};

/** Per conversation, how long from its inbound webhook to the bot's message, and what went wrong. */
function latencies(inbound, outbound, count, rate) {
  const firstIn = new Map();
  for (const m of inbound)
    if (!firstIn.has(m.from) || m.receivedAt < firstIn.get(m.from)) firstIn.set(m.from, m);
  const out = new Map();
  for (const m of outbound) out.set(m.to, [...(out.get(m.to) ?? []), m]);
  const ms = [];
  let twice = 0;
  let missing = 0;
  for (let i = 0; i < count; i++) {
    const phone = phoneOf(rate, i);
    const got = out.get(phone) ?? [];
    if (got.length === 0) missing++;
    if (got.length > 1) twice++;
    const asked = firstIn.get(phone);
    if (got[0] && asked) ms.push(got[0].receivedAt - asked.receivedAt);
  }
  return { p50: percentile(ms, 50), p99: percentile(ms, 99), twice, missing };
}

async function conversations(rate, { kill } = {}) {
  const count = rate * SECONDS;
  const refused = await wave(count, rate, (i) => ({ from: phoneOf(rate, i), text: 'Menu' }));
  if (kill) await kill();
  const questions = await arrived(
    (m) => m.type === 'interactive' && m.to.startsWith(phoneOf(rate, 0).slice(0, 7)),
    count,
  );
  const inbound1 = (await sim(`/inbound?phone_number_id=${NUMBER.phoneNumberId}`)).messages.filter((m) =>
    m.from.startsWith(phoneOf(rate, 0).slice(0, 7)),
  );
  const question = latencies(inbound1, questions, count, rate);
  const tapped = await wave(count, rate, (i) => ({
    from: phoneOf(rate, i),
    message: {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'track', title: 'Track my order' } },
    },
  }));
  const answers = await arrived(
    (m) => m.type === 'text' && m.to.startsWith(phoneOf(rate, 0).slice(0, 7)),
    count,
  );
  const inbound = (await sim(`/inbound?phone_number_id=${NUMBER.phoneNumberId}`)).messages.filter(
    (m) => m.from.startsWith(phoneOf(rate, 0).slice(0, 7)) && m.type === 'interactive',
  );
  const answer = latencies(inbound, answers, count, rate);
  return { rate, count, refused: refused + tapped, question, answer };
}

async function runKind(kind, seeded) {
  const rows = [];
  const runs = [
    ...RATES.map((rate) => ({ rate })),
    ...(kind === 'postgres' ? [{ rate: RATES[0], kill: true }] : []),
  ];
  for (const run of runs) {
    const env = await seeded.clone(`bots_${run.rate}${run.kill ? '_kill' : ''}`);
    const number = await prepare(env);
    const parleyUrl = `http://127.0.0.1:${PORT}`;
    const simulator = await start(
      ['dist/cli/main.js', 'simulator', '--port', String(PORT + 2)],
      { SIMULATOR_TOKEN: SIM_TOKEN, APP_URL: parleyUrl },
      /simulator at/,
    );
    const serverEnv = { ...env, PARLEY_SECRET_KEY: SECRET, PORT: String(PORT), LOG_LEVEL: 'warn' };
    const split = kind === 'postgres' && run.kill;
    const server = await start(
      ['dist/cli/main.js', 'serve', ...(split ? ['--role', 'api'] : [])],
      serverEnv,
      /Parley is running/,
    );
    let worker = split
      ? await start(['dist/cli/main.js', 'serve', '--role', 'worker'], serverEnv, /worker is running/)
      : null;
    try {
      await sim('/numbers', {
        phoneNumberId: NUMBER.phoneNumberId,
        businessAccountId: `waba${NUMBER.phoneNumberId}`,
        displayPhone: '+1 555 0100',
        accessToken: number.accessToken,
        appSecret: number.appSecret,
        webhookUrl: `${parleyUrl}/api/webhooks/whatsapp/${number.numberId}`,
        templates: [],
      });
      const kill = split
        ? async () => {
            worker.kill('SIGKILL');
            await sleep(500);
            worker = await start(
              ['dist/cli/main.js', 'serve', '--role', 'worker'],
              serverEnv,
              /worker is running/,
            );
          }
        : undefined;
      const row = { kind, kill: Boolean(run.kill), ...(await conversations(run.rate, { kill })) };
      process.stderr.write(
        `  ${kind} ${run.rate}/s${run.kill ? ' (worker killed)' : ''}: ${JSON.stringify(row)}\n`,
      );
      rows.push(row);
    } finally {
      await stop(worker);
      await stop(server);
      await stop(simulator);
    }
  }
  return rows;
}

try {
  const rows = [];
  for (const kind of ['pglite', 'postgres']) {
    process.stderr.write(`bots (${kind}): seeding...\n`);
    const seeded = await seedDatabase(kind, {
      adminUrl: ADMIN_URL,
      secret: SECRET,
      keys: 1,
      preload: 20_000,
      phonePrefix: '9198',
    });
    rows.push(...(await runKind(kind, seeded)));
  }
  const section = [
    "## Bots: from the customer's message to the bot's reply",
    '',
    `A keyword bot ("menu") asks a question with two reply buttons and answers the tapped one. New conversations arrive at the rate shown for ${SECONDS} s (open loop: the simulator posts each customer's webhook on schedule, whatever Parley's answers take); once every question has reached the simulator, every customer taps a button at the same rate. One \`serve\` (API and workers in one process) on the seeded database, the simulator in its own process with status webhooks on. Milliseconds from the simulator posting the customer's webhook to the bot's message reaching the simulator, both on its clock. The last PostgreSQL row runs the API and one worker in two processes and kills the worker with SIGKILL after the last "menu" (a new worker starts 0.5 s later).`,
    '',
    '| database | new conversations / s | conversations | question p50 / p99 ms | answer p50 / p99 ms | twice | missing | webhooks refused |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
    ...rows.map(
      (r) =>
        `| ${r.kind === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'}${r.kill ? ', worker killed' : ''} | ${r.rate} | ${r.count} | ${r.question.p50} / ${r.question.p99} | ${r.answer.p50} / ${r.answer.p99} | ${r.question.twice + r.answer.twice} | ${r.question.missing + r.answer.missing} | ${r.refused} |`,
    ),
  ].join('\n');
  console.log(section);
  writeBenchSection('bots', section);
} finally {
  await cleanupAll();
}
