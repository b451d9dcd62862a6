import { afterEach, describe, expect, it } from 'vitest';
import { READ_SHARE, withinShare } from './read-share.js';

const defaults = { ...READ_SHARE };
afterEach(() => Object.assign(READ_SHARE, defaults));

/** A read that runs until `finish()`; `started` tells whether it has begun. */
function heldRead() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const read = {
    started: false,
    finish,
    run: async () => {
      read.started = true;
      await done;
      return 'counted';
    },
  };
  return read;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("a workspace's share of expensive reads", () => {
  it("runs a workspace's reads past its share only as places free, and another workspace's at once", async () => {
    Object.assign(READ_SHARE, { running: 2, waiting: 5, waitMs: 5_000 });
    const mine = [heldRead(), heldRead(), heldRead()];
    const answers = mine.map((r) => withinShare('ws_a', r.run));
    await tick();
    expect(mine.map((r) => r.started)).toEqual([true, true, false]);

    const other = heldRead();
    const otherAnswer = withinShare('ws_b', other.run);
    await tick();
    expect(other.started).toBe(true);

    mine[0]!.finish();
    await tick();
    expect(mine[2]!.started).toBe(true);
    for (const r of [...mine, other]) r.finish();
    expect(await Promise.all([...answers, otherAnswer])).toEqual(Array(4).fill('counted'));
  });

  it('refuses with 503 past the waiting bound, and a read that waited past waitMs, without running them', async () => {
    Object.assign(READ_SHARE, { running: 1, waiting: 1, waitMs: 50 });
    const first = heldRead();
    const running = withinShare('ws_c', first.run);
    const waiter = heldRead();
    const waiting = withinShare('ws_c', waiter.run);
    const refused = heldRead();
    await expect(withinShare('ws_c', refused.run)).rejects.toMatchObject({ code: 'unavailable' });
    await expect(waiting).rejects.toMatchObject({ code: 'unavailable' });
    expect([waiter.started, refused.started]).toEqual([false, false]);
    first.finish();
    await running;
    // The places are free again.
    const later = heldRead();
    const answer = withinShare('ws_c', later.run);
    later.finish();
    expect(await answer).toBe('counted');
  });
});
