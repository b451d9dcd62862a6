// npm run bench (lead intake): POST /api/forms/submit and the workflow webhook beside POST /contacts,
// on the same server in the same run, on PGlite and on PostgreSQL. Form posts come from distinct
// client addresses (X-Forwarded-For, believed with TRUST_PROXY=true), so the per-address limit of 5
// a minute counts every request and refuses none; webhook posts too, spread over 100 sequences so
// the webhook's 600 a minute per sequence refuses none either. Writes its section of docs/benchmarks.md.
// Environment: BENCH_DATABASES, BENCH_ADMIN_URL, BENCH_SECONDS, BENCH_WARMUP, BENCH_CONNECTIONS as
// for bench/run.mjs; BENCH_NO_WRITE.
import { createHmac } from 'node:crypto';
import { openDatabase } from '../dist/db/open.js';
import { SecretBox } from '../dist/lib/secret-box.js';
import { createAutomation } from '../dist/modules/automation/save-automation.js';
import { createForm } from '../dist/modules/forms/create-form.js';
import {
  ADMIN_URL,
  cleanupAll,
  cpuTallyCell,
  measure,
  SERVER_ONLY,
  seedDatabase,
  start,
  stop,
  writeBenchSection,
} from './lib.mjs';

const load = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 20),
  duration: Number(process.env.BENCH_SECONDS ?? 10),
  warmup: Number(process.env.BENCH_WARMUP ?? 3),
};
const SECRET = '1'.repeat(64);
const PORT = 4300;
const secrets = new SecretBox(Buffer.from(SECRET, 'hex'));
const randomPhone = () => `+9198${String(Math.floor(Math.random() * 100_000)).padStart(8, '0')}`;
let n = 0;
const nextAddress = () => {
  n++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

/** A form and 100 published webhook sequences (one step: the lead's status) in the seeded workspace. */
async function withIntake(env, workspaceId) {
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    const form = await createForm(db, workspaceId, { name: 'Bench form' });
    const sequences = [];
    for (let i = 0; i < 100; i++) {
      sequences.push(
        await createAutomation(
          { db, secrets },
          workspaceId,
          {
            name: `Bench webhook ${i}`,
            trigger: { type: 'webhook' },
            steps: [{ id: 'contacted', type: 'update_lead_status', status: 'contacted' }],
          },
          { publish: true },
        ),
      );
    }
    return { form, sequences };
  } finally {
    await db.close();
  }
}

async function rowsFor(kind) {
  process.stderr.write(`intake (${kind}): seeding...\n`);
  const seeded = await seedDatabase(kind, {
    adminUrl: ADMIN_URL,
    secret: SECRET,
    keys: 200,
    preload: 20_000,
    phonePrefix: '9198',
  });
  const env = await seeded.clone('intake');
  const { form, sequences } = await withIntake(env, seeded.workspaceId);
  let s = 0;
  const nextSequence = () => sequences[s++ % sequences.length];
  const server = await start(
    ['dist/cli/main.js', 'serve'],
    { ...env, PARLEY_SECRET_KEY: SECRET, PORT: String(PORT), LOG_LEVEL: 'warn', TRUST_PROXY: 'true' },
    /Parley is running/,
  );
  const base = `http://127.0.0.1:${PORT}`;
  const rows = [];
  const run = async (label, url, makeRequest) => {
    const r = await measure(url, { ...load, method: 'POST', makeRequest, pids: { server: server.pid } });
    process.stderr.write(
      `  ${label}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.failed}\n`,
    );
    rows.push({ kind, label, ...r });
  };
  try {
    let k = 0;
    await run('POST /api/v1/contacts', `${base}/api/v1/contacts`, (req) => ({
      ...req,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${seeded.keys[k++ % seeded.keys.length]}`,
      },
      body: JSON.stringify({ phone: randomPhone(), tags: ['bench'] }),
    }));
    await run('POST /api/forms/submit (JSON, a new address each)', `${base}/api/forms/submit`, (req) => ({
      ...req,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
      body: JSON.stringify({ token: form.token, name: 'Bench', phone: randomPhone(), company: 'Acme' }),
    }));
    await run(
      'POST /api/automation/webhooks/{id}/{secret}',
      `${base}/api/automation/webhooks/${sequences[0].id}/${sequences[0].secret}`,
      (req) => {
        const sequence = nextSequence();
        return {
          ...req,
          path: `/api/automation/webhooks/${sequence.id}/${sequence.secret}`,
          headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
          body: JSON.stringify({ full_name: 'Bench', mobile: randomPhone(), campaign: 'bench' }),
        };
      },
    );
    await run(
      'POST /api/automation/webhooks/{id} (HMAC-signed, distinct bodies)',
      `${base}/api/automation/webhooks/${sequences[0].id}`,
      (req) => {
        const sequence = nextSequence();
        const body = JSON.stringify({ email: `b${n++}@example.com`, mobile: randomPhone() });
        return {
          ...req,
          path: `/api/automation/webhooks/${sequence.id}`,
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': nextAddress(),
            'x-webhook-signature': `sha256=${createHmac('sha256', sequence.secret).update(body).digest('hex')}`,
          },
          body,
        };
      },
    );
  } finally {
    await stop(server);
  }
  return rows;
}

try {
  const rows = [];
  for (const kind of (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(','))
    rows.push(...(await rowsFor(kind)));
  const contactsOf = (kind) =>
    rows.find((r) => r.kind === kind && r.label.startsWith('POST /api/v1/contacts'));
  const section = [
    '## Lead intake',
    '',
    `Form submissions and workflow webhook starts beside POST /contacts, on the same server (\`serve\`, log level warn, \`TRUST_PROXY=true\`) in the same run, ${load.connections} connections, ${load.duration} s after ${load.warmup} s of warm-up, on a database seeded like the rows above (scale plan, 20,000 contacts). A form post is a lead (with its monthly count), a contact found or created by phone, the \`lead.created\` event and the per-address rate limit (each post from a new address); a webhook start is a lead, a contact, and a run of a one-step sequence whose step jobs the same process works through meanwhile; the signed variant also records the body for the 24-hour replay check.`,
    '',
    '| database | request | req/s | p50 ms | p99 ms | ratio to POST /contacts | CPU ms per request: server / PostgreSQL / load generator = all (machine busy) | non-2xx / errors |',
    '|---|---|--:|--:|--:|--:|--:|--:|',
    ...rows.map(
      (r) =>
        `| ${r.kind} | ${r.label} | ${r.rps} | ${r.p50} | ${r.p99} | ${(r.rps / contactsOf(r.kind).rps).toFixed(2)} | ${cpuTallyCell(r.cpu, SERVER_ONLY)} | ${r.failed} |`,
    ),
  ].join('\n');
  console.log(section);
  writeBenchSection('intake', section);
} finally {
  await cleanupAll();
}
