import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { ISO } from '../contacts/list-contacts.js';
import { SAVED_VIEWS_MAX, type SavedView, type SavedViewBody, type SavedViewPatch } from './label-schemas.js';

const NOT_FOUND = 'No saved view of yours with that id';

interface Member {
  workspaceId: string;
  userId: string;
}

/** The member's own views and those teammates shared, by name. */
export async function listSavedViews(db: Queryable, m: Member, id?: string): Promise<SavedView[]> {
  const { rows } = await db.query<SavedView>(
    `SELECT id, name, query, shared, user_id = $2 AS mine, to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at
     FROM saved_views WHERE workspace_id = $1 AND (user_id = $2 OR shared) AND ($3::text IS NULL OR id = $3)
     ORDER BY lower(name), id`,
    [m.workspaceId, m.userId, id ?? null],
  );
  return rows;
}

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw ApiError.invalid('name', 'Give the view a name.');
  return trimmed;
}

/** Saves a view for the member; 409 past SAVED_VIEWS_MAX of theirs. */
export async function createSavedView(db: Queryable, m: Member, body: SavedViewBody): Promise<SavedView> {
  const id = newId('sv');
  const { rows } = await db.query(
    `INSERT INTO saved_views (workspace_id, id, user_id, name, query, shared)
     SELECT $1, $2, $3, $4, $5, $6
     WHERE (SELECT count(*) FROM saved_views WHERE workspace_id = $1 AND user_id = $3) < $7 RETURNING id`,
    [
      m.workspaceId,
      id,
      m.userId,
      cleanName(body.name),
      JSON.stringify(body.query),
      body.shared ?? false,
      SAVED_VIEWS_MAX,
    ],
  );
  if (!rows[0]) throw new ApiError('conflict', `You have ${SAVED_VIEWS_MAX} saved views: delete one first`);
  return (await listSavedViews(db, m, id))[0]!;
}

/** Changes one of the member's own views; a teammate's, even shared, is not theirs to change (404). */
export async function updateSavedView(db: Queryable, m: Member, id: string, patch: SavedViewPatch) {
  const { rows } = await db.query(
    `UPDATE saved_views SET name = COALESCE($4, name), query = COALESCE($5::jsonb, query), shared = COALESCE($6, shared)
     WHERE workspace_id = $1 AND user_id = $2 AND id = $3 RETURNING id`,
    [
      m.workspaceId,
      m.userId,
      id,
      patch.name === undefined ? null : cleanName(patch.name),
      patch.query === undefined ? null : JSON.stringify(patch.query),
      patch.shared ?? null,
    ],
  );
  if (!rows[0]) throw new ApiError('not_found', NOT_FOUND);
  return (await listSavedViews(db, m, id))[0]!;
}

export async function deleteSavedView(db: Queryable, m: Member, id: string): Promise<void> {
  const { rows } = await db.query(
    'DELETE FROM saved_views WHERE workspace_id = $1 AND user_id = $2 AND id = $3 RETURNING id',
    [m.workspaceId, m.userId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', NOT_FOUND);
}
