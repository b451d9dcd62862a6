import { describe, expect, it } from 'vitest';
import { DatabaseUnreachableError, untilRecorded } from './outage.js';

describe('untilRecorded: a write recording what already happened outside waits out the database', () => {
  it('tries again while the database is unreachable and returns the answer', async () => {
    let calls = 0;
    const answer = await untilRecorded(async () => {
      if (++calls < 3) throw new DatabaseUnreachableError();
      return 'recorded';
    }, 5_000);
    expect({ answer, calls }).toEqual({ answer: 'recorded', calls: 3 });
  });

  it('throws any other error at once', async () => {
    let calls = 0;
    const failing = untilRecorded(async () => {
      calls++;
      throw new Error('duplicate key value violates unique constraint');
    }, 5_000);
    await expect(failing).rejects.toThrow(/duplicate key/);
    expect(calls).toBe(1);
  });

  it('gives up once its time is over', async () => {
    let calls = 0;
    const started = Date.now();
    const failing = untilRecorded(async () => {
      calls++;
      throw new DatabaseUnreachableError();
    }, 800);
    await expect(failing).rejects.toBeInstanceOf(DatabaseUnreachableError);
    expect(Date.now() - started).toBeLessThan(800);
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});
