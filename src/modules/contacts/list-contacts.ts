import type { Queryable } from '../../db/db.js';
import { likePattern } from '../../db/like-pattern.js';
import type { Contact } from './schemas.js';

export interface ContactListOptions {
  limit: number;
  offset: number;
  /** Newest first, as the web app shows them; otherwise oldest first, so pages stay put while new contacts arrive. */
  newestFirst?: boolean;
  /** Part of the name or e-mail (any case), or of the phone's digits. */
  search?: string;
  /** Only contacts with this tag. */
  tag?: string;
}

export interface ContactPage {
  contacts: (Contact & { last_inbound_at: string | null })[];
  hasNextPage: boolean;
}

export const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
/** A contact as the API shows it (the Contact schema), from `contacts`. */
export const CONTACT_COLUMNS = `id, phone, name, email, tags, traits, opted_out,
  to_char(opted_out_at AT TIME ZONE 'UTC', ${ISO}) AS opted_out_at,
  to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', ${ISO}) AS updated_at`;
/** One page of the workspace's contacts: REST v1's GET /contacts and the web app's search alike. */
export async function listContacts(
  db: Queryable,
  workspaceId: string,
  options: ContactListOptions,
): Promise<ContactPage> {
  const { limit, offset } = options;
  const q = options.search;
  const search = q?.trim() ? likePattern(q.trim()) : null;
  const digits = q?.replace(/\D/g, '') ? likePattern(q.replace(/\D/g, '')) : null;
  const order = options.newestFirst ? 'DESC' : 'ASC';
  const { rows } = await db.query<ContactPage['contacts'][number]>(
    `SELECT ${CONTACT_COLUMNS},
       to_char(last_inbound_at AT TIME ZONE 'UTC', ${ISO}) AS last_inbound_at
     FROM contacts WHERE workspace_id = $1
       AND ($2::text IS NULL OR name ILIKE $2 OR email ILIKE $2 OR ($3::text IS NOT NULL AND phone LIKE $3))
       AND ($4::text IS NULL OR $4 = ANY (tags))
     ORDER BY contacts.created_at ${order}, contacts.id ${order}
     LIMIT $5 OFFSET $6`,
    [workspaceId, search, digits, options.tag ?? null, limit + 1, offset],
  );
  return { contacts: rows.slice(0, limit), hasNextPage: rows.length > limit };
}
