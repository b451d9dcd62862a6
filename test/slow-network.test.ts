import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../src/modules/rate-limit/memory-limiter.js';
import { type connectedWorkspace, simControl, simState, simulatorAppForTests } from './support/messaging.js';
import { queueIdle } from './support/queue-idle.js';
import { until } from './support/until.js';

// The simulator's faults (latency, 5xx storms) stand in for a slow or failing WhatsApp. Behaviour,
// not speed, is asserted: sends answer 201 `queued` instead of hanging, other endpoints are not held
// behind them, and every queued message reaches the network exactly once after the storm.
// Latency figures under the same faults: bench/slow-network.mjs, docs/benchmarks.md.
const DEADLINE_MS = 2000;
const t = simulatorAppForTests({
  queue: true,
  limiter: new MemoryRateLimiter(1_000_000, 60_000),
  env: { SEND_DEADLINE_MS: String(DEADLINE_MS), SEND_CONFIRM_WINDOW_MS: '5000' },
});
let ws: Awaited<ReturnType<typeof connectedWorkspace>>;

beforeAll(async () => {
  ws = await t.connectedWorkspace();
});
afterEach(async () => {
  await simControl(t.base, '/control', { latencyMs: 0, serverErrorRate: 0, timeoutRate: 0 });
});

let phone = 14155550100;
const send = () =>
  t.api('POST', '/messages', ws.key, {
    to: `+${phone++}`,
    template: { name: 'welcome', language: 'en', body: ['A', 'B'] },
  });

const delivered = (ids: string[]) => async () => {
  const { rows } = await t.ctx.db.query<{ id: string; wamid: string | null; status: string }>(
    'SELECT id, wamid, status FROM messages WHERE workspace_id = $1 AND id = ANY($2)',
    [ws.id, ids],
  );
  return rows.length === ids.length && rows.every((r) => r.wamid !== null) && rows;
};

/**
 * Each stored message's wamid was received by the simulator exactly once, and nothing else was;
 * checked once the send queue has drained, so a duplicate still on its way is counted too.
 */
async function expectExactlyOnce(rows: { wamid: string | null }[], sentBefore: number) {
  await queueIdle(t.ctx.db, ['messages.send']);
  const received = simState(t)
    .messages.slice(sentBefore)
    .map((m) => m.wamid);
  expect(received.sort()).toEqual(rows.map((r) => r.wamid!).sort());
}

describe('a slow network', () => {
  it('answers sends 201 queued by the deadline while other endpoints keep answering; each is delivered once', async () => {
    await simControl(t.base, '/control', { latencyMs: 3 * DEADLINE_MS });
    const sentBefore = simState(t).messages.length;
    let sendsAnswered = 0;
    const sends = Array.from({ length: 10 }, () =>
      send().then((res) => {
        sendsAnswered++;
        return res;
      }),
    );
    // While the sends wait on the network, the endpoints that do not send answer at once.
    const others = [];
    for (let i = 0; i < 5; i++) {
      others.push(await t.api('POST', '/contacts', ws.key, { phone: `+1415555${2000 + i}`, tags: ['slow'] }));
      others.push(await t.api('GET', '/contacts?limit=10', ws.key));
      others.push(await t.api('POST', '/events', ws.key, { phone: `+1415555${2000 + i}`, event: 'nothing' }));
    }
    expect(sendsAnswered).toBe(0);
    expect(others.map((r) => r.statusCode)).toEqual(Array.from({ length: 5 }, () => [201, 200, 202]).flat());

    const answers = await Promise.all(sends);
    for (const res of answers) {
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ result: true, status: 'queued', wamid: null });
    }
    // The attempts under way finish once the network answers: accepted, once each.
    const ids = answers.map((r) => r.json().id as string);
    const rows = await until(delivered(ids), 30_000);
    expect(rows.every((r) => r.status !== 'failed')).toBe(true);
    await expectExactlyOnce(rows, sentBefore);
    const view = await t.api('GET', `/messages/${ids[0]}`, ws.key);
    expect(view.json()).toMatchObject({ wamid: expect.stringMatching(/^wamid\./) });
  }, 60_000);

  it('queues sends through a 5xx storm and delivers each exactly once when it ends', async () => {
    await simControl(t.base, '/control', { serverErrorRate: 1 });
    const sentBefore = simState(t).messages.length;
    const attemptsBefore = simState(t).attempts.length;
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await send());
    for (const res of answers) {
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ status: 'queued', wamid: null });
    }
    // The network refused every attempt, and the queue keeps retrying while the storm lasts.
    await until(() => simState(t).attempts.length - attemptsBefore >= 16, 30_000);
    expect(simState(t).messages.length).toBe(sentBefore);
    const ids = answers.map((r) => r.json().id as string);
    expect(await delivered(ids)()).toBe(false);

    await simControl(t.base, '/control', { serverErrorRate: 0 });
    const rows = await until(delivered(ids), 60_000);
    await expectExactlyOnce(rows, sentBefore);
  }, 120_000);

  it('queues a send whose call times out, and sends it again once the network answers', async () => {
    // The simulator holds the call for 2 minutes, then drops it; the client gives up after 30 s
    // (SEND_TIMEOUT_MS). The call may have gone out, so the message waits for the network to
    // confirm it (SEND_CONFIRM_WINDOW_MS, 5 s here); with no confirmation it is sent again.
    await simControl(t.base, '/control', { timeoutRate: 1 });
    const sentBefore = simState(t).messages.length;
    const res = await send();
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'queued', wamid: null });
    await simControl(t.base, '/control', { timeoutRate: 0 });
    const rows = await until(delivered([res.json().id]), 60_000);
    await expectExactlyOnce(rows, sentBefore);
  }, 90_000);

  it('answers a send at once again when the network recovers', async () => {
    const res = await send();
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'accepted', wamid: expect.stringMatching(/^wamid\./) });
  });
});
