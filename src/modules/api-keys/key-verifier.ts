import { LRUCache } from 'lru-cache';
import type { Queryable } from '../../db/db.js';
import { sha256Hex } from '../../lib/hash.js';

export interface Principal {
  keyId: string;
  workspaceId: string;
  defaultCountryCode: string | null;
}

const CACHE_TTL_MS = 5_000;
const LAST_USED_EVERY_MS = 60_000;

/**
 * Resolves an API key to its workspace. Hashes are cached for a few seconds (an uncached lookup per
 * request costs about a quarter of the throughput), so a key revoked on another instance stops
 * working within CACHE_TTL_MS; on this instance `forget` makes it stop at once.
 */
export class KeyVerifier {
  readonly #cache: LRUCache<string, Principal | false>;
  readonly #lastUsedWritten = new LRUCache<string, number>({ max: 50_000 });

  constructor(
    private readonly db: Queryable,
    private readonly onError: (err: unknown) => void,
    ttlMs = CACHE_TTL_MS,
  ) {
    this.#cache = new LRUCache({ max: 50_000, ttl: ttlMs });
  }

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

  /** Drops a key (by hash) or a whole workspace's keys from this instance's cache. */
  forget(match: { hash?: string; workspaceId?: string }): void {
    if (match.hash) this.#cache.delete(match.hash);
    if (match.workspaceId) {
      for (const [hash, p] of this.#cache.entries()) {
        if (p && p.workspaceId === match.workspaceId) this.#cache.delete(hash);
      }
    }
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

  /** last_used_at is kept to the minute: one write per key per minute, off the request path. */
  private touch(keyId: string): void {
    const now = Date.now();
    const last = this.#lastUsedWritten.get(keyId);
    if (last !== undefined && now - last < LAST_USED_EVERY_MS) return;
    this.#lastUsedWritten.set(keyId, now);
    this.db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [keyId]).catch(this.onError);
  }
}
