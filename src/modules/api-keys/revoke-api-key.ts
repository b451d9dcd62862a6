import type { Queryable } from '../../db/db.js';
import { KEY_NOTICES } from './key-notices.js';

/**
 * Returns the revoked key's hash (to drop it from this instance's cache), or null when no live key has
 * that id. Every instance hears of it on KEY_NOTICES when the revocation commits.
 */
export async function revokeApiKey(db: Queryable, id: string, workspaceId?: string): Promise<string | null> {
  const { rows } = await db.query<{ key_hash: string }>(
    `WITH revoked AS (
       UPDATE api_keys SET revoked_at = now()
       WHERE id = $1 AND revoked_at IS NULL AND ($2::text IS NULL OR workspace_id = $2)
       RETURNING key_hash)
     SELECT key_hash, pg_notify($3, 'key:' || key_hash) FROM revoked`,
    [id, workspaceId ?? null, KEY_NOTICES],
  );
  return rows[0]?.key_hash ?? null;
}
