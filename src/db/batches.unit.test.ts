import { describe, expect, it } from 'vitest';
import { Batches, type Entry } from './batches.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('batches', () => {
  it('takes items that arrive while batches run together, never more at once than allowed', async () => {
    const sizes: number[] = [];
    let running = 0;
    let most = 0;
    const batches = new Batches<number, number>(
      async (batch: Entry<number, number>[]) => {
        most = Math.max(most, ++running);
        sizes.push(batch.length);
        await tick();
        for (const e of batch) e.resolve(e.item * 2);
        running--;
      },
      2,
      10,
    );
    const answers = await Promise.all(Array.from({ length: 45 }, (_, i) => batches.add(i)));
    expect(answers).toEqual(Array.from({ length: 45 }, (_, i) => i * 2));
    // The first two go at once, alone; the rest wait and go ten at a time.
    expect(sizes).toEqual([1, 1, 10, 10, 10, 10, 3]);
    expect(most).toBe(2);
  });

  it('rejects what a failing batch left unanswered, and goes on with the next', async () => {
    const batches = new Batches<number, number>(
      async (batch) => {
        await tick();
        for (const e of batch) if (e.item % 2) e.resolve(e.item);
        if (batch.some((e) => e.item === 4)) throw new Error('no four');
        for (const e of batch) e.resolve(e.item);
      },
      1,
      3,
    );
    const answers = await Promise.allSettled([0, 1, 2, 3, 4, 5, 6].map((i) => batches.add(i)));
    // Batches: [0], [1 2 3], [4 5 6]: the last fails, and only its even items had no answer.
    expect(answers.map((a) => a.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
    ]);
  });
});
