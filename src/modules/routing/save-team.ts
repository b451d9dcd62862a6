import { ApiError } from '../../api/errors.js';
import type { Db, Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { type Actor, changedFields, recordAudit } from '../audit/record-audit.js';
import { listTeams } from './list-teams.js';
import { TEAMS_MAX, type Team, type TeamBody, type TeamPatch } from './schemas.js';

const nameTaken = (err: unknown) =>
  (err as { code?: string; constraint?: string }).code === '23505'
    ? new ApiError('conflict', 'A team of that name exists already; choose another name')
    : err;

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw ApiError.invalid('name', 'Give the team a name.');
  return trimmed;
}

/** Makes the team's members exactly `memberIds` (keeping the round robin turns of those who stay). */
async function setMembers(tx: Queryable, workspaceId: string, teamId: string, memberIds: string[]) {
  const { rows } = await tx.query<{ id: string }>(
    `SELECT u.id FROM unnest($2::text[]) AS u(id)
     WHERE NOT EXISTS (SELECT 1 FROM memberships m WHERE m.workspace_id = $1 AND m.user_id = u.id)`,
    [workspaceId, memberIds],
  );
  if (rows.length > 0) throw ApiError.invalid('member_ids', 'Choose members of this workspace for the team.');
  await tx.query(
    `WITH gone AS (
       DELETE FROM team_members WHERE workspace_id = $1 AND team_id = $2 AND NOT (user_id = ANY($3::text[])))
     -- Added members never assigned yet take their turns in the order given.
     INSERT INTO team_members (workspace_id, team_id, user_id, created_at)
     SELECT $1, $2, u.id, now() + make_interval(secs => u.n / 1e6)
     FROM unnest($3::text[]) WITH ORDINALITY AS u(id, n) ON CONFLICT DO NOTHING`,
    [workspaceId, teamId, memberIds],
  );
}

/**
 * A new team; 409 when the workspace has one of that name (in any case) or already TEAMS_MAX teams.
 * `within` runs in its transaction with the team made (REST v1 records its Idempotency-Key answer there).
 */
export async function createTeam(
  db: Db,
  workspaceId: string,
  body: TeamBody,
  actor: Actor,
  within?: (tx: Queryable, team: Team) => Promise<void>,
): Promise<Team> {
  const id = newId('team');
  try {
    await db.transaction(async (tx) => {
      const { rows } = await tx.query(
        `INSERT INTO teams (workspace_id, id, name, max_open_per_member)
         SELECT $1, $2, $3, $4 WHERE (SELECT count(*) FROM teams WHERE workspace_id = $1) < $5
         RETURNING id`,
        [workspaceId, id, cleanName(body.name), body.max_open_per_member ?? null, TEAMS_MAX],
      );
      if (!rows[0])
        throw new ApiError(
          'conflict',
          `A workspace has at most ${TEAMS_MAX} teams: delete one you no longer use`,
        );
      await setMembers(tx, workspaceId, id, body.member_ids ?? []);
      await recordAudit(tx, { workspaceId, actor, action: 'create', entityType: 'team', entityId: id });
      if (within) await within(tx, (await listTeams(tx, workspaceId, id))[0]!);
    });
  } catch (err) {
    throw nameTaken(err);
  }
  return (await listTeams(db, workspaceId, id))[0]!;
}

/** Changes what the patch gives; 404 for a team that is not the workspace's. */
export async function updateTeam(
  db: Db,
  workspaceId: string,
  teamId: string,
  patch: TeamPatch,
  actor: Actor,
): Promise<Team> {
  try {
    await db.transaction(async (tx) => {
      const { rows } = await tx.query(
        `UPDATE teams SET name = COALESCE($3, name),
           max_open_per_member = CASE WHEN $4::boolean THEN $5::int ELSE max_open_per_member END,
           updated_at = now()
         WHERE workspace_id = $1 AND id = $2 RETURNING id`,
        [
          workspaceId,
          teamId,
          patch.name === undefined ? null : cleanName(patch.name),
          patch.max_open_per_member !== undefined,
          patch.max_open_per_member ?? null,
        ],
      );
      if (rows.length === 0) throw new ApiError('not_found', 'No team with that id');
      if (patch.member_ids) await setMembers(tx, workspaceId, teamId, patch.member_ids);
      await recordAudit(tx, {
        workspaceId,
        actor,
        action: 'update',
        entityType: 'team',
        entityId: teamId,
        changes: changedFields(patch),
      });
    });
  } catch (err) {
    throw nameTaken(err);
  }
  return (await listTeams(db, workspaceId, teamId))[0]!;
}

/** Deletes a team: its conversations keep their assignees and leave the team; auto-assignment to it stops. */
export async function deleteTeam(db: Db, workspaceId: string, teamId: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query('DELETE FROM teams WHERE workspace_id = $1 AND id = $2 RETURNING id', [
      workspaceId,
      teamId,
    ]);
    if (rows.length === 0) throw new ApiError('not_found', 'No team with that id');
    await recordAudit(tx, { workspaceId, actor, action: 'delete', entityType: 'team', entityId: teamId });
  });
}
