import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Principal } from '../../api/principal.js';
import type { Db, Queryable } from '../../db/db.js';
import { isDatabaseUnreachable } from '../../db/outage.js';
import { sha256Hex } from '../../lib/hash.js';
import { KEY_NOTICES } from './key-notices.js';

interface WatchOptions {
  /** How often the fallback poll asks what was revoked or changed since it last asked. */
  everyMs: number;
  /** The database's listen, for the notices sent as revocations commit; without it, the poll alone. */
  listen?: Db['listen'];
}

const CACHE_TTL_MS = 10 * 60_000;
const LAST_USED_EVERY_MS = 60_000;

/**
 * Resolves an API key to its workspace. An uncached lookup per request costs about a quarter of the
 * throughput, so answers are cached. Whatever makes a cached answer wrong (a revocation, a new default
 * country code) is announced on KEY_NOTICES as it commits, and every instance drops it as the notice
 * arrives. Behind the notices a poll asks every few seconds which keys were revoked, or whose
 * workspace changed, since it last asked. While the listening connection is down notices are lost, so
 * the cache is emptied when it drops and again when it is back.
 *
 * Every drop moves an epoch. A lookup under way across a drop may have read the key before the
 * revocation committed: it answers its own request, which ran alongside the revocation (as one a
 * moment further along would have), but its answer is not kept.
 */
export class KeyVerifier {
  readonly #cache = new LRUCache<string, Principal | false>({ max: 50_000, ttl: CACHE_TTL_MS });
  readonly #lastUsedWritten = new LRUCache<string, number>({ max: 50_000 });
  #usedSinceSync = new Set<string>();
  #epoch = 0;
  #listening: boolean | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  #watch: NodeJS.Timeout | undefined;
  #since: Date | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
  ) {}

  async verify(key: string): Promise<Principal | null> {
    const hash = sha256Hex(key);
    let principal = this.#cache.get(hash);
    if (principal === undefined) {
      const epoch = this.#epoch;
      principal = (await this.lookup(hash)) ?? false;
      if (epoch === this.#epoch) this.#cache.set(hash, principal);
    }
    if (!principal) return null;
    this.touch(principal.keyId);
    return principal;
  }

  /** Drops a key (by hash) at once: the revoking instance does not wait for its own notice. */
  forget(hash: string): void {
    this.#epoch++;
    this.#cache.delete(hash);
  }

  /** Listens for notices, then starts the fallback poll; call stop() to end both. */
  async start({ everyMs, listen }: WatchOptions): Promise<void> {
    this.#unlisten = await listen?.(KEY_NOTICES, {
      notice: (payload) => this.heard(payload),
      listening: () => {
        // Anything cached before now may have missed a notice sent while nobody listened.
        this.clear();
        if (this.#listening === false) this.log.info('API key revocation notices are heard again');
        this.#listening = true;
      },
      lost: (err) => {
        if (this.#listening === false) return;
        this.clear();
        this.#listening = false;
        this.log.warn(
          { err },
          'API key revocation notices are not heard: revoked keys are dropped by the poll until they are',
        );
      },
    });
    await this.sync();
    this.#watch = setInterval(
      () =>
        this.sync().catch((err) => {
          // An unreachable database is logged once, by the database layer, not at each poll.
          if (!isDatabaseUnreachable(err)) this.log.warn({ err }, 'API key bookkeeping failed');
        }),
      everyMs,
    ).unref();
  }

  /** Ends the watch, recording the last key uses first. */
  async stop(): Promise<void> {
    clearInterval(this.#watch);
    await this.#unlisten?.().catch((err) => this.log.warn({ err }, 'API key notices did not stop cleanly'));
    await this.recordUse().catch((err) => this.log.warn({ err }, 'API key bookkeeping failed'));
  }

  /**
   * The fallback poll: drops every cached key revoked, or whose workspace changed, since the last
   * call, and records which keys were used (last_used_at is kept to the minute, in one write for all).
   */
  async sync(): Promise<void> {
    await this.recordUse();
    const { rows } = await this.db.query<{ key_hash: string | null; at: Date }>(
      `SELECT k.key_hash, now() AS at FROM (SELECT 1) AS clock
       LEFT JOIN api_keys k ON $1::timestamptz IS NOT NULL AND (
         k.revoked_at >= $1 OR k.workspace_id IN (SELECT id FROM workspaces WHERE updated_at >= $1))`,
      [this.#since ?? null],
    );
    for (const row of rows) if (row.key_hash) this.forget(row.key_hash);
    // Overlap the windows by a second so a change committed while this query ran is not missed.
    this.#since = new Date(rows[0]!.at.getTime() - 1_000);
  }

  private heard(payload: string): void {
    const [, kind, id] = /^(key|workspace):(.+)$/.exec(payload) ?? [];
    if (kind === 'key') this.forget(id!);
    else if (kind === 'workspace') this.forgetWorkspace(id!);
    else this.clear();
  }

  private forgetWorkspace(workspaceId: string): void {
    this.#epoch++;
    const keys = [...this.#cache.entries()].filter(([, p]) => p && p.workspaceId === workspaceId);
    for (const [hash] of keys) this.#cache.delete(hash);
  }

  private clear(): void {
    this.#epoch++;
    this.#cache.clear();
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
