import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import type { ApiKeyListResult } from './schemas.js';

/** Live keys first, newest first; never the key itself (only its hash is stored). */
export async function listApiKeys(db: Queryable, workspaceId: string) {
  const { rows } = await db.query<Static<typeof ApiKeyListResult>['api_keys'][number]>(
    `SELECT id, name, display_prefix, created_at, last_used_at, revoked_at FROM api_keys
     WHERE workspace_id = $1 ORDER BY revoked_at IS NOT NULL, created_at DESC LIMIT 200`,
    [workspaceId],
  );
  return rows;
}
