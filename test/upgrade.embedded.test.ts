import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/pglite.js';
import { type RunningServer, runCliJson, startServer, tempDataDir } from './support/cli.js';
import { until } from './support/until.js';

/**
 * The previous release's data directory (test/fixtures/upgrade, made by scripts/make-upgrade-fixture.mjs)
 * upgraded as docs/operations.md (Upgrading) says: this version's `parley migrate`, then `parley serve`.
 */
const FIXTURE_DIR = join(import.meta.dirname, 'fixtures/upgrade');
const MIGRATIONS_DIR = join(import.meta.dirname, '../migrations');
const fixture = JSON.parse(readFileSync(join(FIXTURE_DIR, 'fixture.json'), 'utf8'));
const release = `release ${fixture.release.version} (${fixture.release.commit})`;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
// JSON.parse's any: each reply is checked by the assertions on it.
const read = async (res: Response) => JSON.parse(await res.text());

function currentMigrations(): { name: string; sha256: string }[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sha256: sha256(readFileSync(join(MIGRATIONS_DIR, name))) }));
}

/** Why this version's migrations do not start with the release's, unchanged and in order; null when they do. */
function migrationsGoForward(
  released: { name: string; sha256: string }[],
  current: { name: string; sha256: string }[],
): string | null {
  const rule = `migrations only go forward: a migration a release shipped is never edited, renamed or removed, and a new one sorts after ${released.at(-1)?.name}`;
  for (const [i, shipped] of released.entries()) {
    const now = current[i];
    const same = current.find((m) => m.name === shipped.name);
    if (now?.name === shipped.name && now.sha256 === shipped.sha256) continue;
    if (same && same.sha256 !== shipped.sha256)
      return `${rule}; ${shipped.name}, shipped in ${release}, was edited`;
    if (!same) return `${rule}; ${shipped.name}, shipped in ${release}, is gone (renamed or removed)`;
    return `${rule}; ${now?.name} sorts among the migrations ${release} shipped`;
  }
  return null;
}

it(`keeps the migrations ${release} shipped as they were, first and in order`, () => {
  expect(migrationsGoForward(fixture.migrations, currentMigrations())).toBeNull();
});

describe(`upgrading the data directory of ${release}`, () => {
  const data = tempDataDir();
  const env = {
    DATA_DIR: data.dir,
    // The fixture's number is on the simulator at its server's address, and its webhook endpoint
    // at its receiver's: both as the release wrote them.
    PORT: String(fixture.app_port),
    LOG_LEVEL: 'warn',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
  };
  const app = `http://127.0.0.1:${fixture.app_port}`;
  const hooks: { headers: Record<string, string>; body: string }[] = [];
  let receiver: Server;
  let server: RunningServer;
  let migrated: string[];

  const v1 = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${app}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${fixture.api_key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: await read(res) };
  };
  const simulated = async (to: string) =>
    (
      await read(
        await fetch(`${app}/_sim/messages?to=${to}`, {
          headers: { authorization: `Bearer ${fixture.simulator_token}` },
        }),
      )
    ).messages as { wamid: string; payload: unknown }[];

  beforeAll(async () => {
    await extract({ file: join(FIXTURE_DIR, 'data-dir.tar.gz'), cwd: data.dir });
    // The fixture stands for a server stopped just before its upgrade. pg-boss's maintenance deletes a
    // queued job 14 days after its start time, so the queued jobs (the waiting run's next step) get the
    // fixture's age back, lest they race the deletion; nothing else in it is touched.
    const db = await openPglite(join(data.dir, 'pg'));
    await db.query(
      `UPDATE pgboss.job SET keep_until = keep_until + (now() - $1::timestamptz) WHERE state < 'active'`,
      [fixture.made_at],
    );
    await db.close();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        hooks.push({ headers: req.headers as Record<string, string>, body });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(fixture.hook_port, '127.0.0.1', resolve));
    migrated = (await runCliJson<{ applied: string[] }>(['migrate'], env)).applied;
    server = await startServer([], env);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
    data.remove();
  });

  it('has `parley migrate` apply the migrations newer than the release, and no other', () => {
    expect(migrated).toEqual(
      currentMigrations()
        .slice(fixture.migrations.length)
        .map((m) => m.name),
    );
  });

  it('serves the contacts and messages, with their statuses, to the old API key', async () => {
    const { contacts } = (await v1('GET', '/contacts?limit=100')).json;
    expect(contacts.map((c: { id: string }) => c.id).sort()).toEqual(
      Object.values(fixture.contacts as Record<string, { id: string }>)
        .map((c) => c.id)
        .sort(),
    );
    expect(contacts.find((c: { id: string }) => c.id === fixture.contacts.asha.id)).toMatchObject({
      phone: fixture.contacts.asha.phone,
      email: 'asha@example.com',
      tags: expect.arrayContaining(['vip']),
      traits: { city: 'Pune' },
    });
    for (const sent of [fixture.messages.template, fixture.messages.text]) {
      const { status, json } = await v1('GET', `/messages/${sent.id}`);
      expect(status).toBe(200);
      expect(json).toMatchObject({ direction: 'outbound', to: sent.to, status: sent.status });
    }
    const image = (await v1('GET', `/messages/${fixture.messages.inbound_image.id}`)).json;
    expect(image).toMatchObject({ direction: 'inbound', type: 'image' });
    // Conversations from before 0041 began with their contact's first message.
    const { conversations } = (await v1('GET', '/conversations?limit=100')).json;
    expect(conversations.length).toBeGreaterThan(0);
    for (const c of conversations as { id: string; created_at: string }[]) {
      const { messages } = (await v1('GET', `/conversations/${c.id}/messages?limit=100`)).json;
      expect(c.created_at).toBe(messages.at(-1).created_at);
    }
  });

  describe('signed in as the owner with the old password', () => {
    let cookie: string;
    let csrf: string;
    const web = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${app}/api/app${path}`, {
        method,
        headers: {
          cookie,
          'x-parley-csrf': csrf,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res;
    };

    beforeAll(async () => {
      const login = await fetch(`${app}/api/app/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-parley-csrf': '1' },
        body: JSON.stringify(fixture.owner),
      });
      expect(login.status).toBe(200);
      cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const session = await read(await fetch(`${app}/api/app/session`, { headers: { cookie } }));
      expect(session).toMatchObject({
        authenticated: true,
        role: 'owner',
        workspace: { id: fixture.workspace_id },
      });
      csrf = session.csrf_token;
    });

    it('shows the lead, the templates and the stored image with its bytes', async () => {
      const lead = await read(await web('GET', `/leads/${fixture.lead.id}`));
      expect(lead.lead).toMatchObject({
        id: fixture.lead.id,
        phone: fixture.lead.phone,
        email: fixture.lead.email,
      });

      const { templates } = await read(await web('GET', '/templates'));
      const status = Object.fromEntries(
        templates.map((t: { name: string; status: string }) => [t.name, t.status]),
      );
      for (const name of fixture.templates.approved) expect(status[name]).toBe('APPROVED');
      for (const name of fixture.templates.pending) expect(status[name]).toBe('PENDING');

      const media = await web('GET', `/messages/${fixture.messages.inbound_image.id}/media`);
      expect(media.status).toBe(200);
      expect(media.headers.get('content-type')).toBe('image/png');
      expect(sha256(Buffer.from(await media.arrayBuffer()))).toBe(fixture.messages.inbound_image.sha256);
    });

    it("finishes the run that was waiting, sending through the number's stored token", async () => {
      const waitEnds = Date.parse(fixture.flow.wait_until) - Date.now();
      const run = await until(async () => {
        const { run } = await read(await web('GET', `/runs/${fixture.flow.run_id}`));
        return run.status === 'completed' && run;
      }, Math.max(0, waitEnds) + 30_000);
      expect(run.steps.map((s: { step_id: string; status: string }) => [s.step_id, s.status])).toEqual([
        ['hello', 'done'],
        ['pause', 'done'],
        ['tag', 'done'],
        ['later', 'done'],
      ]);
      const { contacts } = (await v1('GET', '/contacts?limit=100')).json;
      expect(contacts.find((c: { id: string }) => c.id === fixture.contacts.asha.id).tags).toContain(
        'followed_up',
      );
      // The step queued the send; the send job hands it to the network.
      const shipped = await until(async () => {
        const all = await simulated(fixture.contacts.asha.phone);
        const found = all.filter((m) => JSON.stringify(m.payload).includes('shipped'));
        return found.length > 0 && found;
      });
      expect(shipped).toHaveLength(1);
    }, 90_000);

    it("sends anew, and the number's status webhooks (signed with its stored app secret) are taken", async () => {
      const { status, json } = await v1('POST', '/messages', {
        to: fixture.contacts.ravi.phone,
        template: { name: 'upgrade_notice', language: 'en', body: ['0.2.0'] },
      });
      expect(status).toBe(201);
      await until(async () => (await v1('GET', `/messages/${json.id}`)).json.status === 'read');
      const reached = await simulated(fixture.contacts.ravi.phone);
      expect(reached.filter((m) => JSON.stringify(m.payload).includes('upgrade_notice'))).toHaveLength(1);
    });

    it("delivers webhook events signed with the endpoint's stored secret", async () => {
      const { endpoints } = await read(await web('GET', '/webhooks'));
      expect(endpoints).toEqual([
        expect.objectContaining({ id: fixture.webhook.id, url: fixture.webhook.url }),
      ]);
      const submitted = await fetch(`${app}/api/forms/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: fixture.form.token, name: 'Nia', phone: '919800000009' }),
      });
      expect(submitted.status).toBe(201);
      const { lead_id } = await read(submitted);
      const delivery = await until(() => hooks.find((h) => h.body.includes(lead_id)));
      const verified = new Webhook(fixture.webhook.secret).verify(delivery.body, delivery.headers) as {
        type: string;
      };
      expect(verified.type).toBe('lead.created');
    });
  });
});
