import { describe, expect, it } from 'vitest';
import { getRun, listRuns } from '../src/modules/automation/list-runs.js';
import { createAutomation } from '../src/modules/automation/save-automation.js';
import { connectedWorkspace, simControl, simState } from './support/messaging.js';
import { queueIdle } from './support/queue-idle.js';
import { until } from './support/until.js';
import { workerCrashHarness } from './support/worker-crash.js';

// A bot that loops back through a question: the worker is killed with SIGKILL in the middle of the
// second visit of a step and replaced; that visit is done again under its own key, and no other.
describe('a worker killed mid-step on a loop', () => {
  // The second visit's first call is left hanging: its worker dies while waiting for the answer.
  const h = workerCrashHarness(
    (key, calls) => key.endsWith('/crm/2') && calls.filter((c) => c.key === key).length === 1,
  );

  it('does the killed visit again under its own key, and each other visit once', async () => {
    const { t, base, requests, startWorker } = h;
    const ws = await connectedWorkspace(t, base);
    const port = h.port();
    const phone = '14155550124';
    const flow = await createAutomation(
      t.ctx,
      ws.id,
      {
        name: 'Sync bot',
        trigger: { type: 'event', event: 'sync' },
        steps: [
          {
            id: 'menu',
            type: 'ask',
            text: 'Sync again?',
            buttons: [
              { id: 'yes', title: 'Yes', next: 'crm' },
              { id: 'no', title: 'No', next: null },
            ],
          },
          { id: 'crm', type: 'http_request', url: `http://127.0.0.1:${port}/lead`, body: '{}', next: 'menu' },
        ],
      },
      { publish: true },
    );
    const say = (text: string) =>
      simControl(base, '/inbound', { from: phone, phone_number_id: ws.number.phoneNumberId, text });
    const asked = (n: number) =>
      until(async () => {
        const [run] = await listRuns(t.ctx, ws.id, { automationId: flow.id });
        return (
          simState(t).messages.filter((m) => m.to === phone).length === n && run?.status === 'waiting' && run
        );
      }, 60_000);
    await say('hi');
    const first = await startWorker();
    expect((await t.api('POST', '/events', ws.key, { phone: `+${phone}`, event: 'sync' })).statusCode).toBe(
      202,
    );
    await asked(1);
    await say('yes');
    await asked(2);
    await say('Yes');
    await until(() => requests.length === 2, 30_000);
    await first.stop('SIGKILL');
    requests[1]!.res.destroy();
    await startWorker();
    await asked(3);
    await say('no');

    const runs = await until(async () => {
      const all = await listRuns(t.ctx, ws.id, { automationId: flow.id });
      return all.length > 0 && all.every((r) => r.status === 'completed' || r.status === 'failed') && all;
    }, 90_000);
    expect(runs.map((r) => r.status)).toEqual(['completed']);
    const run = runs[0]!;
    await queueIdle(t.ctx.db, ['automation.start', 'automation.step', 'messages.send']);

    expect(simState(t).messages.filter((m) => m.to === phone)).toHaveLength(3);
    expect(requests.map((r) => r.key)).toEqual([`${run.id}/crm`, `${run.id}/crm/2`, `${run.id}/crm/2`]);
    const detail = await getRun(t.ctx, ws.id, run.id);
    expect(detail!.steps.map((s) => [s.step_id, s.visit, s.status, s.attempts])).toEqual([
      ['menu', 1, 'done', 1],
      ['crm', 1, 'done', 1],
      ['menu', 2, 'done', 1],
      ['crm', 2, 'done', 2],
      ['menu', 3, 'done', 1],
    ]);
  }, 180_000);
});
