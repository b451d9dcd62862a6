import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

// A request waits at most this long for its count: past it the caller lets the request through.
const COMMAND_TIMEOUT_MS = 100;

export interface OutageLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const open = new Map<string, SharedRedis>();

/**
 * One connection per Redis URL in this process, shared by every limiter counting there (the API's,
 * the forms', the webhook's), so an outage is one outage: logged once when it starts and once when
 * Redis answers again, whichever limiter meets it. Closed when the last limiter using it is.
 */
export class SharedRedis {
  readonly redis: Redis;
  readonly #url: string;
  #log: OutageLog | undefined;
  readonly #firstReady: Promise<unknown>;
  #users = 0;
  #everReady = false;
  #down = false;

  /** The process's connection to `url`; outages go to the first log given. */
  static use(url: string, log?: OutageLog): SharedRedis {
    let shared = open.get(url);
    if (!shared) {
      shared = new SharedRedis(url);
      open.set(url, shared);
    }
    shared.#log ??= log;
    shared.#users++;
    return shared;
  }

  private constructor(url: string) {
    this.#url = url;
    this.redis = new Redis(url, {
      connectTimeout: 1000,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(times * 100, 1000),
    });
    // Connection errors surface through `run`; without a listener ioredis prints each to stderr.
    this.redis.on('error', () => {});
    this.redis.on('ready', () => {
      this.#everReady = true;
    });
    this.#firstReady = new Promise((resolve) => this.redis.once('ready', resolve));
  }

  /** The command's answer, or a throw within about COMMAND_TIMEOUT_MS while Redis is away. */
  async run<T>(command: () => Promise<T>): Promise<T> {
    // Without an offline queue a command sent before the first connection fails at once: the
    // requests of a process just started wait for it, as briefly as for an answer.
    if (!this.#everReady) await Promise.race([this.#firstReady, sleep(COMMAND_TIMEOUT_MS)]);
    let answer: T;
    try {
      answer = await answeredWithin(command(), COMMAND_TIMEOUT_MS);
    } catch (err) {
      if (!this.#down) {
        this.#down = true;
        this.#log?.warn({ err }, 'Redis is unreachable: rate limits are not applied until it answers');
      }
      throw err;
    }
    if (this.#down) {
      this.#down = false;
      this.#log?.info({}, 'Redis answers again: rate limits apply');
    }
    return answer;
  }

  release(): void {
    if (--this.#users > 0) return;
    open.delete(this.#url);
    // Not QUIT: it waits for an answer, and a Redis that stopped answering would hold shutdown.
    this.redis.disconnect();
  }
}

/**
 * Fails a command Redis has not answered in `ms`. Not ioredis's commandTimeout: after the event
 * loop was busy past `ms` (PGlite runs queries on it) timers run before pending socket reads, so
 * an answer already received would count as a timeout; deferring the check by setImmediate lets
 * those reads run first.
 */
function answeredWithin<T>(command: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => setImmediate(() => reject(new Error(`Redis did not answer in ${ms} ms`))),
      ms,
    );
    command.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
