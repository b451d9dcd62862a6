import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { decision, type LimitDecision, type RateLimiter } from './limiter.js';

// One atomic step per request: drop what left the window, count, admit if there is room (and, for
// a hit rather than a peek, count the request).
// The clock is Redis's own, so instances with drifting clocks still share one window.
const SLIDING_LOG = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  allowed = 1
  if ARGV[4] == 'hit' then
    redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[3])
    redis.call('PEXPIRE', KEYS[1], window)
    count = count + 1
  end
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2] or now
return {allowed, count, tonumber(oldest), now}
`;

// A request waits at most this long for its count: past it the hook lets the request through.
const COMMAND_TIMEOUT_MS = 100;

export interface OutageLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const silent: OutageLog = { warn() {}, info() {} };

/**
 * A sliding log in Redis, shared by every instance. Redis is a convenience, not a dependency: when
 * it refuses, drops or stops answering, `hit` fails within about COMMAND_TIMEOUT_MS (no offline
 * queue holding requests, no retries) and the caller lets the request through. The outage is
 * logged once when it starts and once when Redis answers again, not once per request.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #log: OutageLog;
  readonly #firstReady: Promise<unknown>;
  #everReady = false;
  #down = false;

  constructor(
    url: string,
    readonly limit: number,
    readonly windowMs: number,
    prefix = 'parley:rl:',
    log: OutageLog = silent,
  ) {
    this.#redis = new Redis(url, {
      connectTimeout: 1000,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(times * 100, 1000),
    });
    // Connection errors surface through `hit`; without a listener ioredis prints each to stderr.
    this.#redis.on('error', () => {});
    this.#redis.on('ready', () => {
      this.#everReady = true;
    });
    this.#firstReady = new Promise((resolve) => this.#redis.once('ready', resolve));
    this.#redis.defineCommand('slidingLog', { numberOfKeys: 1, lua: SLIDING_LOG });
    this.#prefix = prefix;
    this.#log = log;
  }

  hit(key: string): Promise<LimitDecision> {
    return this.#ask(key, 'hit');
  }

  peek(key: string): Promise<LimitDecision> {
    return this.#ask(key, 'peek');
  }

  async #ask(key: string, mode: 'hit' | 'peek'): Promise<LimitDecision> {
    // Without an offline queue a command sent before the first connection fails at once: the
    // requests of a process just started wait for it, as briefly as for an answer.
    if (!this.#everReady) await Promise.race([this.#firstReady, sleep(COMMAND_TIMEOUT_MS)]);
    const redis = this.#redis as Redis & {
      slidingLog(
        key: string,
        windowMs: number,
        limit: number,
        member: string,
        mode: string,
      ): Promise<number[]>;
    };
    let answer: number[];
    try {
      answer = await answeredWithin(
        redis.slidingLog(this.#prefix + key, this.windowMs, this.limit, randomBytes(6).toString('hex'), mode),
        COMMAND_TIMEOUT_MS,
      );
    } catch (err) {
      if (!this.#down) {
        this.#down = true;
        this.#log.warn(
          { err, store: this.#prefix },
          'Redis is unreachable: rate limits are not applied until it answers',
        );
      }
      throw err;
    }
    if (this.#down) {
      this.#down = false;
      this.#log.info({ store: this.#prefix }, 'Redis answers again: rate limits apply');
    }
    const [allowed, count, oldest, now] = answer;
    return decision(allowed === 1, this.limit, count!, oldest!, now!, this.windowMs);
  }

  async close(): Promise<void> {
    // Not QUIT: it waits for an answer, and a Redis that stopped answering would hold shutdown.
    this.#redis.disconnect();
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
