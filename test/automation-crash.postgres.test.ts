import { describe, expect, it } from 'vitest';
import { getRun, listRuns } from '../src/modules/automation/list-runs.js';
import { createAutomation } from '../src/modules/automation/save-automation.js';
import { connectedWorkspace, simState } from './support/messaging.js';
import { queueIdle } from './support/queue-idle.js';
import { until } from './support/until.js';
import { workerCrashHarness } from './support/worker-crash.js';

// The API runs in this process; the steps run in a separate `serve --role worker` process, which is
// killed with SIGKILL in the middle of a step and replaced by a fresh one.
describe('a worker killed mid-step', () => {
  // The first call is left hanging: its worker dies while waiting for the answer.
  const h = workerCrashHarness((_key, calls) => calls.length === 1);

  it('completes the run on another worker with each side effect done once', async () => {
    const { t, base, requests, startWorker } = h;
    const ws = await connectedWorkspace(t, base);
    const port = h.port();
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
