import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAutomation } from '../src/modules/automation/save-automation.js';
import { createForm } from '../src/modules/forms/create-form.js';
import { createTestApp, type TestApp } from './support/app.js';
import { freePort, type RunningServer, startServer } from './support/cli.js';
import { FaultProxy } from './support/fault-proxy.js';
import { until } from './support/until.js';

// While the database is away a request waits about 3 s (1 s before the database is asked on a
// fresh connection, 2 s for that to fail), /readyz 1.5 s; it used to hang past 45 s. The bound
// leaves room for a loaded machine.
const ANSWERED_WITHIN_MS = 5_000;
// /readyz gives up on the database after 1.5 s, whatever the pool does.
const READY_WITHIN_MS = 2_500;
// What the driver says, which must not reach a client.
const DRIVER_TEXT = /ECONN|ETIMEDOUT|terminated|timeout|read timeout|postgres|pg-pool|57P0|SQL/i;

interface Answer {
  name: string;
  status: number;
  ms: number;
  retryAfter: string | null;
  body: string;
}

describe('a database that stops answering or refuses: 503 with Retry-After, then recovery', () => {
  let t: TestApp;
  let proxy: FaultProxy;
  let server: RunningServer;
  let key: string;
  let workspaceId: string;
  let formToken: string;
  let sequence: { id: string; secret: string };
  let client = 0;

  beforeAll(async () => {
    // The test's own pool migrates and seeds the database (PostgreSQL: this file's own database).
    t = await createTestApp();
    const ws = await t.workspace();
    key = ws.key;
    workspaceId = ws.id;
    formToken = (await createForm(t.ctx.db, ws.id)).token;
    const seq = await createAutomation(
      t.ctx,
      ws.id,
      {
        name: 'Outage',
        trigger: { type: 'webhook' },
        steps: [{ id: 'status', type: 'update_lead_status', status: 'contacted' }],
      },
      { publish: true },
    );
    sequence = { id: seq.id, secret: seq.secret! };
    const url = new URL(t.ctx.config.databaseUrl!);
    proxy = await FaultProxy.start({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    server = await startServer([], {
      DATABASE_URL: url.toString(),
      PARLEY_SECRET_KEY: '0'.repeat(64),
      PORT: String(await freePort()),
      // Form posts come "from" a fresh address each, past the 5-a-minute form limit.
      TRUST_PROXY: '1',
      LOG_LEVEL: 'info',
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await proxy?.close();
    await t?.close();
  });

  async function call(name: string, method: string, path: string, body?: unknown): Promise<Answer> {
    const started = Date.now();
    const res = await fetch(server.url + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        'x-forwarded-for': `10.77.${(++client >> 8) & 255}.${client & 255}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return {
      name,
      status: res.status,
      ms: Date.now() - started,
      retryAfter: res.headers.get('retry-after'),
      body: await res.text(),
    };
  }

  const requests = (): (() => Promise<Answer>)[] => [
    () =>
      call('POST /api/v1/contacts', 'POST', '/api/v1/contacts', {
        phone: `+1415555${String(1000 + client).slice(-4)}`,
        name: 'Outage',
      }),
    () => call('GET /api/v1/templates', 'GET', '/api/v1/templates'),
    () =>
      call('POST /api/forms/submit', 'POST', '/api/forms/submit', {
        token: formToken,
        email: `lead${client}@example.com`,
      }),
    () =>
      call(
        'POST /api/automation/webhooks',
        'POST',
        `/api/automation/webhooks/${sequence.id}/${sequence.secret}`,
        {
          name: 'Lead',
          email: `hook${client}@example.com`,
        },
      ),
    // Meta's webhook for a number this server does not have: 404 once the database says so.
    () => call('POST /api/webhooks/whatsapp', 'POST', '/api/webhooks/whatsapp/pn_none', {}),
    () => call('GET /readyz', 'GET', '/readyz'),
  ];

  /** Each request in turn, as a client retrying one at a time would. */
  async function each(): Promise<Answer[]> {
    const answers: Answer[] = [];
    for (const request of requests()) answers.push(await request());
    return answers;
  }

  async function expectServing() {
    const answers = await until(async () => {
      const a = await each();
      return a.every((x) => x.status < 300 || x.status === 404) && a;
    }, 10_000);
    expect(answers.map((a) => a.status)).toEqual([201, 200, 201, 202, 404, 200]);
    return JSON.parse(answers[3]!.body).run_id as string;
  }

  function expectUnavailable(answers: Answer[]) {
    for (const a of answers) {
      expect({ name: a.name, status: a.status, retryAfter: a.retryAfter }).toEqual({
        name: a.name,
        status: 503,
        retryAfter: '5',
      });
      expect(a.ms, a.name).toBeLessThan(a.name === 'GET /readyz' ? READY_WITHIN_MS : ANSWERED_WITHIN_MS);
      // The random request id may spell "sql" by chance; only the words people read are checked.
      expect(a.body.replace(/"request_id":"[^"]*"/, ''), a.name).not.toMatch(DRIVER_TEXT);
    }
    const [contact, templates, form, hook, whatsapp, ready] = answers.map((a) => JSON.parse(a.body));
    for (const rest of [contact, templates, whatsapp]) {
      expect(rest).toMatchObject({ result: false, error: { code: 'unavailable' } });
    }
    for (const intake of [form, hook]) {
      expect(intake).toEqual({ success: false, error: expect.stringMatching(/try again/) });
    }
    expect(ready).toEqual({ status: 'unavailable', reason: 'database unreachable' });
  }

  const logged = (msg: string) =>
    server
      .output()
      .split('\n')
      .filter((l) => l.includes(msg)).length;

  it('answers 503 within seconds while black-holed or refused, and serves again when it returns', async () => {
    await expectServing();

    await proxy.set('blackhole');
    // Together, as clients arriving at once would: none waits on another's timeout.
    expectUnavailable(await Promise.all(requests().map((r) => r())));
    expectUnavailable(await each());
    // Liveness is the process's, not the database's.
    expect((await call('GET /healthz', 'GET', '/healthz')).status).toBe(200);

    await proxy.set('forward');
    await expectServing();

    await proxy.set('refuse');
    expectUnavailable(await each());
    expectUnavailable(await each());

    await proxy.set('forward');
    const runAfter = await expectServing();

    // The job queue polled on through both outages: it runs the sequence of a lead accepted after.
    // (Jobs the outage caught halfway come back later, when their heartbeat has lapsed.)
    await until(async () => {
      const { rows } = await t.ctx.db.query<{ status: string }>(
        'SELECT status FROM runs WHERE workspace_id = $1 AND id = $2',
        [workspaceId, runAfter],
      );
      return rows[0]?.status === 'completed';
    }, 10_000);

    // The process never went down; it stops as it should, and its batched info lines are written.
    expect(server.child.exitCode).toBe(null);
    expect(await server.stop('SIGTERM')).toBe(0);
    // One warning as each outage starts, one line as it ends; no error line for each request.
    expect(logged('The database is unreachable')).toBe(2);
    expect(logged('The database answers again')).toBe(2);
    expect(server.output()).not.toMatch(/"level":50/);
  });
});
