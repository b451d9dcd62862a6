// npm run bench (the inbox at scale): one workspace of 100,000 conversations and 1,000,000 messages
// (test/support/seed-inbox.mjs), its team's live stream open (GET /api/app/events as an event
// stream), and one teammate's requests one at a time: the inbox's first page, a next page (following
// next_cursor ever deeper), a search for part of one message, and opening a conversation
// (GET /api/app/conversations/:id: its messages and notes). p50/p99 of each, on PGlite and on
// PostgreSQL. Writes its section of docs/benchmarks.md. Environment: BENCH_DATABASES, BENCH_ADMIN_URL
// as for bench/run.mjs; BENCH_INBOX_CONVERSATIONS (100000), BENCH_INBOX_MESSAGES (1000000),
// BENCH_INBOX_REQUESTS (200 of each); BENCH_NO_WRITE.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '../dist/db/migrate.js';
import { openDatabase } from '../dist/db/open.js';
import { seedInbox } from '../test/support/seed-inbox.mjs';
import { ADMIN_URL, cleanupAll, onCleanup, start, stop, writeBenchSection } from './lib.mjs';

const CONVERSATIONS = Number(process.env.BENCH_INBOX_CONVERSATIONS ?? 100_000);
const MESSAGES = Number(process.env.BENCH_INBOX_MESSAGES ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_INBOX_REQUESTS ?? 200);
const SECRET = '1'.repeat(64);
const PORT = 4320;
const BASE = `http://127.0.0.1:${PORT}/api/app`;

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const random = (n) => Math.floor(Math.random() * n);
const LONGEST = 10 ** (String(MESSAGES - 1).length - 1);

/** A database of the kind: the server's environment and how to open it here. */
async function database(kind) {
  if (kind === 'pglite') {
    const dir = mkdtempSync(join(os.tmpdir(), 'parley-inbox-'));
    onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    return { env: { DATA_DIR: dir }, open: () => openDatabase({ dataDir: dir }), label: 'PGlite' };
  }
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  onCleanup(() => admin.end());
  const version = (await admin.query('SHOW server_version')).rows[0].server_version.split(' ')[0];
  const name = `parley_bench_inbox_${Date.now()}`;
  onCleanup(() => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  // A server on PostgreSQL leaves migrating to \`parley migrate\`.
  const fresh = await openDatabase({ databaseUrl: url.toString() });
  await migrate(fresh);
  await fresh.close();
  return {
    env: { DATABASE_URL: url.toString(), PARLEY_SECRET_KEY: SECRET },
    open: () => plainClient(url.toString()),
    label: `PostgreSQL ${version}`,
  };
}

/** One connection without the server pool's time limits (a million rows take minutes), as a Db. */
async function plainClient(connectionString) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const query = (text, params) => client.query(text, params);
  return {
    query,
    exec: async (text) => {
      await client.query(text);
    },
    transaction: async (fn) => {
      await client.query('BEGIN');
      try {
        const result = await fn({ query });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    },
    close: () => client.end(),
  };
}

const serve = (env) =>
  start(
    ['dist/cli/main.js', 'serve'],
    { ...env, PORT: String(PORT), LOG_LEVEL: 'warn' },
    /Parley is running/,
  );

async function get(cookie, path) {
  const began = performance.now();
  const res = await fetch(`${BASE}${path}`, { headers: { cookie } });
  const body = await res.json();
  const ms = performance.now() - began;
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

async function rowFor(kind) {
  const db = await database(kind);
  let server = await serve(db.env);
  const setup = await fetch(`${BASE}/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-parley-csrf': '1' },
    body: JSON.stringify({
      email: 'bench@example.com',
      password: 'a long enough password',
      name: 'Bench',
      workspace_name: 'Bench',
      default_country_code: '91',
    }),
  });
  if (setup.status >= 300) throw new Error(`setup: ${setup.status} ${await setup.text()}`);
  const cookie = setup.headers.get('set-cookie').split(';')[0];
  // PGlite is the server's alone: seeded while it is stopped (PostgreSQL the same way, for one procedure).
  await stop(server);
  process.stderr.write(`inbox (${kind}): seeding ${CONVERSATIONS} conversations, ${MESSAGES} messages...\n`);
  const handle = await db.open();
  const { rows } = await handle.query('SELECT workspace_id, user_id FROM memberships');
  const began = performance.now();
  await seedInbox(handle, rows[0].workspace_id, {
    conversations: CONVERSATIONS,
    messages: MESSAGES,
    assigneeId: rows[0].user_id,
  });
  await handle.exec('VACUUM ANALYZE');
  const seedSeconds = (performance.now() - began) / 1000;
  await handle.close();
  server = await serve(db.env);
  const stream = new AbortController();
  try {
    const events = await fetch(`${BASE}/events`, {
      headers: { cookie, accept: 'text/event-stream' },
      signal: stream.signal,
    });
    if (events.status !== 200) throw new Error(`events: ${events.status}`);
    events.body.pipeTo(new WritableStream()).catch(() => {});
    const times = { first: [], next: [], search: [], open: [] };
    // Warm-up: the first requests of a fresh process read from disk.
    for (let i = 0; i < 10; i++) await get(cookie, '/inbox?filter=open&limit=50');
    let cursor = (await get(cookie, '/inbox?filter=open&limit=50')).body.next_cursor;
    for (let i = 0; i < REQUESTS; i++) {
      times.first.push((await get(cookie, '/inbox?filter=open&limit=50')).ms);
      const next = await get(cookie, `/inbox?filter=open&limit=50&cursor=${encodeURIComponent(cursor)}`);
      times.next.push(next.ms);
      cursor = next.body.next_cursor;
      // As many digits as the newest message's: no other reference starts with it, so it is found alone.
      const m = LONGEST + random(MESSAGES - LONGEST);
      const found = await get(cookie, `/inbox?filter=all&limit=50&q=${encodeURIComponent(`ref ${m}`)}`);
      if (!found.body.conversations.some((r) => r.match?.endsWith(`ref ${m}`)))
        throw new Error(`the search for "ref ${m}" did not find it`);
      times.search.push(found.ms);
      times.open.push((await get(cookie, `/conversations/seed_${random(CONVERSATIONS)}`)).ms);
    }
    const row = { label: db.label, seedSeconds };
    for (const [k, v] of Object.entries(times)) row[k] = { p50: pct(v, 50), p99: pct(v, 99) };
    process.stderr.write(`  ${JSON.stringify(row)}\n`);
    return row;
  } finally {
    stream.abort();
    await stop(server);
  }
}

try {
  const loadBefore = os.loadavg()[0].toFixed(1);
  const rows = [];
  for (const kind of (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(','))
    rows.push(await rowFor(kind));
  const cell = (t) => `${t.p50.toFixed(0)} / ${t.p99.toFixed(0)}`;
  const section = [
    '## The inbox at scale',
    '',
    `One workspace of ${CONVERSATIONS.toLocaleString('en')} conversations and ${MESSAGES.toLocaleString('en')} messages (test/support/seed-inbox.mjs, three statements in one transaction: *seed s*, with VACUUM ANALYZE), one \`serve\` process, the team's live stream open (\`GET /api/app/events\`, an event stream) throughout. One teammate's requests, one at a time, ${REQUESTS} of each: the first page of the open conversations (\`GET /api/app/inbox?filter=open&limit=50\`, with its counts per filter), a next page (following \`next_cursor\`, each a page deeper), a search for one message's text (\`q=ref <n>\`, a random one of the last nine tenths, through the trigram index; each found, alone), and opening a random conversation (\`GET /api/app/conversations/:id\`: its messages and notes). Aim: p99 under 100 ms on PostgreSQL, under 250 ms on PGlite. Written by \`npm run bench\` (bench/inbox.mjs) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores; load average ${loadBefore} when it started and ${os.loadavg()[0].toFixed(1)} when it ended (above the core count, other work shared the machine and the figures are slower than on a quiet one).`,
    '',
    '| database | seed s | first page p50 / p99 ms | next page p50 / p99 ms | search p50 / p99 ms | open a conversation p50 / p99 ms |',
    '|---|--:|--:|--:|--:|--:|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.seedSeconds.toFixed(0)} | ${cell(r.first)} | ${cell(r.next)} | ${cell(r.search)} | ${cell(r.open)} |`,
    ),
  ].join('\n');
  console.log(section);
  writeBenchSection('inbox', section);
} finally {
  await cleanupAll();
}
