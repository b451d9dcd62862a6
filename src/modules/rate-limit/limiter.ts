export interface LimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in the current window, after this one. */
  remaining: number;
  /** Whole seconds until the oldest counted request leaves the window (one more slot frees up). */
  resetSeconds: number;
}

/**
 * A sliding-log limiter: at most `limit` requests are admitted in any `windowMs` span, exactly.
 * A refused request is not counted, so hammering a closed window does not push it further out.
 */
export interface RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  hit(key: string): Promise<LimitDecision>;
  /** Whether a request would be admitted now, counting nothing. */
  peek(key: string): Promise<LimitDecision>;
  close(): Promise<void>;
}

export function decision(
  allowed: boolean,
  limit: number,
  count: number,
  oldest: number,
  now: number,
  windowMs: number,
): LimitDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
  };
}
