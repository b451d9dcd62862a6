import { LRUCache } from 'lru-cache';
import type { Queryable } from '../../db/db.js';
import { sha256Hex } from '../../lib/hash.js';

export interface Principal {
  keyId: string;
  workspaceId: string;
  defaultCountryCode: string | null;
}

const CACHE_TTL_MS = 10 * 60_000;
const WATCH_EVERY_MS = 2_000;
const LAST_USED_EVERY_MS = 60_000;

/**
 * Resolves an API key to its workspace. An uncached lookup per request costs about a quarter of the
 * throughput, so answers are cached; to honour revocation within seconds on every instance, a
 * watcher asks every WATCH_EVERY_MS which keys were revoked (or whose workspace changed) since it
 * last asked and drops them. On the instance that revokes, `forget` drops the key at once.
 */
export class KeyVerifier {
  readonly #cache = new LRUCache<string, Principal | false>({ max: 50_000, ttl: CACHE_TTL_MS });
  readonly #lastUsedWritten = new LRUCache<string, number>({ max: 50_000 });
  #usedSinceSync = new Set<string>();
  #watch: NodeJS.Timeout | undefined;
  #since: Date | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly onError: (err: unknown) => void,
  ) {}

  async verify(key: string): Promise<Principal | null> {
    const hash = sha256Hex(key);
    let principal = this.#cache.get(hash);
    if (principal === undefined) {
      principal = (await this.lookup(hash)) ?? false;
      this.#cache.set(hash, principal);
    }
    if (!principal) return null;
    this.touch(principal.keyId);
    return principal;
  }

  /** Drops a key (by hash) from this instance's cache. */
  forget(hash: string): void {
    this.#cache.delete(hash);
  }

  /** Starts the revocation watcher; call stop() to end it. */
  async start(everyMs = WATCH_EVERY_MS): Promise<void> {
    await this.sync();
    this.#watch = setInterval(() => this.sync().catch(this.onError), everyMs).unref();
  }

  /** Ends the watcher, recording the last key uses first. */
  async stop(): Promise<void> {
    clearInterval(this.#watch);
    await this.recordUse().catch(this.onError);
  }

  /**
   * Drops every cached key revoked, or whose workspace changed, since the last call, and records
   * which keys were used (last_used_at is kept to the minute, in one write for all of them).
   */
  async sync(): Promise<void> {
    await this.recordUse();
    const { rows } = await this.db.query<{ key_hash: string | null; at: Date }>(
      `SELECT k.key_hash, now() AS at FROM (SELECT 1) AS clock
       LEFT JOIN api_keys k ON $1::timestamptz IS NOT NULL AND (
         k.revoked_at >= $1 OR k.workspace_id IN (SELECT id FROM workspaces WHERE updated_at >= $1))`,
      [this.#since ?? null],
    );
    for (const row of rows) if (row.key_hash) this.#cache.delete(row.key_hash);
    // Overlap the windows by a second so a change committed while this query ran is not missed.
    this.#since = new Date(rows[0]!.at.getTime() - 1_000);
  }

  private async lookup(hash: string): Promise<Principal | null> {
    const { rows } = await this.db.query<{
      id: string;
      workspace_id: string;
      default_country_code: string | null;
    }>(
      `SELECT k.id, k.workspace_id, w.default_country_code
       FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
       WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    );
    const row = rows[0];
    return row
      ? { keyId: row.id, workspaceId: row.workspace_id, defaultCountryCode: row.default_country_code }
      : null;
  }

  private touch(keyId: string): void {
    const last = this.#lastUsedWritten.get(keyId);
    if (last === undefined || Date.now() - last >= LAST_USED_EVERY_MS) this.#usedSinceSync.add(keyId);
  }

  private async recordUse(): Promise<void> {
    if (this.#usedSinceSync.size === 0) return;
    const ids = [...this.#usedSinceSync];
    this.#usedSinceSync = new Set();
    const now = Date.now();
    for (const id of ids) this.#lastUsedWritten.set(id, now);
    await this.db.query('UPDATE api_keys SET last_used_at = now() WHERE id = ANY($1::text[])', [ids]);
  }
}
