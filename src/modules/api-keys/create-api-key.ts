import type { Queryable } from '../../db/db.js';
import { sha256Hex } from '../../lib/hash.js';
import { newId, newSecret } from '../../lib/ids.js';

const API_KEY_PREFIX = 'pk_live_';

export interface CreatedApiKey {
  id: string;
  /** The only time the key is seen: only its hash is stored. */
  key: string;
  displayPrefix: string;
}

export async function createApiKey(db: Queryable, workspaceId: string, name = ''): Promise<CreatedApiKey> {
  const id = newId('key');
  const key = newSecret(API_KEY_PREFIX);
  const displayPrefix = key.slice(0, API_KEY_PREFIX.length + 4);
  const { rows } = await db.query(
    `INSERT INTO api_keys (workspace_id, id, name, display_prefix, key_hash)
     SELECT id, $2, $3, $4, $5 FROM workspaces WHERE id = $1 RETURNING id`,
    [workspaceId, id, name, displayPrefix, sha256Hex(key)],
  );
  if (rows.length === 0) throw new Error(`workspace ${workspaceId} does not exist`);
  return { id, key, displayPrefix };
}
