import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { queueIdle } from '../../../test/support/queue-idle.js';
import { until } from '../../../test/support/until.js';
import type { Db } from '../../db/db.js';
import { openPostgres } from '../../db/postgres.js';
import { takeSendSlot } from './pacing.js';

const t = simulatorAppForTests({ queue: true, statusDelaysMs: [-1, -1, -1] });
/** A second connection pool on the same database, as another API or worker process would hold. */
let other: Db;
beforeAll(async () => {
  other = t.ctx.config.databaseUrl ? await openPostgres(t.ctx.config.databaseUrl, 5) : t.ctx.db;
});
afterEach(() => {
  simState(t).faults.throughputPerSecond = 0;
});
afterAll(async () => {
  if (other !== t?.ctx.db) await other?.close();
});

describe('send slots of a connected number', () => {
  it('are 1/rate apart for every sender sharing the database, however many ask at once', async () => {
    const number = { workspaceId: 'ws_pacing', id: 'pn_shared', messagesPerSecond: 50 };
    const slots = await Promise.all(
      Array.from({ length: 60 }, (_, i) => takeSendSlot(i % 2 ? other : t.ctx.db, number, 10_000)),
    );
    const at = slots.map((s) => (s.granted ? s.at : Number.NaN)).sort((a, b) => a - b);
    expect(at.every(Number.isFinite)).toBe(true);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(19.99);
    // 60 slots at 50/s span 59 steps: about 1.2 s from the first to the last.
    expect(at.at(-1)! - at[0]!).toBeLessThan(1_180 + 200);
  });

  it('are not taken when they come later than the caller can wait, and say when one frees up', async () => {
    const number = { workspaceId: 'ws_pacing', id: 'pn_slow', messagesPerSecond: 2 };
    const first = await takeSendSlot(t.ctx.db, number, 100);
    const second = await takeSendSlot(t.ctx.db, number, 100);
    const third = await takeSendSlot(other, number, 100);
    expect(first).toMatchObject({ granted: true });
    expect(second).toMatchObject({ granted: false });
    expect(third).toMatchObject({ granted: false });
    // Refusals reserve nothing: the next slot is still half a second after the first.
    if (!third.granted) expect(third.retryInMs).toBeLessThanOrEqual(500);
    const waited = await takeSendSlot(t.ctx.db, number, 1_000);
    expect(waited.granted && waited.at - (first.granted ? first.at : 0)).toBeCloseTo(500, 0);
  });
});

describe('a burst past the number’s throughput', () => {
  it('is paced: no 130429 from the network, every message sent once, at the configured rate', async () => {
    const ws = await t.connectedWorkspace({ messagesPerSecond: 10 });
    // The network allows 25 a second, far below what an unpaced burst of 40 sends at once. The margin
    // over the number's 10 is for the simulator sharing this process's event loop: while an embedded
    // database query holds the loop, requests that left a second apart are stamped together.
    simState(t).faults.throughputPerSecond = 25;
    const tos = Array.from({ length: 40 }, (_, i) => `+1415555${String(3000 + i)}`);
    const answers = await Promise.all(
      tos.map((to) =>
        t.api('POST', '/messages', ws.key, { to, template: { name: 'hello', language: 'en_US' } }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(tos.map(() => 201));
    const statuses = answers.map((a) => a.json().status as string);
    // Within the 3 s deadline about 25 slots come; the rest answer queued and go from the queue.
    expect(statuses).toContain('accepted');
    expect(statuses).toContain('queued');

    const ids = answers.map((a) => a.json().id as string);
    await until(async () => {
      const { rows } = await t.ctx.db.query(
        "SELECT 1 FROM messages WHERE workspace_id = $1 AND status = 'accepted'",
        [ws.id],
      );
      return rows.length === 40;
    }, 20_000);
    await queueIdle(t.ctx.db, ['messages.send']);
    const views = await Promise.all(ids.map((id) => t.api('GET', `/messages/${id}`, ws.key)));
    const wamids = views.map((v) => v.json().wamid as string);

    const sim = simState(t);
    const ours = new Set(tos.map((to) => to.slice(1)));
    const received = sim.messages.filter((m) => m.phoneNumberId === ws.number.phoneNumberId);
    expect(received).toHaveLength(40);
    expect(new Set(received.map((m) => m.to))).toEqual(ours);
    expect(new Set(received.map((m) => m.wamid))).toEqual(new Set(wamids));
    expect(sim.attempts.filter((a) => ours.has(a.to) && a.code !== 0)).toEqual([]);
    // 40 sends at 10/s span 3.9 s from the first slot; the first second's sends may be stamped late
    // (above), which shortens the span seen by up to that second. Unpaced, it would be a few ms.
    const times = received.map((m) => m.receivedAt).sort((a, b) => a - b);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(2_500);
  });
});

describe('a stall of the event loop while a send is on its way to the network', () => {
  it('delays the sends after it instead of bunching them: no second at the network holds more than the rate', async () => {
    const ws = await t.connectedWorkspace({ messagesPerSecond: 10 });
    const ours = (message: unknown) =>
      (message as { request: { path: string } }).request.path.includes(
        `/${ws.number.phoneNumberId}/messages`,
      );
    // The 8th send to this number holds the whole process for a second between being let go and
    // being written to the network: as a long embedded-database query can.
    let leaving = 0;
    const stall = (message: unknown) => {
      if (!ours(message) || ++leaving !== 8) return;
      const until = performance.now() + 1_000;
      while (performance.now() < until);
    };
    // The moment each send is written to the socket. Not the simulator's stamp: it shares this
    // process's event loop, so it stamps a send only once the loop is free (after an embedded
    // database's query), late by tens of ms on a busy machine, which is noise in what Parley did.
    const written: number[] = [];
    const write = (message: unknown) => {
      if (ours(message)) written.push(performance.now());
    };
    subscribe('undici:request:create', stall);
    subscribe('undici:client:sendHeaders', write);
    try {
      const tos = Array.from({ length: 30 }, (_, i) => `+1415555${String(4000 + i)}`);
      const answers = await Promise.all(
        tos.map((to) =>
          t.api('POST', '/messages', ws.key, { to, template: { name: 'hello', language: 'en_US' } }),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(tos.map(() => 201));
      await until(async () => {
        const { rows } = await t.ctx.db.query(
          "SELECT 1 FROM messages WHERE workspace_id = $1 AND status = 'accepted'",
          [ws.id],
        );
        return rows.length === 30;
      }, 20_000);
    } finally {
      unsubscribe('undici:request:create', stall);
      unsubscribe('undici:client:sendHeaders', write);
    }
    expect(leaving).toBeGreaterThanOrEqual(8);
    const received = simState(t).messages.filter((m) => m.phoneNumberId === ws.number.phoneNumberId);
    expect(new Set(received.map((m) => m.to)).size).toBe(30);
    expect(written).toHaveLength(30);
    const busiest = (ms: number) => {
      let most = 0;
      for (let i = 0, j = 0; i < written.length; i++) {
        while (written[i]! - written[j]! >= ms) j++;
        most = Math.max(most, i - j + 1);
      }
      return most;
    };
    expect(busiest(1_000)).toBeLessThanOrEqual(10);
    // Nor within the second: the sends held by the stall go one by one, not together.
    expect(busiest(50)).toBeLessThanOrEqual(3);
  });
});
