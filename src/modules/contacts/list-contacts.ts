import type { Queryable } from '../../db/db.js';
import type { Contact } from './schemas.js';

export interface ContactPage {
  contacts: Contact[];
  hasNextPage: boolean;
}

/** Oldest first, so pages stay put while new contacts arrive at the end. */
export async function listContacts(
  db: Queryable,
  workspaceId: string,
  limit: number,
  offset: number,
): Promise<ContactPage> {
  const { rows } = await db.query<Contact>(
    `SELECT id, phone, name, email, tags, traits,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
       to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
     FROM contacts WHERE workspace_id = $1
     ORDER BY contacts.created_at, contacts.id
     LIMIT $2 OFFSET $3`,
    [workspaceId, limit + 1, offset],
  );
  return { contacts: rows.slice(0, limit), hasNextPage: rows.length > limit };
}
