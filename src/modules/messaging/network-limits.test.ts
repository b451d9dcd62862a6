import { afterEach, describe, expect, it } from 'vitest';
import { simControl, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { queueIdle } from '../../../test/support/queue-idle.js';
import { until } from '../../../test/support/until.js';

// The network's rate limits through HTTP against the simulator: 130429 (the number's throughput) and
// 131056 (one business and one customer: about a message per 6 s) are waited out with growing
// delays, never turned into a failed message, and the message reaches the network once.

const t = simulatorAppForTests({ queue: true, statusDelaysMs: [-1, -1, -1] });
afterEach(async () => {
  await simControl(t.base, '/control', { failNext: 0, failNextCode: 130429, pairRateLimitMs: 0 });
});

const hello = (to: string) => ({ to, template: { name: 'hello', language: 'en_US' } });

async function accepted(key: string, id: string) {
  return until(async () => {
    const { rows } = await t.ctx.db.query<{ status: string }>('SELECT status FROM messages WHERE id = $1', [
      id,
    ]);
    return rows[0]?.status !== 'queued' && rows[0]?.status;
  }, 28_000).then(async () => (await t.api('GET', `/messages/${id}`, key)).json());
}

describe('throughput errors (130429)', () => {
  it('are retried with growing delays, and the message goes out once', async () => {
    const ws = await t.connectedWorkspace();
    await simControl(t.base, '/control', { failNext: 3, failNextCode: 130429 });
    const res = await t.api('POST', '/messages', ws.key, hello('+14155550130'));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'queued', wamid: null });

    const message = await accepted(ws.key, res.json().id);
    expect(message).toMatchObject({
      status: 'accepted',
      error: null,
      wamid: expect.stringMatching(/^wamid\./),
    });
    const attempts = simState(t).attempts.filter((a) => a.to === '14155550130');
    expect(attempts.map((a) => a.code)).toEqual([130429, 130429, 130429, 0]);
    const gaps = attempts.slice(1).map((a, i) => a.at - attempts[i]!.at);
    // 2 s before the first retry, then the queue's exponential backoff (2-4 s, then 4-8 s).
    expect(gaps[0]).toBeGreaterThanOrEqual(1_900);
    expect(gaps[2]).toBeGreaterThan(gaps[0]!);
    await queueIdle(t.ctx.db, ['messages.send']);
    expect(simState(t).messages.filter((m) => m.to === '14155550130')).toHaveLength(1);
  }, 40_000);
});

describe('the pair rate limit (131056)', () => {
  it('holds a second message to the same customer back until the network takes it', async () => {
    const ws = await t.connectedWorkspace();
    await simControl(t.base, '/control', { pairRateLimitMs: 4_000 });
    const first = await t.api('POST', '/messages', ws.key, hello('+14155550156'));
    expect(first.json().status).toBe('accepted');
    const second = await t.api('POST', '/messages', ws.key, hello('+14155550156'));
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ status: 'queued', wamid: null });

    const message = await accepted(ws.key, second.json().id);
    expect(message).toMatchObject({ status: 'accepted', error: null });
    const attempts = simState(t).attempts.filter((a) => a.to === '14155550156');
    expect(attempts[0]!.code).toBe(0);
    expect(attempts.slice(1, -1).every((a) => a.code === 131056)).toBe(true);
    expect(attempts.at(-1)!.code).toBe(0);
    const received = simState(t).messages.filter((m) => m.to === '14155550156');
    expect(received).toHaveLength(2);
    expect(received[1]!.receivedAt - received[0]!.receivedAt).toBeGreaterThanOrEqual(4_000);
  }, 40_000);
});
