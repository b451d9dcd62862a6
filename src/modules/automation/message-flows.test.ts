import { describe, expect, it } from 'vitest';
import { simControl, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { listRuns } from './list-runs.js';
import { createAutomation } from './save-automation.js';

// A flow triggered by message.received branches on what the customer tapped or wrote.

const t = simulatorAppForTests({ queue: true });

describe('flows started by an inbound message', () => {
  it('branch on a quick-reply button payload and on the text', async () => {
    const ws = await t.connectedWorkspace();
    const flow = await createAutomation(
      t.ctx,
      ws.id,
      {
        name: 'Opt-out',
        trigger: { type: 'event', event: 'message.received' },
        steps: [
          {
            id: 'is-stop',
            type: 'condition',
            if: {
              any: [
                { field: 'event.properties.button_payload', op: 'equals', value: 'STOP' },
                { field: 'event.properties.text', op: 'equals', value: 'stop' },
              ],
            },
            if_true: 'opt-out',
            if_false: null,
          },
          { id: 'opt-out', type: 'add_tag', tag: 'opted-out' },
        ],
      },
      { publish: true },
    );
    // Through the simulator's /_sim/inbound, which sends any type Meta documents as given.
    const inbound = async (from: string, body: Record<string, unknown>) =>
      (await simControl(t.base, '/inbound', { from, phone_number_id: ws.number.phoneNumberId, ...body })).body
        .delivered_status;
    const stop = { type: 'button', button: { payload: 'STOP', text: 'Stop promotions' } };
    expect(await inbound('14155550501', { message: stop })).toBe(200);
    expect(await inbound('14155550502', { text: 'stop' })).toBe(200);
    const more = { type: 'button', button: { payload: 'MORE', text: 'Tell me more' } };
    expect(await inbound('14155550503', { message: more })).toBe(200);
    await until(async () => {
      const runs = await listRuns(t.ctx, ws.id, { automationId: flow.id });
      return runs.length === 3 && runs.every((r) => r.status === 'completed');
    }, 15_000);
    const { rows } = await t.ctx.db.query<{ phone: string; tags: string[] }>(
      'SELECT phone, tags FROM contacts WHERE workspace_id = $1 ORDER BY phone',
      [ws.id],
    );
    expect(rows).toEqual([
      { phone: '14155550501', tags: ['opted-out'] },
      { phone: '14155550502', tags: ['opted-out'] },
      { phone: '14155550503', tags: [] },
    ]);
  });
});
