import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { decision, type LimitDecision, type RateLimiter } from './limiter.js';

// One atomic step per request: drop what left the window, count, admit if there is room.
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
  redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2] or now
return {allowed, count, tonumber(oldest), now}
`;

export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(
    url: string,
    readonly limit: number,
    readonly windowMs: number,
    prefix = 'parley:rl:',
  ) {
    this.#redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    this.#redis.defineCommand('slidingLog', { numberOfKeys: 1, lua: SLIDING_LOG });
    this.#prefix = prefix;
  }

  async hit(key: string): Promise<LimitDecision> {
    const redis = this.#redis as Redis & {
      slidingLog(key: string, windowMs: number, limit: number, member: string): Promise<number[]>;
    };
    const [allowed, count, oldest, now] = await redis.slidingLog(
      this.#prefix + key,
      this.windowMs,
      this.limit,
      randomBytes(6).toString('hex'),
    );
    return decision(allowed === 1, this.limit, count!, oldest!, now!, this.windowMs);
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
