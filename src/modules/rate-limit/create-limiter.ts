import type { RateLimiter } from './limiter.js';
import { MemoryRateLimiter } from './memory-limiter.js';
import { RedisRateLimiter } from './redis-limiter.js';
import type { OutageLog } from './shared-redis.js';

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

/** The workflow webhook's budgets, a minute each: see DECISIONS.md for why these numbers. */
export const WEBHOOK_LIMITS = {
  /** Every post from one client address, whichever sequence it names. */
  perAddress: 120,
  /** Every post naming one sequence id, from any address: a burst of leads from a shared tool. */
  perSequence: 600,
  /** Posts from one client address refused 401 or 404 (wrong secret, unknown sequence). */
  failuresPerAddress: 10,
} as const;

export interface WebhookLimiters {
  address: RateLimiter;
  sequence: RateLimiter;
  failures: RateLimiter;
}

export function createWebhookRateLimiters(redisUrl: string | undefined, log?: OutageLog): WebhookLimiters {
  const one = (limit: number, prefix: string) =>
    redisUrl
      ? new RedisRateLimiter(redisUrl, limit, 60_000, `parley:rl:hook:${prefix}:`, log)
      : new MemoryRateLimiter(limit, 60_000);
  return {
    address: one(WEBHOOK_LIMITS.perAddress, 'address'),
    sequence: one(WEBHOOK_LIMITS.perSequence, 'sequence'),
    failures: one(WEBHOOK_LIMITS.failuresPerAddress, 'failures'),
  };
}

const TRY_IT_RATE_LIMIT = 30;
const TRY_IT_RATE_WINDOW_MS = 60_000;

/** Messages a teammate sends as the simulator's test customer ("try it"): 30 a minute per person. */
export function createTryItRateLimiter(redisUrl: string | undefined, log?: OutageLog): RateLimiter {
  return redisUrl
    ? new RedisRateLimiter(redisUrl, TRY_IT_RATE_LIMIT, TRY_IT_RATE_WINDOW_MS, 'parley:rl:tryit:', log)
    : new MemoryRateLimiter(TRY_IT_RATE_LIMIT, TRY_IT_RATE_WINDOW_MS);
}

const PRESENCE_RATE_LIMIT = 60;
const PRESENCE_RATE_WINDOW_MS = 60_000;

/**
 * Presence posts ("is viewing", "is replying"): 60 a minute per person, each announced to every
 * instance, so one member cannot flood the workspace's live streams. The web app posts at most one
 * every 1.2 s (50 a minute), however fast its teammate moves between conversations.
 */
export function createPresenceRateLimiter(redisUrl: string | undefined, log?: OutageLog): RateLimiter {
  return redisUrl
    ? new RedisRateLimiter(redisUrl, PRESENCE_RATE_LIMIT, PRESENCE_RATE_WINDOW_MS, 'parley:rl:presence:', log)
    : new MemoryRateLimiter(PRESENCE_RATE_LIMIT, PRESENCE_RATE_WINDOW_MS);
}
