/** What the database layer tells the operator about an outage: once when it starts, once when it ends. */
export interface OutageLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * What a query fails with when the database cannot be reached, its connection was lost, or the
 * database is known to be away; the driver's own error, if any, is its cause (logged, never sent).
 */
export class DatabaseUnreachableError extends Error {
  readonly code = 'DATABASE_UNREACHABLE';
  constructor(options?: { cause?: unknown }) {
    super('the database is unreachable', options);
  }
}

// Node's socket errors when the server is down, refuses, resets or cannot be resolved.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// SQLSTATE classes 08 (connection exception) and 57P0x (server shutting down, crashed, cannot
// connect now: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now).
const SQLSTATE = /^(08...|57P0[1-3])$/;
// node-postgres and pg-pool say it only in words.
const DRIVER_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Client was closed and is not queryable|timeout expired)/;

/**
 * True when an error of the driver says the database could not be reached or the connection to it
 * was lost (not that a statement failed). Only errors from the driver are asked: a failed outbound
 * HTTP call can carry the same socket codes.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  // The job queue passes on a copy of the error, not the error itself.
  if (err instanceof DatabaseUnreachableError || code === 'DATABASE_UNREACHABLE') return true;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
  if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
  // Several addresses tried at once (localhost as ::1 and 127.0.0.1), each refused.
  return err instanceof AggregateError && err.errors.some(isDatabaseUnreachable);
}

// A query unanswered this long (and each time as long again) makes us ask the database, on a fresh
// connection, whether it is there.
const SUSPECT_AFTER_MS = 1_000;
// How long that question waits for a connection and for its answer.
export const PROBE_TIMEOUT_MS = 2_000;
// While the database is unreachable, how often it is asked again.
const RETRY_EVERY_MS = 1_000;
// How often the one timer over the queries in flight looks at the oldest of them.
const WATCH_EVERY_MS = 250;

const LOST = Symbol('the database is unreachable');

/**
 * Tells an unreachable database from a slow query. A query that fails with a connection error, or
 * that has waited SUSPECT_AFTER_MS, sets off a probe (a fresh connection and `SELECT 1`, each within
 * PROBE_TIMEOUT_MS). Only if the probe fails is the database unreachable: the queries waiting on it
 * fail at once (`onLost` ends their connections), new ones fail without waiting, and the probe
 * repeats every RETRY_EVERY_MS until the database answers. A slow query on a database that answers
 * the probe runs on, up to the statement timeout.
 */
export class Outage {
  #down = false;
  #probing: Promise<void> | null = null;
  #retry: NodeJS.Timeout | undefined;
  #closed = false;
  #answeredAt = 0;
  // When each query in flight started, oldest first (a Map keeps insertion order), and how to fail
  // it if the database is lost; one timer over them all while any runs: a timer per query cost more
  // than many of the queries. Not a race against one shared promise that settles only on an outage:
  // each race left a reaction on it holding the query's result until then, every result ever read.
  #inFlight = new Map<number, { since: number; lose: (reason: unknown) => void }>();
  #next = 0;
  #watch: NodeJS.Timeout | undefined;

  constructor(
    private readonly probe: () => Promise<void>,
    private readonly onLost: () => void,
    private readonly log: OutageLog,
  ) {}

  /** Runs `work` unless the database is known to be away, and gives up on it if it goes away meanwhile. */
  guard<T>(work: () => Promise<T>): Promise<T> {
    if (this.#down) return Promise.reject(new DatabaseUnreachableError());
    const running = work();
    const id = this.#next++;
    this.#watch ??= setInterval(() => this.#watchSlow(), WATCH_EVERY_MS).unref();
    return new Promise<T>((resolve, reject) => {
      this.#inFlight.set(id, { since: Date.now(), lose: reject });
      running.then(resolve, reject);
    })
      .catch((err: unknown) => {
        if (err === LOST) throw new DatabaseUnreachableError();
        if (!isDatabaseUnreachable(err)) throw err;
        this.#check(true);
        // One error per caller: the job queue writes into the message of the error it is given.
        throw new DatabaseUnreachableError({ cause: err });
      })
      .finally(() => this.#inFlight.delete(id));
  }

  /** A query waiting SUSPECT_AFTER_MS or more (the database may go away while a slow statement runs). */
  #watchSlow(): void {
    const oldest = this.#inFlight.values().next();
    if (oldest.done) {
      clearInterval(this.#watch);
      this.#watch = undefined;
    } else if (Date.now() - oldest.value.since >= SUSPECT_AFTER_MS) this.#check();
  }

  /**
   * Probes now, unless a probe is on its way. A slow query (not `failed`) does not probe again a
   * database that answered one just now: many at once ask at most once a second.
   */
  #check(failed = false): void {
    if (this.#closed || this.#probing) return;
    if (!failed && !this.#down && Date.now() - this.#answeredAt < RETRY_EVERY_MS) return;
    this.#probing = this.probe().then(
      () => this.#answered(),
      // A server that refuses one more connection (too many clients), or this one's password, is there.
      (err: unknown) => (isDatabaseUnreachable(err) ? this.#unanswered(err) : this.#answered()),
    );
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#retry);
    clearInterval(this.#watch);
    this.#watch = undefined;
  }

  #answered(): void {
    this.#probing = null;
    this.#answeredAt = Date.now();
    if (!this.#down) return;
    this.#down = false;
    this.log.info({}, 'The database answers again');
  }

  #unanswered(err: unknown): void {
    this.#probing = null;
    if (!this.#down) {
      this.#down = true;
      const code = (err as { code?: unknown })?.code;
      this.log.warn(
        { reason: typeof code === 'string' ? code : String((err as Error)?.message ?? err) },
        'The database is unreachable: requests are answered 503 until it answers',
      );
      for (const { lose } of this.#inFlight.values()) lose(LOST);
      this.onLost();
    }
    if (!this.#closed) this.#retry = setTimeout(() => this.#check(), RETRY_EVERY_MS).unref();
  }
}

/**
 * Runs `work` again, with backoff, while it fails because the database is unreachable (an outage or a
 * pool with no free connection for seconds), for up to `forMs`; then, or on any other error, throws.
 * For a write that records something that already happened outside (the network took a message):
 * giving up there would make the work be done twice.
 */
export async function untilRecorded<T>(work: () => Promise<T>, forMs: number): Promise<T> {
  const until = Date.now() + forMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 4_000)) {
    try {
      return await work();
    } catch (err) {
      if (!isDatabaseUnreachable(err) || Date.now() + delay > until) throw err;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
