import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { decision, type LimitDecision, type RateLimiter } from './limiter.js';
import { type OutageLog, SharedRedis } from './shared-redis.js';

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

/**
 * A sliding log in Redis, shared by every instance. Redis is a convenience, not a dependency: when
 * it refuses, drops or stops answering, `hit` fails within about 100 ms (no offline queue holding
 * requests, no retries) and the caller lets the request through. The outage is logged by the
 * process's connection (shared-redis.ts), once, not once per request or per limiter.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #shared: SharedRedis;
  readonly #prefix: string;
  #closed = false;

  constructor(
    url: string,
    readonly limit: number,
    readonly windowMs: number,
    prefix = 'parley:rl:',
    log?: OutageLog,
  ) {
    this.#shared = SharedRedis.use(url, log);
    this.#shared.redis.defineCommand('slidingLog', { numberOfKeys: 1, lua: SLIDING_LOG });
    this.#prefix = prefix;
  }

  hit(key: string): Promise<LimitDecision> {
    return this.#ask(key, 'hit');
  }

  peek(key: string): Promise<LimitDecision> {
    return this.#ask(key, 'peek');
  }

  async #ask(key: string, mode: 'hit' | 'peek'): Promise<LimitDecision> {
    const redis = this.#shared.redis as Redis & {
      slidingLog(
        key: string,
        windowMs: number,
        limit: number,
        member: string,
        mode: string,
      ): Promise<number[]>;
    };
    const [allowed, count, oldest, now] = await this.#shared.run(() =>
      redis.slidingLog(this.#prefix + key, this.windowMs, this.limit, randomBytes(6).toString('hex'), mode),
    );
    return decision(allowed === 1, this.limit, count!, oldest!, now!, this.windowMs);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#shared.release();
  }
}
