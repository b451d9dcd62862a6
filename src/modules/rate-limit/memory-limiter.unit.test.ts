import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from './memory-limiter.js';

function clock(start = 1_000_000) {
  const c = { now: start, fn: () => c.now };
  return c;
}

describe('MemoryRateLimiter', () => {
  it('admits exactly the limit in any window span, across a fixed-window boundary too', async () => {
    const c = clock();
    const limiter = new MemoryRateLimiter(300, 60_000, c.fn);
    // 300 requests in the last second of a minute, then a burst right after the minute turns:
    // a fixed window would let another 300 through; the sliding window lets none.
    c.now = 59_000;
    for (let i = 0; i < 300; i++) expect((await limiter.hit('k')).allowed).toBe(true);
    c.now = 60_500;
    expect((await limiter.hit('k')).allowed).toBe(false);
    c.now = 59_000 + 60_000 - 1;
    expect((await limiter.hit('k')).allowed).toBe(false);
    c.now = 59_000 + 60_000;
    expect((await limiter.hit('k')).allowed).toBe(true);
    await limiter.close();
  });

  it('never admits more than the limit in any 60 s span under random traffic', async () => {
    const c = clock(0);
    const limit = 50;
    const limiter = new MemoryRateLimiter(limit, 60_000, c.fn);
    const admitted: number[] = [];
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 5_000; i++) {
      c.now += Math.floor(random() * 2_500);
      const d = await limiter.hit('k');
      const inWindow = admitted.filter((t) => t > c.now - 60_000).length;
      // Refused only when the window is really full, admitted only when it is not.
      expect(d.allowed).toBe(inWindow < limit);
      if (d.allowed) admitted.push(c.now);
    }
    for (let i = 0; i < admitted.length; i++) {
      const end = admitted[i]!;
      expect(admitted.filter((t) => t > end - 60_000 && t <= end).length).toBeLessThanOrEqual(limit);
    }
    await limiter.close();
  });

  it('gives a retry time after which a request succeeds, and not before', async () => {
    const c = clock();
    const limiter = new MemoryRateLimiter(3, 60_000, c.fn);
    await limiter.hit('k');
    c.now += 10_400;
    await limiter.hit('k');
    await limiter.hit('k');
    const refused = await limiter.hit('k');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 50 });
    c.now += refused.resetSeconds * 1000 - 1000;
    expect((await limiter.hit('k')).allowed).toBe(false);
    c.now += 1000;
    expect((await limiter.hit('k')).allowed).toBe(true);
    await limiter.close();
  });

  it('counts keys apart and forgets idle ones', async () => {
    const c = clock();
    const limiter = new MemoryRateLimiter(1, 60_000, c.fn);
    expect((await limiter.hit('a')).allowed).toBe(true);
    expect((await limiter.hit('b')).allowed).toBe(true);
    expect((await limiter.hit('a')).allowed).toBe(false);
    expect(limiter.trackedKeys).toBe(2);
    c.now += 60_000;
    limiter.sweep();
    expect(limiter.trackedKeys).toBe(0);
    await limiter.close();
  });

  it('peeks without counting: the answer a hit would get, and the window left as it was', async () => {
    const c = clock();
    const limiter = new MemoryRateLimiter(2, 60_000, c.fn);
    expect(await limiter.peek('k')).toMatchObject({ allowed: true, remaining: 2 });
    expect(limiter.trackedKeys).toBe(0);
    await limiter.hit('k');
    c.now += 5_000;
    await limiter.hit('k');
    for (let i = 0; i < 3; i++)
      expect(await limiter.peek('k')).toMatchObject({ allowed: false, resetSeconds: 55 });
    c.now += 55_000;
    expect(await limiter.peek('k')).toMatchObject({ allowed: true, remaining: 1 });
    expect((await limiter.hit('k')).allowed).toBe(true);
    await limiter.close();
  });
});
