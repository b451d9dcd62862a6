import type { Queryable } from '../../db/db.js';
import { ISO } from '../contacts/list-contacts.js';
import { availableSql } from './availability.js';
import type { Team } from './schemas.js';

const at = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', ${ISO})`;

/**
 * The workspace's teams by name (or the one `teamId`), each with its members: their availability,
 * whether round robin may pick them now, and how many open or pending conversations they hold.
 */
export async function listTeams(db: Queryable, workspaceId: string, teamId?: string): Promise<Team[]> {
  const { rows } = await db.query<Team>(
    `SELECT t.id, t.name, t.max_open_per_member, ${at('t.created_at')} AS created_at,
       COALESCE((SELECT jsonb_agg(jsonb_build_object(
           'id', u.id, 'name', u.name, 'email', u.email, 'availability', m.availability,
           'available', ${availableSql('m', 'rs')}, 'last_seen_at', ${at('m.last_seen_at')},
           'open_count', (SELECT count(*)::int FROM conversations c
              WHERE c.workspace_id = tm.workspace_id AND c.assignee_id = tm.user_id AND c.state <> 'resolved'),
           'last_assigned_at', ${at('tm.last_assigned_at')})
           ORDER BY lower(COALESCE(NULLIF(u.name, ''), u.email)), u.id)
         FROM team_members tm
         JOIN memberships m ON m.workspace_id = tm.workspace_id AND m.user_id = tm.user_id
         JOIN users u ON u.id = tm.user_id
         WHERE tm.workspace_id = t.workspace_id AND tm.team_id = t.id), '[]'::jsonb) AS members
     FROM teams t LEFT JOIN routing_settings rs ON rs.workspace_id = t.workspace_id
     WHERE t.workspace_id = $1 AND ($2::text IS NULL OR t.id = $2)
     ORDER BY lower(t.name), t.id`,
    [workspaceId, teamId ?? null],
  );
  return rows;
}
