import { afterAll, beforeAll } from 'vitest';

/**
 * Starts something before the tests of the file (or of the describe block it is called in) and
 * stops it after them, in hooks of its own: the file's own beforeAll hooks, registered after this
 * call, run once it has started, and its afterAll hooks before it stops. What it gives back stands
 * for the started thing and may be held in a const from the start: each property is read from it
 * when used, inside a hook or a test (before it has started, a read throws, saying so).
 */
export function startedForTests<T extends object>(
  start: () => Promise<T>,
  stop: (started: T) => Promise<void>,
  timeout?: number,
): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  }, timeout);
  afterAll(async () => {
    if (started) await stop(started);
  });
  return new Proxy({} as T, {
    get(_, key) {
      // Not a promise: `await`, or an async function returning it, asks for `then`.
      if (key === 'then') return undefined;
      if (!started) throw new Error(`read ${String(key)} before it started: use it in a hook or a test`);
      const value = Reflect.get(started, key);
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
}
