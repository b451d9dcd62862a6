import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../../api/errors.js';
import type { Db } from '../../db/db.js';
import { BEGIN_LOOKBACK, LiveEventFeed, type LiveEventRow } from './live-event-feed.js';
import { LIVE_KINDS, type LiveKind } from './live-kinds.js';
import { PresenceBoard } from './presence.js';

/**
 * The channel migrations/0025 announces ended sessions on, and 0032 members removed or given another
 * role; every other change is a row of live_events (0027, contacts and leads since 0029).
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
  /** Open streams one user may hold over all their sessions on this instance. */
  perUser: number;
  /** Open streams one workspace's members may hold on this instance: well below `total`, so one
   * workspace cannot take every stream from the others. */
  perWorkspace: number;
  /** Open streams this instance holds in all. */
  total: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** A stream is ended after this long; the browser reconnects (and its session is checked again). */
  maxAgeMs: number;
  /** live_events is read this often while a workspace is watched. */
  pollMs: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = {
  perSession: 5,
  perUser: 10,
  perWorkspace: 100,
  total: 2_000,
  heartbeatMs: 25_000,
  maxAgeMs: 15 * 60_000,
  pollMs: 250,
};

// Kept per workspace for a reconnecting browser's Last-Event-ID: older than this, it reloads instead.
const KEPT_PER_WORKSPACE = 200;
const KEPT_MS = 5 * 60_000;
// How long a workspace stays watched (live_watchers) after its last browser: past the events kept.
const WATCH_MS = 2 * KEPT_MS;
// A watch renewed once less than this is left: the renewal cost is one statement a minute.
const RENEW_BEFORE_MS = WATCH_MS - 60_000;

// Also the newest live event, where reading starts when this instance watched nothing before, and
// the ids committed just below it (LiveEventFeed.begin).
const WATCH_SQL = `WITH watch AS (
    INSERT INTO live_watchers (workspace_id, until) VALUES ($1, now() + make_interval(secs => $2))
    ON CONFLICT (workspace_id) DO UPDATE SET until = GREATEST(live_watchers.until, EXCLUDED.until)),
  newest AS (SELECT coalesce(max(id), 0) AS id FROM live_events)
  SELECT newest.id::text AS newest,
    ARRAY(SELECT e.id::text FROM live_events e WHERE e.id > newest.id - ${BEGIN_LOOKBACK}) AS committed
  FROM newest`;

interface Stream {
  workspaceId: string;
  sessionKey: string;
  userId: string;
  openedAt: number;
  write(text: string): void;
  end(): void;
}

interface Kept {
  /** `for`: the one member an event is for (a notice), else null. */
  events: (LiveEvent & { n: number; for: string | null })[];
  /** Events up to this number were dropped from `events`. */
  droppedThrough: number;
}

/** One server-sent event, as the wire carries it. */
export const sseEvent = (e: LiveEvent) =>
  `id: ${e.id}\nevent: ${e.kind}\ndata: ${JSON.stringify({ contact_id: e.contact_id, message_id: e.message_id, direction: e.direction })}\n\n`;
/** Tells the browser to load everything again: events may have been missed. */
export const SSE_REFRESH = 'event: refresh\ndata: {}\n\n';

/**
 * The browser's live updates on this instance: the rows of live_events, read every `pollMs` while a
 * workspace is watched (every instance reads them all, so a change committed anywhere reaches every
 * browser), fanned out to the open streams of the event's workspace only; and one LISTEN on
 * LIVE_CHANNEL for ended sessions and changed members. Recent events are kept per workspace so a browser reconnecting with
 * Last-Event-ID misses nothing; when that cannot be told (another instance, a restart, events
 * dropped), it is told to refresh.
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
  #poll: NodeJS.Timeout | undefined;
  #readFailing = false;
  #query: Db['query'] | undefined;
  #feed: LiveEventFeed | undefined;
  // The workspaces this instance has watched: until when (as written here), and the first event number
  // numbered up to which changes may have gone unannounced (a lapsed watch starts again from there).
  readonly #watched = new Map<string, { until: number; fromN: number }>();
  /** Who is viewing or replying where: heard on LIVE_CHANNEL, written to the workspace's streams. */
  readonly presence = new PresenceBoard((w, text) => this.toWorkspace(w, text));

  constructor(
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
    readonly limits: LiveLimits = DEFAULT_LIVE_LIMITS,
  ) {}

  async start(db: Pick<Db, 'listen' | 'query'>): Promise<void> {
    this.#query = db.query.bind(db);
    this.#feed = new LiveEventFeed(
      this.#query,
      (row) => this.#event(row),
      () => {
        this.log.warn({}, 'More live events in flight than can be followed: open inboxes refresh');
        this.#forget();
        for (const s of this.#streams) s.write(SSE_REFRESH);
      },
    );
    this.#unlisten = await db.listen(LIVE_CHANNEL, {
      notice: (payload) => this.#notice(payload),
      listening: () => {
        if (this.#listening === false) this.log.info({}, 'Ended sessions are heard again');
        this.#listening = true;
      },
      lost: (err) => {
        if (this.#listening === false) return;
        this.#listening = false;
        this.log.warn(
          { err },
          'Ended sessions are not heard: a signed-out session’s open pages stay connected until their stream’s 15 minutes end',
        );
      },
    });
    this.#timer = setInterval(() => this.#beat(), this.limits.heartbeatMs).unref();
  }

  /** Ends every stream and stops listening: a server shutting down does not wait on open streams. */
  async stop(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    clearTimeout(this.#poll);
    for (const s of this.#streams) s.end();
    this.#streams.clear();
    await this.#unlisten?.();
  }

  get openStreams(): number {
    return this.#streams.size;
  }

  /**
   * Registers a stream of the workspace; 429 past the session's, the user's, the workspace's or this
   * instance's bound, 503 while stopping.
   */
  open(stream: Omit<Stream, 'openedAt'>): () => void {
    if (this.#closed) throw new ApiError('unavailable', 'The server is shutting down; reconnect shortly');
    let session = 0;
    let user = 0;
    let workspace = 0;
    for (const s of this.#streams) {
      if (s.sessionKey === stream.sessionKey) session++;
      if (s.userId === stream.userId) user++;
      if (s.workspaceId === stream.workspaceId) workspace++;
    }
    if (session >= this.limits.perSession) {
      throw new ApiError(
        'rate_limited',
        `At most ${this.limits.perSession} live connections per session; close another tab of the app`,
      );
    }
    if (user >= this.limits.perUser) {
      throw new ApiError(
        'rate_limited',
        `At most ${this.limits.perUser} live connections per person; close another tab or window of the app`,
      );
    }
    if (workspace >= this.limits.perWorkspace) {
      throw new ApiError(
        'rate_limited',
        `This workspace holds as many live connections as it may (${this.limits.perWorkspace}); close some tabs of the app and try again`,
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
   * Has the workspace's changes written to live_events (migrations/0027_live_events.sql) from now until WATCH_MS after
   * its last stream or poll; awaited before either answers, so nothing after it is missed.
   */
  async watch(workspaceId: string): Promise<void> {
    const now = Date.now();
    const was = this.#watched.get(workspaceId);
    if (was && was.until - now > RENEW_BEFORE_MS) return;
    const { rows } = await this.#query!<{ newest: string; committed: string[] }>(WATCH_SQL, [
      workspaceId,
      WATCH_MS / 1000,
    ]);
    const fromN = was && was.until > Date.now() ? was.fromN : this.#n;
    this.#watched.set(workspaceId, { until: now + WATCH_MS, fromN });
    if (this.#feed!.begin(Number(rows[0]!.newest), rows[0]!.committed.map(Number))) this.#schedule();
  }

  #schedule(): void {
    this.#poll = setTimeout(() => void this.#read(), this.limits.pollMs).unref();
  }

  /** One read of live_events, then the next while this instance watches a workspace. */
  async #read(): Promise<void> {
    try {
      await this.#feed!.read();
      if (this.#readFailing) this.log.info({}, 'Live events are read again');
      this.#readFailing = false;
    } catch (err) {
      // Nothing is lost while reading fails: the next read continues from the same row.
      if (!this.#readFailing && !this.#closed)
        this.log.warn({ err }, 'Could not read live events; trying again');
      this.#readFailing = true;
    }
    if (this.#closed) return;
    if (this.#watched.size > 0) this.#schedule();
    else this.#feed!.end();
  }

  /** Whatever a browser saw before cannot be continued from: a new epoch makes it refresh. */
  #forget(): void {
    this.#epoch = randomBytes(6).toString('hex');
    this.#kept.clear();
  }

  /**
   * The workspace's events after `lastEventId` (those for one member only when `userId` is that
   * member), or null when they cannot be told (refresh instead).
   */
  since(workspaceId: string, lastEventId: string, userId?: string): LiveEvent[] | null {
    const [epoch, n] = lastEventId.split('-');
    const after = Number(n);
    if (epoch !== this.#epoch || !Number.isSafeInteger(after) || after > this.#n) return null;
    const watched = this.#watched.get(workspaceId);
    if (!watched || after <= watched.fromN) return null;
    const kept = this.#kept.get(workspaceId);
    if (after < this.#evictedThrough || (kept && after < kept.droppedThrough)) return null;
    return (kept?.events ?? [])
      .filter((e) => e.n > after && (e.for === null || e.for === userId))
      .map(({ n: _, for: __, ...e }) => e);
  }

  /** The newest events kept for the workspace (a client without a stream polls these). */
  recent(workspaceId: string, userId?: string): LiveEvent[] {
    return (this.#kept.get(workspaceId)?.events ?? [])
      .filter((e) => e.for === null || e.for === userId)
      .map(({ n: _, for: __, ...e }) => e);
  }

  /** Ends the session's open streams: it signed out, was removed or revoked (on any instance). */
  #endSession(sessionKey: string): void {
    for (const s of this.#streams) {
      if (s.sessionKey !== sessionKey) continue;
      this.#streams.delete(s);
      s.end();
    }
  }

  /**
   * Ends the user's open streams of the workspace: they were removed or their role changed (on any
   * instance), whichever workspace their sessions are in now.
   */
  #endMember(workspaceId: string, userId: string): void {
    for (const s of this.#streams) {
      if (s.workspaceId !== workspaceId || s.userId !== userId) continue;
      this.#streams.delete(s);
      s.end();
    }
  }

  /** A notice on LIVE_CHANNEL: ended sessions, changed members and presence (presence.ts) come this way. */
  #notice(payload: string): void {
    let parsed: { k?: unknown; s?: unknown; w?: unknown; u?: unknown; n?: unknown; c?: unknown } | null;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    if (parsed?.k === 'session_ended' && typeof parsed.s === 'string') this.#endSession(parsed.s);
    if (parsed?.k === 'member_changed' && typeof parsed.w === 'string' && typeof parsed.u === 'string') {
      this.#endMember(parsed.w, parsed.u);
    }
    if (parsed?.k === 'presence') this.presence.heard(parsed);
  }

  /** An event from a row of live_events. */
  #event({ workspace_id: w, kind, contact_id, message_id, direction: d, user_id: only }: LiveEventRow): void {
    if (!LIVE_KINDS.includes(kind as LiveKind)) return;
    const n = ++this.#n;
    const event: LiveEvent = {
      id: `${this.#epoch}-${n}`,
      kind: kind as LiveKind,
      contact_id,
      message_id,
      direction: d === 'inbound' || d === 'outbound' ? d : null,
    };
    const kept = this.#kept.get(w) ?? { events: [], droppedThrough: 0 };
    kept.events.push({ ...event, n, for: only ?? null });
    if (kept.events.length > KEPT_PER_WORKSPACE) kept.droppedThrough = kept.events.shift()!.n;
    this.#kept.set(w, kept);
    const text = sseEvent(event);
    for (const s of this.#streams) if (s.workspaceId === w && (!only || s.userId === only)) s.write(text);
  }

  /** Text for every open stream of the workspace on this instance (presence: presence.ts). */
  toWorkspace(workspaceId: string, text: string): void {
    for (const s of this.#streams) if (s.workspaceId === workspaceId) s.write(text);
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
