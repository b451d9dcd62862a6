import type { Queryable } from '../../db/db.js';

/** Returns the revoked key's hash (to drop it from caches), or null when no live key has that id. */
export async function revokeApiKey(db: Queryable, id: string, workspaceId?: string): Promise<string | null> {
  const { rows } = await db.query<{ key_hash: string }>(
    `UPDATE api_keys SET revoked_at = now()
     WHERE id = $1 AND revoked_at IS NULL AND ($2::text IS NULL OR workspace_id = $2)
     RETURNING key_hash`,
    [id, workspaceId ?? null],
  );
  return rows[0]?.key_hash ?? null;
}
