import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';
import { LIVE_KINDS, type LiveKind } from './live-kinds.js';

/**
 * The channel migrations/0021_inbox.sql announces messages, statuses, conversations and notes on,
 * 0025 broadcasts and ended sessions, and 0028 contacts and leads.
 */
export const LIVE_CHANNEL = 'parley_live';

export interface LiveEvent {
  /** `<epoch>-<n>`: what a browser sends back as Last-Event-ID when it reconnects. */
  id: string;
  kind: LiveKind;
  contact_id: string | null;
  message_id: string | null;
  direction: 'inbound' | 'outbound' | null;
}

export interface LiveLimits {
  /** Open streams one session may hold (its tabs); one more is refused with 429. */
  perSession: number;
  /** Open streams this instance holds in all. */
  total: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** A stream is ended after this long; the browser reconnects (and its session is checked again). */
  maxAgeMs: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = {
  perSession: 5,
  total: 2_000,
  heartbeatMs: 25_000,
  maxAgeMs: 15 * 60_000,
};

// Kept per workspace for a reconnecting browser's Last-Event-ID: older than this, it reloads instead.
const KEPT_PER_WORKSPACE = 200;
const KEPT_MS = 5 * 60_000;
// How long a workspace stays watched (live_watchers) after its last browser: past the events kept.
const WATCH_MS = 2 * KEPT_MS;
// A watch renewed once less than this is left: the renewal cost is one statement a minute.
const RENEW_BEFORE_MS = WATCH_MS - 60_000;

const WATCH_SQL = `INSERT INTO live_watchers (workspace_id, until) VALUES ($1, now() + make_interval(secs => $2))
  ON CONFLICT (workspace_id) DO UPDATE SET until = GREATEST(live_watchers.until, EXCLUDED.until)`;

interface Stream {
  workspaceId: string;
  sessionKey: string;
  openedAt: number;
  write(text: string): void;
  end(): void;
}

interface Kept {
  events: (LiveEvent & { n: number })[];
  /** Events up to this number were dropped from `events`. */
  droppedThrough: number;
}

/** One server-sent event, as the wire carries it. */
export const sseEvent = (e: LiveEvent) =>
  `id: ${e.id}\nevent: ${e.kind}\ndata: ${JSON.stringify({ contact_id: e.contact_id, message_id: e.message_id, direction: e.direction })}\n\n`;
/** Tells the browser to load everything again: notices may have been missed. */
export const SSE_REFRESH = 'event: refresh\ndata: {}\n\n';

/**
 * The browser's live updates on this instance: one LISTEN on LIVE_CHANNEL (every instance holds its
 * own, so a notice committed anywhere reaches every browser), fanned out to the open streams of the
 * notice's workspace only. Recent events are kept per workspace so a browser reconnecting with
 * Last-Event-ID misses nothing; when that cannot be told (another instance, a restart, a lost
 * listening connection, events dropped), it is told to refresh.
 */
export class LiveHub {
  readonly #streams = new Set<Stream>();
  readonly #kept = new LRUCache<string, Kept>({
    max: 10_000,
    ttl: KEPT_MS,
    noDisposeOnSet: true,
    dispose: (kept) => {
      this.#evictedThrough = Math.max(this.#evictedThrough, kept.events.at(-1)?.n ?? 0);
    },
  });
  #epoch = randomBytes(6).toString('hex');
  #n = 0;
  #evictedThrough = 0;
  #listening: boolean | undefined;
  #closed = false;
  #unlisten: (() => Promise<void>) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #query: Db['query'] | undefined;
  // The workspaces this instance has watched: until when (as written here), and the first event number
  // numbered up to which changes may have gone unannounced (a lapsed watch starts again from there).
  readonly #watched = new Map<string, { until: number; fromN: number }>();

  constructor(
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
    readonly limits: LiveLimits = DEFAULT_LIVE_LIMITS,
  ) {}

  async start(db: Pick<Db, 'listen' | 'query'>): Promise<void> {
    this.#query = db.query.bind(db);
    this.#unlisten = await db.listen(LIVE_CHANNEL, {
      notice: (payload) => this.#notice(payload),
      listening: () => {
        const wasLost = this.#listening === false;
        this.#listening = true;
        if (wasLost) {
          this.log.info({}, 'Live notices are heard again');
          for (const s of this.#streams) s.write(SSE_REFRESH);
        }
      },
      lost: (err) => {
        if (this.#listening === false) return;
        this.#listening = false;
        // Whatever a browser saw before cannot be continued from: a new epoch makes it refresh.
        this.#epoch = randomBytes(6).toString('hex');
        this.#kept.clear();
        this.log.warn({ err }, 'Live notices are not heard: open inboxes refresh when they come back');
      },
    });
    this.#timer = setInterval(() => this.#beat(), this.limits.heartbeatMs).unref();
  }

  /** Ends every stream and stops listening: a server shutting down does not wait on open streams. */
  async stop(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    for (const s of this.#streams) s.end();
    this.#streams.clear();
    await this.#unlisten?.();
  }

  get openStreams(): number {
    return this.#streams.size;
  }

  /** Registers a stream of the workspace; 429 past the session's or this instance's bound, 503 while stopping. */
  open(stream: Omit<Stream, 'openedAt'>): () => void {
    if (this.#closed) throw new ApiError('unavailable', 'The server is shutting down; reconnect shortly');
    let mine = 0;
    for (const s of this.#streams) if (s.sessionKey === stream.sessionKey) mine++;
    if (mine >= this.limits.perSession) {
      throw new ApiError(
        'rate_limited',
        `At most ${this.limits.perSession} live connections per session; close another tab of the app`,
      );
    }
    if (this.#streams.size >= this.limits.total) {
      throw new ApiError(
        'rate_limited',
        'This server holds as many live connections as it can; try again soon',
      );
    }
    const held: Stream = { ...stream, openedAt: Date.now() };
    this.#streams.add(held);
    return () => this.#streams.delete(held);
  }

  /**
   * Has the workspace's changes announced (migrations/0021_inbox.sql) from now until WATCH_MS after
   * its last stream or poll; awaited before either answers, so nothing after it is missed.
   */
  async watch(workspaceId: string): Promise<void> {
    const now = Date.now();
    const was = this.#watched.get(workspaceId);
    if (was && was.until - now > RENEW_BEFORE_MS) return;
    await this.#query!(WATCH_SQL, [workspaceId, WATCH_MS / 1000]);
    const fromN = was && was.until > Date.now() ? was.fromN : this.#n;
    this.#watched.set(workspaceId, { until: now + WATCH_MS, fromN });
  }

  /** The workspace's events after `lastEventId`, or null when they cannot be told (refresh instead). */
  since(workspaceId: string, lastEventId: string): LiveEvent[] | null {
    const [epoch, n] = lastEventId.split('-');
    const after = Number(n);
    if (epoch !== this.#epoch || !Number.isSafeInteger(after) || after > this.#n) return null;
    const watched = this.#watched.get(workspaceId);
    if (!watched || after <= watched.fromN) return null;
    const kept = this.#kept.get(workspaceId);
    if (after < this.#evictedThrough || (kept && after < kept.droppedThrough)) return null;
    return (kept?.events ?? []).filter((e) => e.n > after).map(({ n: _, ...e }) => e);
  }

  /** The newest events kept for the workspace (a client without a stream polls these). */
  recent(workspaceId: string): LiveEvent[] {
    return (this.#kept.get(workspaceId)?.events ?? []).map(({ n: _, ...e }) => e);
  }

  /** Ends the session's open streams: it signed out, was removed or revoked (on any instance). */
  #endSession(sessionKey: string): void {
    for (const s of this.#streams) {
      if (s.sessionKey !== sessionKey) continue;
      this.#streams.delete(s);
      s.end();
    }
  }

  #notice(payload: string): void {
    let parsed: { w?: unknown; k?: unknown; c?: unknown; m?: unknown; d?: unknown; s?: unknown };
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    const { w, k, c, m, d } = parsed;
    if (k === 'session_ended' && typeof parsed.s === 'string') {
      this.#endSession(parsed.s);
      return;
    }
    if (typeof w !== 'string' || !LIVE_KINDS.includes(k as LiveKind)) return;
    const n = ++this.#n;
    const event: LiveEvent = {
      id: `${this.#epoch}-${n}`,
      kind: k as LiveKind,
      contact_id: typeof c === 'string' ? c : null,
      message_id: typeof m === 'string' ? m : null,
      direction: d === 'inbound' || d === 'outbound' ? d : null,
    };
    const kept = this.#kept.get(w) ?? { events: [], droppedThrough: 0 };
    kept.events.push({ ...event, n });
    if (kept.events.length > KEPT_PER_WORKSPACE) kept.droppedThrough = kept.events.shift()!.n;
    this.#kept.set(w, kept);
    const text = sseEvent(event);
    for (const s of this.#streams) if (s.workspaceId === w) s.write(text);
  }

  #beat(): void {
    const now = Date.now();
    const open = new Set<string>();
    for (const s of this.#streams) {
      if (now - s.openedAt >= this.limits.maxAgeMs) {
        this.#streams.delete(s);
        s.end();
      } else {
        s.write(': ping\n\n');
        open.add(s.workspaceId);
      }
    }
    for (const [workspaceId, w] of this.#watched)
      if (w.until < now - KEPT_MS) this.#watched.delete(workspaceId);
    for (const workspaceId of open) {
      this.watch(workspaceId).catch((err: unknown) =>
        this.log.warn({ err, workspaceId }, 'Could not renew a workspace’s live notices'),
      );
    }
  }
}
