import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { Outage } from './outage.js';

// Commit c520959: each query was raced against one promise that settles only on an outage, and
// each race left a reaction on it holding the query's result: every result ever read stayed in memory.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const quiet = { warn() {}, info() {} };
const ticks = () => new Promise((resolve) => setImmediate(resolve));

describe('Outage.guard', () => {
  let outage: Outage | undefined;
  afterEach(() => outage?.close());

  it('keeps no result of a query it guarded once the caller lets go of it', async () => {
    outage = new Outage(
      async () => {},
      () => {},
      quiet,
    );
    const guard = outage;
    const results: WeakRef<object>[] = [];
    const RUNS = 20;
    // In a function of its own, so no local of the test holds a result.
    const read = async () => {
      const rows = await guard.guard(async () => ({
        rows: Array.from({ length: 10_000 }, (_, i) => ({ i })),
      }));
      results.push(new WeakRef(rows));
    };
    for (let n = 0; n < RUNS; n++) await read();

    for (let n = 0; n < 5; n++) {
      await ticks();
      gc();
    }
    expect(results).toHaveLength(RUNS);
    const kept = results.filter((r) => r.deref() !== undefined).length;
    expect(kept).toBeLessThanOrEqual(1);
  });
});
