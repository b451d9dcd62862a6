import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testAppForTests } from '../../../test/support/app.js';
import { until } from '../../../test/support/until.js';
import { createEndpoint } from '../webhooks/endpoints.js';
import { drainEventOutbox } from './event-outbox.js';
import { getRun, listRuns } from './list-runs.js';
import { createAutomation } from './save-automation.js';

const stepJobs = (t: TestApp, runId: string) =>
  t.ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'automation.step' AND data->>'runId' = $1`,
    [runId],
  );

describe('database-only steps', () => {
  const t = testAppForTests({ queue: true, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });

  it('run in order in the job of the step before them, each reading what the one before wrote', async () => {
    const ws = await t.workspace();
    await createEndpoint(t.ctx, ws.id, 'http://127.0.0.1:9/hook', ['flow.run.finished']);
    const flow = await createAutomation(
      t.ctx,
      ws.id,
      {
        name: 'Chain',
        trigger: { type: 'event', event: 'chain' },
        steps: [
          { id: 'mark', type: 'set_trait', key: 'stage', value: 'marked' },
          {
            id: 'check',
            type: 'condition',
            if: { field: 'contact.traits.stage', op: 'equals', value: 'marked' },
            if_true: 'tag',
            if_false: null,
          },
          { id: 'tag', type: 'add_tag', tag: 'chained' },
          { id: 'pause', type: 'wait', duration: '1s' },
          { id: 'after', type: 'add_tag', tag: 'after-wait' },
        ],
      },
      { publish: true },
    );
    await t.api('POST', '/events', ws.key, { phone: '+14155550101', event: 'chain' });
    const run = await until(async () => {
      const [r] = await listRuns(t.ctx, ws.id, { automationId: flow.id });
      return r?.status === 'completed' && r;
    });
    const steps = (await getRun(t.ctx, ws.id, run.id))!.steps;
    expect(steps.map((s) => [s.step_id, s.status])).toEqual([
      ['mark', 'done'],
      ['check', 'done'],
      ['tag', 'done'],
      ['pause', 'done'],
      ['after', 'done'],
    ]);
    const { rows: contacts } = await t.ctx.db.query<{ tags: string[] }>(
      'SELECT tags FROM contacts WHERE workspace_id = $1',
      [ws.id],
    );
    expect(contacts[0]!.tags).toEqual(['chained', 'after-wait']);
    // The first step's job ran the chain up to the wait; the wait's end is the only other job.
    expect((await stepJobs(t, run.id)).rows[0]!.n).toBe(2);
    const { rows: finished } = await t.ctx.db.query(
      `SELECT payload FROM webhook_deliveries WHERE workspace_id = $1 AND event_type = 'flow.run.finished'`,
      [ws.id],
    );
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ payload: { data: { run_id: run.id, status: 'completed' } } });
  });
});

describe('the event outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    // This process stores events and runs no worker: the test drains by hand.
    t = await createTestApp({ queue: true, role: 'api' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("starts each stored event's runs once, however often it is drained", async () => {
    const ws = await t.workspace();
    const steps = [{ id: 'tag', type: 'add_tag', tag: 'x' }];
    const flows = [];
    for (const name of ['one', 'two']) {
      flows.push(
        await createAutomation(
          t.ctx,
          ws.id,
          { name, trigger: { type: 'event', event: 'go' }, steps },
          { publish: true },
        ),
      );
    }
    for (const phone of ['+14155550102', '+14155550103', '+14155550104']) {
      const res = await t.api('POST', '/events', ws.key, { phone, event: 'go' });
      expect(res.json()).toMatchObject({ flows_started: 2 });
    }
    expect(await listRuns(t.ctx, ws.id, {})).toEqual([]);

    expect(await drainEventOutbox(t.ctx)).toBe(3);
    expect(await drainEventOutbox(t.ctx)).toBe(0);
    for (const flow of flows) expect(await listRuns(t.ctx, ws.id, { automationId: flow.id })).toHaveLength(3);
    const { rows } = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pgboss.job j JOIN runs r ON r.id = j.data->>'runId'
       WHERE j.name = 'automation.step' AND r.workspace_id = $1`,
      [ws.id],
    );
    expect(rows[0]!.n).toBe(6);
  });
});
