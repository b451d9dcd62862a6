#!/usr/bin/env node
/**
 * Builds the upgrade fixture: a data directory made by the Parley checked out here, filled through its
 * public surfaces (the web app's first-visit setup, the REST API, the CLI, a lead form, the simulator),
 * written as test/fixtures/upgrade/data-dir.tar.gz (a gzip tar that extracts to a DATA_DIR: pg/,
 * media/, secret.key, simulator.token, as `parley backup` writes) and test/fixtures/upgrade/fixture.json
 * (what test/upgrade.embedded.test.ts needs to know: keys, passwords, ids, the release's migrations).
 *
 * At each release, regenerate it from that release so the next one is tested against it:
 *   git checkout v<release> && npm ci && npm run build
 *   node scripts/make-upgrade-fixture.mjs
 *   git checkout main && git add test/fixtures/upgrade && git commit   (the two files just written)
 *
 * The server listens on APP_PORT and the webhook endpoint's receiver on HOOK_PORT: both are kept in
 * the data (the number's simulator address, the endpoint's URL), so the test listens on the same ones.
 * The fixture's secrets (API key, owner password, secret.key, webhook secret) are test data only.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { create } from 'tar';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist/cli/main.js');
const OUT = join(ROOT, 'test/fixtures/upgrade');
const APP_PORT = 38271;
const HOOK_PORT = 38272;
const APP = `http://127.0.0.1:${APP_PORT}`;
// A 1x1 PNG: the image a customer sends.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const OWNER = { email: 'owner@upgrade.example', password: 'upgrade fixture password 1' };
const PHONES = { asha: '919800000001', ravi: '919800000002', meera: '919800000003', kiran: '919800000004' };
const FLOW_WAIT = '30s';

const dataDir = mkdtempSync(join(tmpdir(), 'pfix-'));
const env = {
  PATH: process.env.PATH ?? '',
  DATA_DIR: dataDir,
  PORT: String(APP_PORT),
  LOG_LEVEL: 'warn',
  WEBHOOKS_ALLOW_PRIVATE: 'true',
};

function fail(message) {
  process.stderr.write(`make-upgrade-fixture: ${message}\n`);
  process.exit(1);
}

function cli(args) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, ...args, '--json'], { env, timeout: 60_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`parley ${args.join(' ')}: ${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

async function until(what, fn, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

async function startServer() {
  const child = spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  await until(
    'the server to start',
    () => {
      if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
      return /Parley is running/.test(out);
    },
    60_000,
  );
  const stop = () => {
    child.kill('SIGTERM');
    return exited;
  };
  return { stop, output: () => out };
}

async function call(method, path, { body, headers = {} } = {}) {
  const res = await fetch(`${APP}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { res, json: text ? JSON.parse(text) : null };
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

function gitCommit() {
  return new Promise((resolve) =>
    execFile('git', ['rev-parse', 'HEAD'], { cwd: ROOT }, (err, stdout) =>
      resolve(err ? null : stdout.trim()),
    ),
  );
}

if (!existsSync(CLI)) fail('no build here: run `npm run build` first');

// The webhook endpoint's receiver: every delivery is answered 200 and kept.
const deliveries = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    deliveries.push({ headers: req.headers, body: JSON.parse(body) });
    res.end('ok');
  });
});
await new Promise((resolve, reject) =>
  receiver.listen(HOOK_PORT, '127.0.0.1', resolve).once('error', reject),
);

const server = await startServer();
let made;
try {
  made = await fill();
} catch (err) {
  process.stderr.write(server.output());
  await server.stop();
  receiver.close();
  throw err;
}
const code = await server.stop();
receiver.close();
if (code !== 0) fail(`the server stopped with code ${code}: ${server.output()}`);

// Read back what the test checks against: the release's migrations, and that the run still waits.
const pg = await PGlite.create({ dataDir: join(dataDir, 'pg') });
const applied = (await pg.query('SELECT name FROM schema_migrations ORDER BY name')).rows.map((r) => r.name);
const run = (await pg.query('SELECT status FROM runs WHERE id = $1', [made.flow.run_id])).rows[0];
if (run?.status !== 'waiting') fail(`the flow run is ${run?.status} in the stopped data, not waiting`);
// PGlite's WAL segment (16 MB) still holds every record since initdb, 2 MB gzipped: segments switched
// away from and checkpointed past are deleted instead of recycled, and the new one is zero-filled.
await pg.exec('SET wal_recycle = off');
for (let i = 0; i < 2; i++) await pg.exec('SELECT pg_switch_wal(); CHECKPOINT');
await pg.close();

const files = readdirSync(join(ROOT, 'migrations'))
  .filter((f) => f.endsWith('.sql'))
  .sort();
if (files.join() !== applied.join())
  fail(`migrations applied (${applied}) differ from migrations/ (${files})`);
const migrations = files.map((name) => ({
  name,
  sha256: sha256(readFileSync(join(ROOT, 'migrations', name))),
}));

mkdirSync(OUT, { recursive: true });
const archive = join(OUT, 'data-dir.tar.gz');
const entries = ['pg', 'media', 'secret.key', 'simulator.token'].filter((e) => existsSync(join(dataDir, e)));
await create({ gzip: { level: 9 }, file: archive, cwd: dataDir, portable: true }, entries);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const fixture = {
  about:
    'A data directory made by the Parley release below (scripts/make-upgrade-fixture.mjs); test/upgrade.embedded.test.ts ' +
    'upgrades it. Every secret here and in the archive (API key, password, secret.key, webhook secret) is test data only.',
  release: { version: pkg.version, commit: await gitCommit() },
  made_at: new Date().toISOString(),
  app_port: APP_PORT,
  hook_port: HOOK_PORT,
  owner: OWNER,
  migrations,
  ...made,
};
const fixtureFile = join(OUT, 'fixture.json');
writeFileSync(fixtureFile, `${JSON.stringify(fixture, null, 2)}\n`);
// In the project's own format, so `npm run lint` passes on the commit.
await new Promise((resolve) =>
  execFile(join(ROOT, 'node_modules/.bin/biome'), ['format', '--write', fixtureFile], resolve),
);
rmSync(dataDir, { recursive: true, force: true });
process.stdout.write(
  `wrote ${archive} (${statSync(archive).size} bytes, ${deliveries.length} webhook deliveries received)\n`,
);

async function fill() {
  const setup = await call('POST', '/api/app/setup', {
    body: { ...OWNER, name: 'Olu Owner', workspace_name: 'Upgrade Co', default_country_code: '91' },
    headers: { 'x-parley-csrf': '1' },
  });
  const cookie = setup.res.headers.get('set-cookie').split(';')[0];
  const session = (await call('GET', '/api/app/session', { headers: { cookie } })).json;
  const app = (method, path, body) =>
    call(method, `/api/app${path}`, { body, headers: { cookie, 'x-parley-csrf': session.csrf_token } });
  const workspaceId = session.workspace.id;

  // The built-in simulator as the workspace's number: its access token and app secret stored sealed.
  const number = (await app('POST', '/number/simulator')).json;
  const { json: numberView } = await app('GET', '/number');
  const token = readFileSync(join(dataDir, 'simulator.token'), 'utf8').trim();
  const sim = (method, path, body) =>
    call(method, `/_sim${path}`, { body, headers: { authorization: `Bearer ${token}` } });

  const apiKey = (await cli(['apikey', 'create', '--workspace', workspaceId, '--name', 'upgrade'])).key;
  const v1 = (method, path, body) =>
    call(method, `/api/v1${path}`, { body, headers: { authorization: `Bearer ${apiKey}` } });

  const hookUrl = `http://127.0.0.1:${HOOK_PORT}/hooks`;
  const webhook = await cli([
    'webhook',
    'create',
    '--workspace',
    workspaceId,
    '--url',
    hookUrl,
    '--events',
    'message.status,message.received,lead.created,flow.run.finished',
  ]);

  // A template submitted for review and approved by the network, and one left pending.
  await cli([
    'templates',
    'create',
    '--workspace',
    workspaceId,
    '--name',
    'upgrade_notice',
    '--language',
    'en',
    '--category',
    'UTILITY',
    '--body',
    'Your account moved to version {{1}}.',
    '--example',
    '0.2.0',
  ]);
  await cli([
    'templates',
    'create',
    '--workspace',
    workspaceId,
    '--name',
    'autumn_offer',
    '--language',
    'en',
    '--category',
    'MARKETING',
    '--body',
    'Autumn offer: {{1}} off',
    '--example',
    '10%',
  ]);
  await sim('POST', '/templates/upgrade_notice/en/approve');
  await until('upgrade_notice to be approved', async () =>
    (await v1('GET', '/templates')).json.templates.some((t) => t.name === 'upgrade_notice'),
  );

  const contacts = {};
  for (const [key, phone] of Object.entries(PHONES)) {
    if (key === 'kiran') continue; // comes in with the lead
    const body = { phone, name: key[0].toUpperCase() + key.slice(1) };
    if (key === 'asha')
      Object.assign(body, { email: 'asha@example.com', tags: ['vip'], traits: { city: 'Pune' } });
    contacts[key] = { id: (await v1('POST', '/contacts', body)).json.id, phone };
  }

  const readStatus = (id) =>
    until(`message ${id} to be read`, async () => {
      const m = (await v1('GET', `/messages/${id}`)).json;
      return m.status === 'read' && m;
    });
  const templateSend = (
    await v1('POST', '/messages', {
      to: PHONES.asha,
      template: { name: 'welcome', language: 'en', body: ['Asha', 'Upgrade Co'] },
    })
  ).json;
  await readStatus(templateSend.id);

  await sim('POST', '/inbound', { from: PHONES.ravi, text: 'Is my order ready?' });
  await until(
    'the inbound text',
    async () => (await app('GET', `/conversations/${contacts.ravi.id}`)).json.messages.length > 0,
  );
  const textSend = (
    await v1('POST', '/messages', { to: PHONES.ravi, type: 'text', text: 'Yes, it ships today.' })
  ).json;
  await readStatus(textSend.id);

  await sim('POST', '/inbound', {
    from: PHONES.meera,
    message: { type: 'image', image: { caption: 'my receipt' } },
    media: { mime_type: 'image/png', data_base64: PNG.toString('base64') },
  });
  const image = await until('the image to be stored', async () => {
    const conversation = (await app('GET', `/conversations/${contacts.meera.id}`)).json;
    const m = conversation.messages.find((x) => x.direction === 'inbound');
    if (!m) return false;
    const res = await fetch(`${APP}/api/app/messages/${m.id}/media`, { headers: { cookie } });
    return res.status === 200 && Buffer.from(await res.arrayBuffer()).equals(PNG) && m;
  });

  const form = await cli(['form', 'create', '--workspace', workspaceId, '--name', 'Call me back']);
  const lead = (
    await call('POST', '/api/forms/submit', {
      body: {
        token: form.token,
        name: 'Kiran',
        phone: PHONES.kiran,
        email: 'kiran@example.com',
        note: 'evenings',
      },
    })
  ).json;
  await until('the contact of the lead', async () =>
    (await v1('GET', '/contacts?limit=100')).json.contacts.some((c) => c.phone === PHONES.kiran),
  );
  contacts.kiran = {
    id: (await v1('GET', '/contacts?limit=100')).json.contacts.find((c) => c.phone === PHONES.kiran).id,
    phone: PHONES.kiran,
  };

  // A flow whose run is waiting when the server stops; after its wait it tags and sends.
  const definition = join(dataDir, 'flow.json');
  writeFileSync(
    definition,
    JSON.stringify({
      name: 'Follow up after a check',
      trigger: { type: 'event', event: 'upgrade_check' },
      steps: [
        {
          id: 'hello',
          type: 'send_template',
          template: { name: 'order_update', language: 'en', body: ['A-17', 'packed'] },
        },
        { id: 'pause', type: 'wait', duration: FLOW_WAIT },
        { id: 'tag', type: 'add_tag', tag: 'followed_up' },
        {
          id: 'later',
          type: 'send_template',
          template: { name: 'order_update', language: 'en', body: ['A-17', 'shipped'] },
        },
      ],
    }),
  );
  const flow = await cli(['flow', 'create', '--workspace', workspaceId, '--file', definition, '--publish']);
  rmSync(definition);
  await v1('POST', '/events', { phone: PHONES.asha, event: 'upgrade_check' });
  const run = await until('the run to wait', async () =>
    (await app('GET', '/runs?status=waiting')).json.runs.find((r) => r.automation_id === flow.id),
  );
  const waitUntil = (await app('GET', `/runs/${run.id}`)).json.run.steps.find(
    (s) => s.step_id === 'pause',
  ).wait_until;
  await until('every webhook delivery to be delivered', async () => {
    const { deliveries: all } = (await app('GET', `/webhooks/${webhook.id}/deliveries`)).json;
    return all.length >= 3 && all.every((d) => d.delivered_at);
  });

  return {
    workspace_id: workspaceId,
    api_key: apiKey,
    simulator_token: token,
    number: { id: number.id, phone_number_id: numberView.number.phone_number_id },
    contacts,
    messages: {
      template: { id: templateSend.id, to: PHONES.asha, status: 'read' },
      text: { id: textSend.id, to: PHONES.ravi, status: 'read' },
      inbound_image: { id: image.id, from: PHONES.meera, sha256: sha256(PNG), bytes: PNG.length },
    },
    templates: { approved: ['welcome', 'order_update', 'upgrade_notice'], pending: ['autumn_offer'] },
    form: { id: form.id, token: form.token },
    lead: { id: lead.lead_id, phone: PHONES.kiran, email: 'kiran@example.com' },
    flow: { id: flow.id, run_id: run.id, wait_until: waitUntil, event: 'upgrade_check' },
    webhook: { id: webhook.id, url: hookUrl, secret: webhook.secret },
  };
}
