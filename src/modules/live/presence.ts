/** What a teammate is doing in a conversation; `left` clears it. */
export const PRESENCE_STATES = ['viewing', 'replying', 'left'] as const;
export type PresenceState = (typeof PRESENCE_STATES)[number];

/** How long a presence holds without being said again: the web app says it every 10 s. */
export const PRESENCE_TTL_MS = 30_000;
// Entries this instance keeps in all: past it the oldest goes (a bounded map, whatever is posted).
const MAX_ENTRIES = 20_000;

/** One teammate in one conversation, as the stream and GET /presence carry it. */
export interface Presence {
  user_id: string;
  name: string;
  contact_id: string;
  state: 'viewing' | 'replying';
  /** How long the page shows it unless it is said again. */
  ttl_ms: number;
}

/** What a presence post announces on LIVE_CHANNEL (every instance hears it: `k` "presence"). */
export interface PresenceNotice {
  w: string;
  u: string;
  n: string;
  c: string;
  s: PresenceState;
}

export const ssePresence = (p: Presence | (Omit<Presence, 'state'> & { state: 'left' })) =>
  `event: presence\ndata: ${JSON.stringify(p)}\n\n`;

/**
 * Who is viewing or replying to which conversation, per workspace, kept in this instance's memory
 * with a TTL. Posts go through PostgreSQL's NOTIFY (as ended sessions do), so every instance hears
 * each one and writes it to its own streams of that workspace, and only those.
 */
export class PresenceBoard {
  readonly #entries = new Map<string, Presence & { w: string; until: number }>();

  constructor(
    private readonly toWorkspace: (workspaceId: string, text: string) => void,
    private readonly ttlMs = PRESENCE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A presence notice heard on LIVE_CHANNEL; anything malformed is ignored. */
  heard(p: Partial<Record<keyof PresenceNotice, unknown>>): void {
    const { w, u, n, c, s } = p;
    if (typeof w !== 'string' || typeof u !== 'string' || typeof c !== 'string') return;
    if (typeof n !== 'string' || !PRESENCE_STATES.includes(s as PresenceState)) return;
    const key = `${w}\u0000${u}\u0000${c}`;
    this.#entries.delete(key);
    const presence = { user_id: u, name: n, contact_id: c, ttl_ms: this.ttlMs };
    if (s === 'left') {
      this.toWorkspace(w, ssePresence({ ...presence, state: 'left' }));
      return;
    }
    const entry = { ...presence, state: s as Presence['state'], w, until: this.now() + this.ttlMs };
    this.#entries.set(key, entry);
    if (this.#entries.size > MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    this.toWorkspace(w, ssePresence(this.#view(entry)));
  }

  /** The workspace's presences still held, each with the time it has left. */
  of(workspaceId: string): Presence[] {
    const now = this.now();
    const held: Presence[] = [];
    for (const [key, e] of this.#entries) {
      if (e.until <= now) this.#entries.delete(key);
      else if (e.w === workspaceId) held.push({ ...this.#view(e), ttl_ms: e.until - now });
    }
    return held;
  }

  #view({ w: _, until: __, ...p }: Presence & { w: string; until: number }): Presence {
    return p;
  }
}
