import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/pglite.js';
import {
  type CliResult,
  freePort,
  type RunningServer,
  runCli,
  runCliJson,
  startServer,
  tempDataDir,
} from './support/cli.js';
import { jpeg, multipart } from './support/media-files.js';
import { until } from './support/until.js';

const CLI = join(import.meta.dirname, '../dist/cli/main.js');

/** `parley backup` as a child process the test can kill. */
function spawnBackup(
  out: string,
  env: Record<string, string>,
): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, 'backup', '--out', out, '--json'], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) =>
    child.once('exit', (code) => resolve({ code: code ?? 1, stdout, stderr })),
  );
  return { child, done };
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

interface Accepted {
  contacts: string[];
  messages: string[];
  leads: string[];
}

describe('parley backup and restore on the embedded database', () => {
  const data = tempDataDir();
  const restored = tempDataDir();
  const archive = join(data.dir, '..', `${data.dir.split('/').pop()}-backup.tar.gz`);
  let env: Record<string, string>;
  let server: RunningServer;
  let keys: string[];
  let formToken: string;
  let workspaceId: string;

  beforeAll(async () => {
    env = { DATA_DIR: data.dir, PORT: String(await freePort()), LOG_LEVEL: 'warn', TRUST_PROXY: 'true' };
    server = await startServer([], env);
    const demo = await runCliJson<{ workspace_id: string; api_key: string; form: { token: string } }>(
      ['demo'],
      env,
    );
    formToken = demo.form.token;
    workspaceId = demo.workspace_id;
    // API requests are limited per key (300 a minute): the load spreads over several.
    keys = [demo.api_key];
    for (let i = 0; i < 5; i++)
      keys.push(String((await runCliJson(['apikey', 'create', '--workspace', demo.workspace_id], env)).key));
    // Media in the store, to be carried by the backup.
    for (const size of [200_000, 300_000]) {
      const body = multipart([
        { name: 'file', file: jpeg(size), filename: 'receipt.jpg', type: 'image/jpeg' },
      ]);
      const res = await fetch(`${server.url}/api/v1/media`, {
        method: 'POST',
        headers: { 'x-api-key': demo.api_key, ...body.headers },
        body: body.payload,
      });
      expect(res.status).toBe(200);
    }
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    data.remove();
    restored.remove();
    const dir = join(archive, '..');
    for (const f of readdirSync(dir).filter((f) => f.startsWith(archive.split('/').pop()!)))
      rmSync(join(dir, f), { force: true });
  });

  /** Requests in a loop, three kinds at once, each recording what the server answered 201 to and when. */
  function load() {
    const answered: { at: number; kind: keyof Accepted; id: string }[] = [];
    const latencies: { at: number; ms: number }[] = [];
    let stop = false;
    let n = 0;
    const api = (path: string, body: unknown) =>
      fetch(`${server.url}/api/v1${path}`, {
        method: 'POST',
        headers: { 'x-api-key': keys[n++ % keys.length]!, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const loop = async (kind: keyof Accepted, send: (i: number) => Promise<string | null>) => {
      for (let i = 0; !stop; i++) {
        const sent = performance.now();
        const id = await send(i);
        const at = performance.now();
        latencies.push({ at, ms: at - sent });
        if (id) answered.push({ at, kind, id });
      }
    };
    const phone = (kind: number, i: number) => `+1415${kind}${String(i).padStart(6, '0')}`;
    const running = Promise.all([
      loop('contacts', async (i) => {
        const res = await api('/contacts', { phone: phone(1, i), name: `Contact ${i}` });
        return res.status === 201 ? phone(1, i) : null;
      }),
      loop('messages', async (i) => {
        const res = await api('/messages', {
          to: phone(2, i),
          template: { name: 'welcome', language: 'en', body: ['Asha', 'Parley'] },
        });
        return res.status === 201 ? ((await res.json()) as { id: string }).id : null;
      }),
      loop('leads', async (i) => {
        const res = await fetch(`${server.url}/api/forms/submit`, {
          method: 'POST',
          // Forms are limited per client address: each lead comes from another one.
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.${i >> 8}.${i & 255}` },
          body: JSON.stringify({ token: formToken, name: `Lead ${i}`, phone: phone(3, i) }),
        });
        return res.status === 201 ? ((await res.json()) as { lead_id: string }).lead_id : null;
      }),
    ]);
    return {
      answered,
      latencies,
      async stop() {
        stop = true;
        await running;
      },
    };
  }

  it('backs up a server under load: restored elsewhere, every request answered before the backup began is there', async () => {
    const traffic = load();
    await until(() => traffic.answered.filter((a) => a.kind === 'leads').length >= 20, 60_000);
    const started = performance.now();
    const backup = spawnBackup(archive, env);
    const result = await backup.done;
    const finished = performance.now();
    const during = traffic.answered.filter((a) => a.at > started && a.at < finished).length;
    const slowest = Math.max(
      ...traffic.latencies.filter((l) => l.at > started && l.at < finished).map((l) => l.ms),
    );
    const usual = traffic.latencies
      .filter((l) => l.at < started)
      .map((l) => l.ms)
      .sort((a, b) => a - b);
    await traffic.stop();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/holds the secret key/);
    const summary = JSON.parse(result.stdout) as { file: string; held_ms: number; migrations: number };
    expect(summary.file).toBe(archive);
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    // The server kept answering while the backup ran.
    expect(during).toBeGreaterThan(0);

    const before: Accepted = { contacts: [], messages: [], leads: [] };
    for (const a of traffic.answered) if (a.at < started) before[a.kind].push(a.id);
    const all: Accepted = { contacts: [], messages: [], leads: [] };
    for (const a of traffic.answered) all[a.kind].push(a.id);

    const restore = await runCliJson(['restore', '--in', archive], {
      DATA_DIR: restored.dir,
      LOG_LEVEL: 'warn',
    });
    expect(restore).toMatchObject({ data_dir: restored.dir, migrations_to_apply: 0 });
    expect(sha256(join(restored.dir, 'secret.key'))).toBe(sha256(join(data.dir, 'secret.key')));
    const media = (dir: string) =>
      readdirSync(join(dir, 'media'), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => `${e.name}:${sha256(join(e.parentPath, e.name))}`)
        .sort();
    expect(media(restored.dir)).toHaveLength(2);
    expect(media(restored.dir)).toEqual(media(data.dir));
    expect(restore).toMatchObject({ media_files: 2 });

    const second = await startServer([], { ...env, DATA_DIR: restored.dir, PORT: String(await freePort()) });
    try {
      const listed = new Set<string>();
      for (let offset = 0; ; offset += 100) {
        const res = await fetch(`${second.url}/api/v1/contacts?limit=100&offset=${offset}`, {
          headers: { 'x-api-key': keys[0]! },
        });
        expect(res.status).toBe(200);
        const page = (await res.json()) as { contacts: { phone: string }[]; has_next_page: boolean };
        for (const c of page.contacts) listed.add(c.phone);
        if (!page.has_next_page) break;
      }
      for (const phone of before.contacts) expect(listed, phone).toContain(phone);
      for (const id of before.messages) {
        const res = await fetch(`${second.url}/api/v1/messages/${id}`, {
          headers: { 'x-api-key': keys[1]! },
        });
        expect(res.status, id).toBe(200);
      }
    } finally {
      await second.stop();
    }
    const db = await openPglite(join(restored.dir, 'pg'));
    try {
      const leads = new Set(
        (await db.query<{ id: string }>("SELECT id FROM leads WHERE name LIKE 'Lead %'")).rows.map(
          (r) => r.id,
        ),
      );
      for (const id of before.leads) expect(leads, id).toContain(id);
      // Nothing half-written: every restored lead and message is one the server answered 201 to, whole.
      for (const id of leads) expect(all.leads).toContain(id);
      const messages = await db.query<{ id: string; contact: string | null }>(
        `SELECT m.id, c.id AS contact FROM messages m
         LEFT JOIN contacts c ON c.workspace_id = m.workspace_id AND c.id = m.contact_id
         WHERE m.phone LIKE '%14152%'`,
      );
      for (const m of messages.rows) {
        expect(all.messages).toContain(m.id);
        expect(m.contact).not.toBeNull();
      }
    } finally {
      await db.close();
    }
    process.stdout.write(
      `backup under load: ${before.contacts.length + before.messages.length + before.leads.length} requests answered before it, ${during} while it ran, queries held ${summary.held_ms} ms; slowest answer while it ran ${Math.round(slowest)} ms, median before ${Math.round(usual[usual.length >> 1]!)} ms\n`,
    );
  }, 240_000);

  it('survives kill -9 while writing the archive: the server serves, the previous backup is whole and restores', async () => {
    const previous = sha256(archive);
    let killed: { child: ChildProcess; done: Promise<CliResult> } | null = null;
    const prefix = `${archive.split('/').pop()}.partial-`;
    const dir = join(archive, '..');
    for (let attempt = 0; attempt < 3 && !killed; attempt++) {
      const backup = spawnBackup(archive, env);
      const partial = await until(
        () =>
          readdirSync(dir).find((f) => f.startsWith(prefix) && statSync(join(dir, f)).size > 0) ??
          backup.child.exitCode !== null,
        60_000,
      );
      if (typeof partial === 'string') {
        backup.child.kill('SIGKILL');
        killed = backup;
      }
      await backup.done;
    }
    expect(killed).not.toBeNull();
    expect((await killed!.done).code).not.toBe(0);
    expect(sha256(archive)).toBe(previous);
    expect(readdirSync(dir).some((f) => f.startsWith(prefix))).toBe(true);

    // A key of its own: the load above used up the others' minute.
    const fresh = await runCliJson(['apikey', 'create', '--workspace', workspaceId], env);
    const res = await fetch(`${server.url}/api/v1/contacts`, {
      method: 'POST',
      headers: { 'x-api-key': String(fresh.key), 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '+14159990001' }),
    });
    expect(res.status).toBe(201);

    const again = tempDataDir();
    try {
      const r = await runCli(['restore', '--in', archive], { DATA_DIR: again.dir, LOG_LEVEL: 'warn' });
      expect(r.code, r.stderr).toBe(0);
      expect(existsSync(join(again.dir, 'pg', 'PG_VERSION'))).toBe(true);
    } finally {
      again.remove();
    }

    // The next backup clears what the killed one left: its partial file and its staging directory.
    const next = await runCli(['backup', '--out', archive], env);
    expect(next.code, next.stderr).toBe(0);
    expect(readdirSync(dir).filter((f) => f.startsWith(prefix))).toEqual([]);
    expect(readdirSync(data.dir).filter((f) => f.startsWith('backup-staging-'))).toEqual([]);
  }, 240_000);
});
