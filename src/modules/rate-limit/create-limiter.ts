import type { RateLimiter } from './limiter.js';
import { MemoryRateLimiter } from './memory-limiter.js';
import { type OutageLog, RedisRateLimiter } from './redis-limiter.js';

const API_RATE_LIMIT = 300;
const API_RATE_WINDOW_MS = 60_000;

/** The one place that picks the counter store: Redis when configured, else this process's memory. */
export function createApiRateLimiter(redisUrl: string | undefined, log?: OutageLog): RateLimiter {
  return redisUrl
    ? new RedisRateLimiter(redisUrl, API_RATE_LIMIT, API_RATE_WINDOW_MS, 'parley:rl:', log)
    : new MemoryRateLimiter(API_RATE_LIMIT, API_RATE_WINDOW_MS);
}

const FORM_RATE_LIMIT = 5;
const FORM_RATE_WINDOW_MS = 60_000;

/** Form submissions: 5 per minute per client address, in the same store as the API's counters. */
export function createFormRateLimiter(redisUrl: string | undefined, log?: OutageLog): RateLimiter {
  return redisUrl
    ? new RedisRateLimiter(redisUrl, FORM_RATE_LIMIT, FORM_RATE_WINDOW_MS, 'parley:rl:form:', log)
    : new MemoryRateLimiter(FORM_RATE_LIMIT, FORM_RATE_WINDOW_MS);
}
