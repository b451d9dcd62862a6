import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createApiKey } from '../src/modules/api-keys/create-api-key.js';
import { createAutomation } from '../src/modules/automation/save-automation.js';
import { Cluster, pidOfPeer } from './support/cluster.js';
import { connectedWorkspace, simState } from './support/messaging.js';
import { until } from './support/until.js';

// Two `serve --role api` and two `serve --role worker` processes on one PostgreSQL database with
// shared Redis: the rate limit holds across instances, jobs are shared without duplicates, and a
// worker killed with SIGKILL has its jobs finished by the other.
let cluster: Cluster;
let ws: Awaited<ReturnType<typeof connectedWorkspace>>;

interface Hit {
  key: string;
  pid: number | null;
  res: ServerResponse;
}
const hits: Hit[] = [];
let hold = false;
// How long the CRM takes to answer: long enough, where a test needs it, that one worker's batch is
// still busy when the other one polls (the worker that drained the events is woken at once).
let answerAfterMs = 0;
const receiver = createServer((req: IncomingMessage, res) => {
  const port = req.socket.remotePort!;
  const early = pidOfPeer(port, workerPids());
  req.resume();
  req.on('end', () => {
    // On a loaded machine the first look can miss the peer's descriptor: look once more.
    const pid = early ?? pidOfPeer(port, workerPids());
    hits.push({ key: String(req.headers['idempotency-key']), pid, res });
    if (!hold) setTimeout(() => res.writeHead(200).end('ok'), answerAfterMs);
  });
});
const workerPids = () => cluster.workers.flatMap((w) => (w?.child.pid ? [w.child.pid] : []));

beforeAll(async () => {
  cluster = await Cluster.start({ apis: 2, workers: 2 });
  ws = await connectedWorkspace(cluster.t, cluster.base);
  simState(cluster.t).statusDelaysMs = [-1, -1, -1];
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
}, 120_000);
afterAll(async () => {
  receiver.closeAllConnections();
  receiver.close();
  await cluster?.stop();
});

const post = (i: number, path: string, body: unknown) =>
  fetch(`${cluster.apiUrl(i)}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ws.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function flow(event: string) {
  const { port } = receiver.address() as { port: number };
  return createAutomation(
    cluster.t.ctx,
    ws.id,
    {
      name: event,
      trigger: { type: 'event', event },
      steps: [
        {
          id: 'send',
          type: 'send_template',
          template: { name: 'welcome', language: 'en', body: ['A', 'B'] },
        },
        { id: 'crm', type: 'http_request', url: `http://127.0.0.1:${port}/crm`, body: '{}' },
        { id: 'tag', type: 'add_tag', tag: event },
      ],
    },
    { publish: true },
  );
}

async function runsOf(automationId: string) {
  const { rows } = await cluster.t.ctx.db.query<{ id: string; status: string; phone: string }>(
    `SELECT r.id, r.status, c.phone FROM runs r JOIN contacts c ON c.workspace_id = r.workspace_id AND c.id = r.contact_id
     WHERE r.workspace_id = $1 AND r.automation_id = $2`,
    [ws.id, automationId],
  );
  return rows;
}

async function stepsOf(automationId: string) {
  const { rows } = await cluster.t.ctx.db.query<{
    run_id: string;
    step_id: string;
    status: string;
    attempts: number;
  }>(
    `SELECT s.run_id, s.step_id, s.status, s.attempts FROM run_steps s JOIN runs r
       ON r.workspace_id = s.workspace_id AND r.id = s.run_id
     WHERE s.workspace_id = $1 AND r.automation_id = $2`,
    [ws.id, automationId],
  );
  return rows;
}

/** Each phone got exactly one message at the simulator. */
function expectOneMessageEach(phones: string[]) {
  const received = simState(cluster.t).messages.filter((m) => phones.includes(m.to));
  expect(received.map((m) => m.to).sort()).toEqual([...phones].sort());
}

describe('two API instances and two workers', () => {
  it('hold the rate limit at exactly 300 a minute per key across both API instances', async () => {
    const statuses: { instance: number; status: number }[] = [];
    const requests = Array.from({ length: 360 }, (_, i) => i);
    // 12 at a time, alternating instances.
    for (let i = 0; i < requests.length; i += 12) {
      await Promise.all(
        requests.slice(i, i + 12).map(async (n) => {
          const res = await fetch(`${cluster.apiUrl(n)}/api/v1/templates`, {
            headers: { authorization: `Bearer ${ws.key}` },
          });
          await res.arrayBuffer();
          statuses.push({ instance: n % 2, status: res.status });
        }),
      );
    }
    const ok = statuses.filter((s) => s.status === 200);
    expect(ok).toHaveLength(300);
    expect(statuses.filter((s) => s.status === 429)).toHaveLength(60);
    expect(new Set(ok.map((s) => s.instance))).toEqual(new Set([0, 1]));
  }, 120_000);

  it('share the jobs without duplicates: every run completes with each step once, on both workers', async () => {
    // The previous test used up this key's minute; a second key of the same workspace is fresh.
    ws.key = (await createApiKey(cluster.t.ctx.db, ws.id)).key;
    answerAfterMs = 1_500;
    onTestFinished(() => {
      answerAfterMs = 0;
    });
    const f = await flow('shared');
    const phones = Array.from({ length: 30 }, (_, i) => `1415555${3000 + i}`);
    const answers = await Promise.all(
      phones.map((p, i) => post(i, '/events', { phone: `+${p}`, event: 'shared' })),
    );
    expect(answers.map((r) => r.status)).toEqual(phones.map(() => 202));

    const runs = await until(async () => {
      const r = await runsOf(f.id);
      return r.length === phones.length && r.every((x) => x.status === 'completed') && r;
    }, 90_000);
    expectOneMessageEach(phones);
    const steps = await stepsOf(f.id);
    expect(steps).toHaveLength(phones.length * 3);
    expect(steps.every((s) => s.status === 'done' && s.attempts === 1)).toBe(true);
    const crm = hits.filter((h) => runs.some((r) => h.key === `${r.id}/crm`));
    expect(crm.map((h) => h.key).sort()).toEqual(runs.map((r) => `${r.id}/crm`).sort());
    // Both worker processes made some of the HTTP steps. A request whose sender could not be told
    // (its line missed in a read of /proc/net/tcp, which is not atomic under load) counts for neither.
    expect(new Set(crm.flatMap((h) => (h.pid === null ? [] : [h.pid])))).toEqual(new Set(workerPids()));
  }, 120_000);

  it('hand a killed worker’s jobs to the other', async () => {
    const f = await flow('killed');
    const phones = Array.from({ length: 6 }, (_, i) => `1415555${4000 + i}`);
    hold = true;
    const before = hits.length;
    for (const [i, p] of phones.entries()) {
      expect((await post(i, '/events', { phone: `+${p}`, event: 'killed' })).status).toBe(202);
    }
    // Each worker is inside an HTTP step, waiting for its answer.
    const [victimPid, survivorPid] = [cluster.workers[0]!.child.pid!, cluster.workers[1]!.child.pid!];
    await until(() => {
      const pids = new Set(hits.slice(before).map((h) => h.pid));
      return pids.has(victimPid) && pids.has(survivorPid);
    }, 60_000);
    // A worker takes steps in batches: every step the victim was inside of dies with it.
    const held = hits.slice(before).filter((h) => h.pid === victimPid);
    await cluster.kill('worker', 0);
    for (const h of held) h.res.destroy();
    hold = false;
    for (const h of hits.slice(before))
      if (!h.res.headersSent && !h.res.destroyed) h.res.writeHead(200).end('ok');

    // The steps come back once their heartbeat lapses (10 s) and the survivor finishes every run.
    const runs = await until(async () => {
      const r = await runsOf(f.id);
      return r.length === phones.length && r.every((x) => x.status === 'completed') && r;
    }, 90_000);
    expectOneMessageEach(phones);
    // A held step may also have timed out on either worker before the kill (5 s) and been retried:
    // what must hold is that the victim had it and the survivor finished it.
    for (const h of held) {
      const pids = hits.filter((x) => x.key === h.key).map((x) => x.pid);
      expect(pids).toContain(victimPid);
      expect(pids.at(-1)).toBe(survivorPid);
    }
    const steps = await stepsOf(f.id);
    expect(steps.every((s) => s.status === 'done')).toBe(true);
    // Every step the victim was inside of was tried again, and finished by the survivor.
    const retried = steps.filter((s) => s.attempts > 1).map((s) => `${s.run_id}/${s.step_id}`);
    expect(retried).toEqual(expect.arrayContaining(held.map((h) => h.key)));
    for (const key of retried) {
      const pids = hits.filter((h) => h.key === key).map((h) => h.pid);
      if (pids.length > 0) expect(pids.at(-1)).toBe(survivorPid);
    }
    expect(runs).toHaveLength(phones.length);
  }, 150_000);
});
