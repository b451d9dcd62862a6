import { decision, type LimitDecision, type RateLimiter } from './limiter.js';

/** The admitted timestamps of one key, oldest first, in a fixed ring of `limit` slots. */
class Log {
  readonly times: Float64Array;
  head = 0;
  size = 0;
  constructor(limit: number) {
    this.times = new Float64Array(limit);
  }
  oldest(): number {
    return this.times[this.head]!;
  }
  newest(): number {
    return this.times[(this.head + this.size - 1) % this.times.length]!;
  }
  dropUpTo(cutoff: number): void {
    while (this.size > 0 && this.oldest() <= cutoff) {
      this.head = (this.head + 1) % this.times.length;
      this.size--;
    }
  }
  push(t: number): void {
    this.times[(this.head + this.size) % this.times.length] = t;
    this.size++;
  }
}

/** Counters for one process. Several instances share counters through the Redis limiter instead. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #logs = new Map<string, Log>();
  readonly #sweep: NodeJS.Timeout;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    // Forget keys idle for a whole window so memory follows active keys, not every key ever seen.
    this.#sweep = setInterval(() => this.sweep(), windowMs).unref();
  }

  async hit(key: string): Promise<LimitDecision> {
    const now = this.now();
    let log = this.#logs.get(key);
    if (!log) {
      log = new Log(this.limit);
      this.#logs.set(key, log);
    }
    log.dropUpTo(now - this.windowMs);
    const allowed = log.size < this.limit;
    if (allowed) log.push(now);
    return decision(allowed, this.limit, log.size, log.oldest(), now, this.windowMs);
  }

  async peek(key: string): Promise<LimitDecision> {
    const now = this.now();
    const log = this.#logs.get(key);
    log?.dropUpTo(now - this.windowMs);
    const size = log?.size ?? 0;
    return decision(size < this.limit, this.limit, size, size ? log!.oldest() : now, now, this.windowMs);
  }

  sweep(): void {
    const cutoff = this.now() - this.windowMs;
    for (const [key, log] of this.#logs) {
      if (log.size === 0 || log.newest() <= cutoff) this.#logs.delete(key);
    }
  }

  get trackedKeys(): number {
    return this.#logs.size;
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
  }
}
