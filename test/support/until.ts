import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `probe` until it gives a truthy value (returned), or fails after `ms`. */
export async function until<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  ms = 20_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`condition not reached in ${ms} ms`);
    await sleep(50);
  }
}
