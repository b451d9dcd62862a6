import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveDataDirToPostgres } from '../src/modules/backups/move-data-dir.js';
import { postgresStore } from '../src/modules/media/postgres-store.js';
import {
  freePort,
  type RunningServer,
  runCli,
  runCliJson,
  startServer,
  startSimulator,
  tempDataDir,
} from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { jpeg } from './support/media-files.js';
import { until } from './support/until.js';

/**
 * The "done when": an embedded server with a flow run waiting, a send and a broadcast the
 * network has not taken (the simulator answers 500 until after the move, so their jobs are retrying)
 * and a media file is stopped, moved to PostgreSQL with `parley move`, and started on it: the flow
 * finishes, each send reaches the simulator once, the file is served, all with the API key made
 * before the move.
 * The simulator runs as its own process so what it received survives the restart.
 */
describe('parley move: the embedded default to PostgreSQL', () => {
  const data = tempDataDir();
  const simToken = randomBytes(16).toString('hex');
  const phone = '919876543210';
  const picture = jpeg(300_000);
  let target: TestDatabase;
  let spare: TestDatabase;
  let third: TestDatabase;
  let port: number;
  let simulator: RunningServer;
  let server: RunningServer | undefined;
  let env: Record<string, string>;
  let apiKey: string;
  let cookie: string;
  let sendId: string;
  let mediaMessageId: string;
  let broadcastId: string;

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
      ...init,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...init.headers },
    });
  const sim = (path: string, body?: unknown) =>
    fetch(`${simulator.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${simToken}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then((r) => r.json() as Promise<Record<string, unknown>>);
  const contactTags = async () => {
    const res = await api('/contacts?limit=10');
    if (res.status !== 200) throw new Error(`GET /contacts answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { contacts: { phone: string; tags: string[] }[] };
    return body.contacts.find((c) => c.phone === phone)?.tags;
  };
  const templatesReceived = async () =>
    ((await sim(`/messages?to=${phone}`)).messages as { type: string }[]).filter(
      (m) => m.type === 'template',
    );
  const mediaFiles = () =>
    existsSync(join(data.dir, 'media'))
      ? readdirSync(join(data.dir, 'media'), { recursive: true, withFileTypes: true }).filter((e) =>
          e.isFile(),
        )
      : [];

  beforeAll(async () => {
    target = await createTestDatabase();
    spare = await createTestDatabase();
    third = await createTestDatabase();
    port = await freePort();
    let simPort = await freePort();
    while (simPort === port) simPort = await freePort();
    simulator = await startSimulator(simPort, {
      SIMULATOR_TOKEN: simToken,
      APP_URL: `http://127.0.0.1:${port}`,
    });
    env = {
      DATA_DIR: data.dir,
      PORT: String(port),
      SIMULATOR_TOKEN: simToken,
      LOG_LEVEL: 'warn',
      JOB_RETRY_DELAY_MAX_SECONDS: '2',
    };
  }, 60_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await simulator?.stop('SIGKILL');
    await target?.drop();
    await spare?.drop();
    await third?.drop();
    data.remove();
  });

  it('runs an embedded server with a waiting flow, a send the network refuses and a media file', async () => {
    server = await startServer([], env);
    const setup = await fetch(`${server.url}/api/app/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-parley-csrf': '1' },
      body: JSON.stringify({
        email: 'owner@example.com',
        password: 'correct horse battery',
        workspace_name: 'Shop',
        default_country_code: '91',
      }),
    });
    expect(setup.status).toBe(201);
    cookie = setup.headers.getSetCookie()[0]!.split(';')[0]!;
    const session = (await (
      await fetch(`${server.url}/api/app/session`, { headers: { cookie } })
    ).json()) as {
      workspace: { id: string };
    };
    const workspaceId = session.workspace.id;
    apiKey = (await runCliJson<{ key: string }>(['apikey', 'create', '--workspace', workspaceId], env)).key;

    const number = {
      phoneNumberId: '106540352242922',
      businessAccountId: '102290129340398',
      displayPhone: '+1 555 0199',
      accessToken: 'EAAsim-move-test',
      appSecret: 'move-test-app-secret',
    };
    expect(
      await sim('/numbers', {
        ...number,
        webhookUrl: `http://127.0.0.1:${port}/api/webhooks/whatsapp`,
        templates: [
          { name: 'hello', language: 'en_US', category: 'UTILITY', body: 'Hello!', status: 'APPROVED' },
        ],
      }),
    ).toEqual({ ok: true });
    const connected = await runCliJson<{ templates_synced: number }>(
      [
        'number',
        'connect',
        '--workspace',
        workspaceId,
        '--phone-number-id',
        number.phoneNumberId,
        '--business-account-id',
        number.businessAccountId,
        '--display-phone',
        number.displayPhone,
        '--graph-url',
        simulator.url,
      ],
      {
        ...env,
        WHATSAPP_ACCESS_TOKEN: number.accessToken,
        WHATSAPP_APP_SECRET: number.appSecret,
        WHATSAPP_VERIFY_TOKEN: 'move-test-verify',
      },
    );
    expect(connected.templates_synced).toBe(1);

    // A customer's picture: downloaded by the media job into DATA_DIR/media.
    await sim('/inbound', {
      from: phone,
      phone_number_id: number.phoneNumberId,
      message: { type: 'image', image: { caption: 'the menu' } },
      media: { mime_type: 'image/jpeg', data_base64: picture.toString('base64') },
    });
    await until(() => mediaFiles().length === 1);
    const inbound = (await (
      await fetch(`${server.url}/api/app/messages?direction=inbound`, { headers: { cookie } })
    ).json()) as { messages: { id: string; type: string }[] };
    mediaMessageId = inbound.messages.find((m) => m.type === 'image')!.id;

    // A flow that waits past the move, then tags the contact.
    const flowFile = join(data.dir, 'flow.json');
    writeFileSync(
      flowFile,
      JSON.stringify({
        name: 'Wait across the move',
        trigger: { type: 'event', event: 'trial' },
        steps: [
          { id: 'pause', type: 'wait', duration: '15s' },
          { id: 'tag', type: 'add_tag', tag: 'trial-day-2' },
        ],
      }),
    );
    await runCliJson(['flow', 'create', '--workspace', workspaceId, '--file', flowFile, '--publish'], env);
    const event = await api('/events', { method: 'POST', body: JSON.stringify({ phone, event: 'trial' }) });
    expect(((await event.json()) as { flows_started: number }).flows_started).toBe(1);

    // The network answers 500 to every send: the message is queued and its job keeps retrying.
    await sim('/control', { serverErrorRate: 1 });
    const sent = await api('/messages', {
      method: 'POST',
      body: JSON.stringify({ to: phone, type: 'template', template: { name: 'hello', language: 'en_US' } }),
    });
    expect(sent.status).toBe(201);
    const message = (await sent.json()) as { id: string; status: string };
    expect(message.status).toBe('queued');
    sendId = message.id;
    // A broadcast to every contact (the one there is) of the same template, in flight while refused.
    const broadcast = await api('/broadcasts', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Menu',
        template: { name: 'hello', language: 'en_US' },
        audience: {},
        values: {},
      }),
    });
    expect(broadcast.status).toBe(201);
    broadcastId = ((await broadcast.json()) as { broadcast: { id: string } }).broadcast.id;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(((await (await api(`/messages/${sendId}`)).json()) as { status: string }).status).toBe('queued');
    expect(await contactTags()).toEqual([]);
  }, 120_000);

  it('refuses while the server runs on the data directory, and when the target cannot be reached', async () => {
    const running = await runCli(['move', '--to', target.url!], env);
    expect(running.code).toBe(1);
    expect(running.stderr).toMatch(
      new RegExp(`^parley: a Parley server \\(process \\d+\\) is running on ${data.dir}: stop it first`),
    );
    expect(running.stderr.split('\n').filter(Boolean)).toHaveLength(1);

    // The run still waits, and the send and the broadcast still wait for the network, when the server stops.
    expect(await contactTags()).toEqual([]);
    expect(((await (await api(`/messages/${sendId}`)).json()) as { status: string }).status).toBe('queued');
    const inFlight = (await (await api(`/broadcasts/${broadcastId}`)).json()) as {
      broadcast: { status: string; counts: { sent: number } };
    };
    expect(inFlight.broadcast).toMatchObject({ status: 'sending', counts: { sent: 0 } });
    expect(await server!.stop('SIGTERM')).toBe(0);
    server = undefined;
    const unreachable = await runCli(['move', '--to', 'postgres://postgres@127.0.0.1:1/nothing'], env);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^parley: cannot reach the PostgreSQL database 127\.0\.0\.1:1\/nothing/,
    );
    const noData = await runCli(['move', '--to', target.url!], { ...env, DATA_DIR: join(data.dir, 'media') });
    expect(noData.code).toBe(1);
    expect(noData.stderr).toMatch(/holds no embedded database/);
  }, 60_000);

  it('says in a dry run what would move, and writes nothing', async () => {
    const report = await runCliJson<{
      dryRun: boolean;
      tables: { name: string; source: number; target: number | null }[];
      jobs: { name: string; source: number }[];
      media: { files: number; bytes: number };
    }>(['move', '--to', target.url!, '--dry-run'], env);
    expect(report.dryRun).toBe(true);
    const rows = Object.fromEntries(report.tables.map((t) => [t.name, t.source]));
    expect(rows).toMatchObject({ workspaces: 1, users: 1, api_keys: 1, runs: 1, contacts: 1 });
    // The picture, the direct send and the broadcast's.
    expect(rows.messages).toBe(3);
    expect(report.tables.every((t) => t.target === null)).toBe(true);
    // The sends' jobs retrying, and the run's next step waiting in the queue until its time.
    expect(report.jobs).toContainEqual({ name: 'automation.step', source: 1, target: null });
    expect(report.jobs.find((j) => j.name === 'messages.send')?.source).toBeGreaterThanOrEqual(1);
    expect(report.media).toMatchObject({ files: 1, bytes: picture.length });
    const { rows: tables } = await target.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
    );
    expect(tables[0]!.n).toBe(0);
  }, 60_000);

  it('moves every row, the unfinished jobs and the media, compares the counts and keeps the key out of its output', async () => {
    const moved = await runCli(['move', '--to', target.url!], env);
    expect(moved.code, moved.stderr).toBe(0);
    const secretKey = readFileSync(join(data.dir, 'secret.key'), 'utf8').trim();
    expect(moved.stdout).toMatch(/^messages\s+3\s+3$/m);
    expect(moved.stdout).toMatch(/^job queue: messages\.send\s+(\d+)\s+\1$/m);
    expect(moved.stdout).toMatch(/^media files \(filesystem, 0\.3 MB\)\s+1\s+1$/m);
    expect(moved.stdout).not.toMatch(/DIFFERS/);
    expect(moved.stdout).toContain(`PARLEY_SECRET_KEY=$(cat ${join(data.dir, 'secret.key')})`);
    expect(moved.stdout + moved.stderr).not.toContain(secretKey);

    const again = await runCli(['move', '--to', target.url!], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is not empty \(\d+ tables, \d+ queued jobs\): move into a new database/);
  }, 120_000);

  it('serves on PostgreSQL afterwards: the flow finishes, the send reaches the network once, the media is served, with the old key', async () => {
    await sim('/control', { serverErrorRate: 0 });
    server = await startServer([], {
      ...env,
      DATABASE_URL: target.url!,
      PARLEY_SECRET_KEY: readFileSync(join(data.dir, 'secret.key'), 'utf8').trim(),
    });
    // Polled every half second: the API key's rate limit is 300 requests a minute.
    const slowly = async <T>(probe: () => Promise<T>) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      return probe();
    };
    await until(() => slowly(async () => (await contactTags())?.includes('trial-day-2')), 40_000);
    const delivered = await until(
      () =>
        slowly(async () => {
          const m = (await (await api(`/messages/${sendId}`)).json()) as {
            status: string;
            wamid: string | null;
          };
          return m.status !== 'queued' && m;
        }),
      40_000,
    );
    expect(delivered.wamid).toMatch(/^wamid\./);
    // Long enough for a second copy of the send job (one moved twice) to have gone out as well.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const finished = await until(
      () =>
        slowly(async () => {
          const b = (await (await api(`/broadcasts/${broadcastId}`)).json()) as {
            broadcast: { status: string; counts: Record<string, number> };
          };
          return b.broadcast.status === 'completed' && b.broadcast;
        }),
      40_000,
    );
    expect(finished.counts).toMatchObject({ audience: 1, sent: 1, failed: 0 });
    // The direct send and the broadcast's: each reached the network once.
    expect(await templatesReceived()).toHaveLength(2);

    const media = await fetch(`${server.url}/api/app/messages/${mediaMessageId}/media`, {
      headers: { cookie },
    });
    expect(media.status).toBe(200);
    expect(Buffer.from(await media.arrayBuffer()).equals(picture)).toBe(true);
  }, 120_000);

  it('fails when a table did not arrive whole, naming the table', async () => {
    const report = await moveDataDirToPostgres({
      dataDir: data.dir,
      databaseUrl: spare.url!,
      afterLoad: async (tx) => {
        await tx.query('DELETE FROM messages WHERE id = (SELECT min(id) FROM messages)');
      },
    });
    expect(report.ok).toBe(false);
    expect(report.tables.filter((t) => t.source !== t.target)).toEqual([
      { name: 'messages', source: 3, target: 2 },
    ]);
  }, 60_000);

  it('puts the media files into the database with media postgres, where the PostgreSQL store reads them', async () => {
    const report = await moveDataDirToPostgres({
      dataDir: data.dir,
      databaseUrl: third.url!,
      media: 'postgres',
    });
    expect(report.ok).toBe(true);
    expect(report.media).toEqual({ store: 'postgres', files: 1, bytes: picture.length, target: 1 });
    const key = mediaFiles()[0]!;
    const stored = await postgresStore(third.db).get(`${basename(key.parentPath)}/${key.name}`);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(picture)).toBe(true);
  }, 60_000);

  it('needs only a role that owns the target database, no superuser', async () => {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const name = `parley_move_owner_${process.pid}`;
    try {
      await admin.query(`CREATE ROLE ${name} LOGIN NOSUPERUSER`);
      await admin.query(`CREATE DATABASE ${name} OWNER ${name}`);
      const url = new URL(process.env.DATABASE_URL!);
      url.username = name;
      url.pathname = `/${name}`;
      const report = await moveDataDirToPostgres({ dataDir: data.dir, databaseUrl: url.toString() });
      expect(report.ok).toBe(true);
      expect(report.tables.find((t) => t.name === 'messages')).toEqual({
        name: 'messages',
        source: 3,
        target: 3,
      });
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`DROP ROLE IF EXISTS ${name}`);
      await admin.end();
    }
  }, 60_000);
});
