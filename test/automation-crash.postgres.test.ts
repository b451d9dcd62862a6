import { createServer, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRun, listRuns } from '../src/modules/automation/list-runs.js';
import { createAutomation } from '../src/modules/automation/save-automation.js';
import { createTestApp, type TestApp } from './support/app.js';
import { type RunningServer, startServer } from './support/cli.js';
import { connectedWorkspace, listen, simState } from './support/messaging.js';
import { queueIdle } from './support/queue-idle.js';
import { until } from './support/until.js';

// The API runs in this process; the steps run in a separate `serve --role worker` process, which is
// killed with SIGKILL in the middle of a step and replaced by a fresh one.
describe('a worker killed mid-step', () => {
  let t: TestApp;
  let base: string;
  const workers: RunningServer[] = [];
  const requests: { key: string; res: ServerResponse }[] = [];
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push({ key: String(req.headers['idempotency-key']), res });
      // The first call is left hanging: its worker dies while waiting for the answer.
      if (requests.length > 1) res.writeHead(200).end('ok');
    });
  });

  beforeAll(async () => {
    t = await createTestApp({ queue: true, role: 'api' });
    base = await listen(t);
    simState(t).statusDelaysMs = [-1, -1, -1];
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    for (const w of workers) await w.stop('SIGKILL');
    receiver.closeAllConnections();
    receiver.close();
    await t?.close();
  });

  const startWorker = async () => {
    const worker = await startServer(['--role', 'worker'], {
      DATABASE_URL: t.ctx.config.databaseUrl!,
      PARLEY_SECRET_KEY: '0'.repeat(64),
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'warn',
    });
    workers.push(worker);
    return worker;
  };

  it('completes the run on another worker with each side effect done once', async () => {
    const ws = await connectedWorkspace(t, base);
    const { port } = receiver.address() as { port: number };
    const flow = await createAutomation(
      t.ctx,
      ws.id,
      {
        name: 'Crash me',
        trigger: { type: 'event', event: 'crash' },
        steps: [
          {
            id: 'send',
            type: 'send_template',
            template: { name: 'welcome', language: 'en', body: ['A', 'B'] },
          },
          { id: 'crm', type: 'http_request', url: `http://127.0.0.1:${port}/lead`, body: '{}' },
          { id: 'tag', type: 'add_tag', tag: 'synced' },
        ],
      },
      { publish: true },
    );
    const first = await startWorker();
    const res = await t.api('POST', '/events', ws.key, { phone: '+14155550123', event: 'crash' });
    expect(res.statusCode).toBe(202);

    await until(() => requests.length === 1, 30_000);
    await first.stop('SIGKILL');
    requests[0]!.res.destroy();
    await startWorker();

    // Every run of the flow, once all have finished: a second run of the one event, or a failed one,
    // is a failure here even if another run completed.
    const runs = await until(async () => {
      const all = await listRuns(t.ctx, ws.id, { automationId: flow.id });
      return all.length > 0 && all.every((r) => r.status === 'completed' || r.status === 'failed') && all;
    }, 90_000);
    expect(runs.map((r) => r.status)).toEqual(['completed']);
    const run = runs[0]!;
    // A redelivered step job would still be waiting or running: drain before counting effects.
    await queueIdle(t.ctx.db, ['automation.start', 'automation.step', 'messages.send']);

    expect(simState(t).messages.filter((m) => m.to === '14155550123')).toHaveLength(1);
    expect(requests.map((r) => r.key)).toEqual([`${run.id}/crm`, `${run.id}/crm`]);
    const detail = await getRun(t.ctx, ws.id, run.id);
    expect(detail!.steps.map((s) => [s.step_id, s.status, s.attempts])).toEqual([
      ['send', 'done', 1],
      ['crm', 'done', 2],
      ['tag', 'done', 1],
    ]);
    const { rows } = await t.ctx.db.query<{ tags: string[] }>(
      'SELECT tags FROM contacts WHERE workspace_id = $1 AND phone = $2',
      [ws.id, '14155550123'],
    );
    expect(rows[0]!.tags).toEqual(['synced']);
  }, 120_000);
});
