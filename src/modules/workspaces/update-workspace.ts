import type { Queryable } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';
import { isCallingCode } from '../../lib/phone.js';
import { KEY_NOTICES } from '../api-keys/key-notices.js';

/** Settings › General: a field left undefined stays; a null or empty country code clears the default. */
export async function updateWorkspace(
  db: Queryable,
  workspaceId: string,
  changes: { name?: string; default_country_code?: string | null; mark_read?: boolean },
): Promise<void> {
  const { name, default_country_code, mark_read } = changes;
  const cc =
    default_country_code === undefined ? undefined : default_country_code?.replace(/^\+/, '') || null;
  if (cc && !isCallingCode(cc)) {
    throw ApiError.validation(
      'default_country_code',
      `${cc} is not a known calling code (for example 91 or 1)`,
    );
  }
  if (name !== undefined && !name.trim()) throw ApiError.invalid('name', 'Enter a name.');
  // Cached API key principals carry the default country code: a change of it is announced to every
  // instance on commit, and updated_at moves for their fallback poll.
  await db.query(
    `WITH changed AS (
       UPDATE workspaces SET name = COALESCE($2, name),
         default_country_code = CASE WHEN $3 THEN $4 ELSE default_country_code END,
         mark_read = COALESCE($6, mark_read), updated_at = now()
       WHERE id = $1 RETURNING id)
     SELECT pg_notify($5, 'workspace:' || id) FROM changed WHERE $3`,
    [workspaceId, name?.trim() ?? null, cc !== undefined, cc ?? null, KEY_NOTICES, mark_read ?? null],
  );
}
