/** A waiting item and how to answer its caller. */
export interface Entry<T, R> {
  item: T;
  resolve(result: R): void;
  reject(err: unknown): void;
}

/**
 * Items that would each cost a round trip and a commit of their own, taken together: the first goes
 * at once, those that arrive while `atOnce` batches are running wait for a free one and go together,
 * at most `largest` in a batch. `run` answers every entry of its batch; what it throws rejects those
 * it left unanswered.
 */
export class Batches<T, R> {
  private waiting: Entry<T, R>[] = [];
  private running = 0;

  constructor(
    private readonly run: (batch: Entry<T, R>[]) => Promise<void>,
    private readonly atOnce: number,
    private readonly largest: number,
  ) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private next() {
    if (this.running >= this.atOnce || !this.waiting.length) return;
    const batch = this.waiting.splice(0, this.largest);
    this.running++;
    this.run(batch)
      .catch((err) => {
        for (const e of batch) e.reject(err);
      })
      .finally(() => {
        this.running--;
        this.next();
      });
  }
}

const perOwner = new WeakMap<object, Map<string, unknown>>();

/** One set of batches per owner (a database pool, an app's context) and kind of work, made on first use. */
export function batchesOf<B>(owner: object, kind: string, make: () => B): B {
  const kinds = perOwner.get(owner) ?? new Map<string, unknown>();
  perOwner.set(owner, kinds);
  if (!kinds.has(kind)) kinds.set(kind, make());
  return kinds.get(kind) as B;
}
