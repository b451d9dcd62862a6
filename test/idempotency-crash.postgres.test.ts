import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAutomation } from '../src/modules/automation/save-automation.js';
import { createTestApp, type TestApp } from './support/app.js';
import { freePort, type RunningServer, startServer } from './support/cli.js';
import { connectedWorkspace, listen, simState } from './support/messaging.js';
import { queueIdle } from './support/queue-idle.js';
import { until } from './support/until.js';

// A server killed with SIGKILL after a request's effect committed and before it answered (the test-only
// fault PARLEY_TEST_HOLD_IDEMPOTENT_ANSWERS holds the answers there: src/modules/idempotency/hooks.ts),
// then the client's retry with
// the same Idempotency-Key once the dead request's lock has run out: answered as the first would
// have been, with nothing done twice. The test process holds the simulator and the database.
let t: TestApp;
let base: string;
let env: Record<string, string>;
const servers: RunningServer[] = [];

beforeAll(async () => {
  t = await createTestApp({ queue: true, role: 'api' });
  base = await listen(t);
  // No status webhooks: the message keeps the state its send left it in.
  simState(t).statusDelaysMs = [-1, -1, -1];
  env = {
    DATABASE_URL: t.ctx.config.databaseUrl!,
    PARLEY_SECRET_KEY: '0'.repeat(64),
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'warn',
  };
});
afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL');
  await t?.close();
});

async function serve(role: 'api' | 'all', extra: Record<string, string> = {}) {
  const port = await freePort();
  const server = await startServer(['--role', role], { ...env, PORT: String(port), ...extra });
  servers.push(server);
  return { server, url: `http://127.0.0.1:${port}` };
}

function post(url: string, path: string, key: string, body: unknown) {
  return fetch(`${url}/api/v1${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
      'idempotency-key': `retry${path}`,
    },
    body: JSON.stringify(body),
  });
}

it('answers a retry after a crash from what committed: one message, one contact, one event and run, one automation', async () => {
  const ws = await connectedWorkspace(t, base);
  await createAutomation(
    t.ctx,
    ws.id,
    {
      name: 'On signup',
      trigger: { type: 'event', event: 'signup' },
      steps: [{ id: 'tag', type: 'add_tag', tag: 'new' }],
    },
    { publish: true },
  );
  const requests: [string, unknown][] = [
    ['/messages', { to: '+14155550401', template: { name: 'welcome', language: 'en', body: ['A', 'B'] } }],
    ['/contacts', { phone: '+14155550402', name: 'Ada' }],
    ['/events', { phone: '+14155550403', event: 'signup' }],
    [
      '/automations',
      {
        name: 'Crash-safe',
        trigger: { type: 'webhook' },
        steps: [{ id: 's', type: 'update_lead_status', status: 'contacted' }],
        published: true,
      },
    ],
  ];

  // The first requests do their work and hang where they would answer; the server dies there.
  const doomed = await serve('api', { PARLEY_TEST_HOLD_IDEMPOTENT_ANSWERS: '1' });
  const firsts = requests.map(([path, body]) =>
    post(doomed.url, path, ws.key, body).then(
      (r) => `answered ${r.status}`,
      () => 'cut',
    ),
  );
  await until(async () => {
    const { rows } = await t.ctx.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM messages WHERE workspace_id = $1 AND status = 'accepted')
            + (SELECT count(*) FROM contacts WHERE workspace_id = $1 AND phone = '14155550402')
            + (SELECT count(*) FROM events WHERE workspace_id = $1)
            + (SELECT count(*) FROM automations WHERE workspace_id = $1 AND name = 'Crash-safe') AS n`,
      [ws.id],
    );
    return Number(rows[0]!.n) === 4;
  });
  await doomed.server.stop('SIGKILL');
  expect(await Promise.all(firsts)).toEqual(['cut', 'cut', 'cut', 'cut']);
  // The dead requests' locks run out (60 s in production).
  await t.ctx.db.query(
    "UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE workspace_id = $1 AND locked_until IS NOT NULL",
    [ws.id],
  );

  const { url } = await serve('all');
  const [message, contact, event, automation] = await Promise.all(
    requests.map(async ([path, body]) => {
      const res = await post(url, path, ws.key, body);
      return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.json() };
    }),
  );

  const messages = await t.ctx.db.query<{ id: string; wamid: string; status: string }>(
    'SELECT id, wamid, status FROM messages WHERE workspace_id = $1',
    [ws.id],
  );
  expect(messages.rows).toHaveLength(1);
  const [m] = messages.rows;
  expect(m!.status).toBe('accepted');
  expect(simState(t).messages.filter((s) => s.to === '14155550401')).toHaveLength(1);
  expect(message).toEqual({
    status: 201,
    replayed: 'true',
    body: { result: true, id: m!.id, wamid: m!.wamid, status: 'accepted' },
  });

  const contacts = await t.ctx.db.query<{ id: string }>(
    "SELECT id FROM contacts WHERE workspace_id = $1 AND phone = '14155550402'",
    [ws.id],
  );
  expect(contacts.rows).toHaveLength(1);
  // The first request created the contact: its answer is 201 created, not the 200 of an update.
  expect(contact).toEqual({
    status: 201,
    replayed: 'true',
    body: { result: true, id: contacts.rows[0]!.id, created: true },
  });

  const events = await t.ctx.db.query<{ id: string }>('SELECT id FROM events WHERE workspace_id = $1', [
    ws.id,
  ]);
  expect(events.rows).toHaveLength(1);
  expect(event).toEqual({
    status: 202,
    replayed: 'true',
    body: { result: true, id: events.rows[0]!.id, flows_started: 1 },
  });
  // The sequence was created and published once; the retry answers its secret as the first would have.
  const automations = await t.ctx.db.query<{ id: string; published_version: number }>(
    "SELECT id, published_version FROM automations WHERE workspace_id = $1 AND name = 'Crash-safe'",
    [ws.id],
  );
  expect(automations.rows).toEqual([{ id: expect.any(String), published_version: 1 }]);
  const id = automations.rows[0]!.id;
  expect(automation).toEqual({
    status: 201,
    replayed: 'true',
    body: {
      result: true,
      id,
      kind: 'sequence',
      published: true,
      webhook: {
        url: expect.stringContaining(`/api/automation/webhooks/${id}/whsec_`),
        url_without_secret: expect.stringContaining(`/api/automation/webhooks/${id}`),
        secret: expect.stringMatching(/^whsec_/),
      },
    },
  });
  await queueIdle(t.ctx.db, ['automation.start', 'automation.step']);
  const runs = await t.ctx.db.query('SELECT id FROM runs WHERE workspace_id = $1', [ws.id]);
  expect(runs.rows).toHaveLength(1);
}, 60_000);
