import { encodeCursor, type PageKey } from '../../api/page-cursor.js';
import type { Queryable } from '../../db/db.js';
import { likePattern } from '../../db/like-pattern.js';
import type { AppContact, Contact } from './schemas.js';

export interface ContactListOptions {
  limit: number;
  offset?: number;
  /** Newest first, as the web app shows them; otherwise oldest first, so pages stay put while new contacts arrive. */
  newestFirst?: boolean;
  /** Part of the name or e-mail (any case), or of the phone's digits. */
  search?: string;
  /** Only contacts with this tag. */
  tag?: string;
  /** Only the contact with this phone, as stored (E.164 digits). */
  phone?: string;
  /** Start after this row (the page before's last) instead of at `offset`. */
  after?: PageKey;
}

export interface ContactPage<T = Contact> {
  contacts: T[];
  hasNextPage: boolean;
  /** The next page's cursor (its key: when created, and the id); null on the last page. */
  nextCursor: string | null;
}

export const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
/** A contact as the API shows it (the Contact schema), from `contacts`. */
export const CONTACT_COLUMNS = `id, phone, name, email, tags, traits, opted_out,
  to_char(opted_out_at AT TIME ZONE 'UTC', ${ISO}) AS opted_out_at,
  to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', ${ISO}) AS updated_at`;
/** The web app's contact: also when it last wrote, which REST v1's contact does not show. */
export const APP_CONTACT_COLUMNS = `${CONTACT_COLUMNS},
  to_char(last_inbound_at AT TIME ZONE 'UTC', ${ISO}) AS last_inbound_at`;

/** One page of the workspace's contacts as REST v1's GET /contacts shows them. */
export function listContacts(db: Queryable, workspaceId: string, options: ContactListOptions) {
  return pageOf<Contact>(db, workspaceId, options, CONTACT_COLUMNS);
}

/** One page of the workspace's contacts as the web app's search shows them. */
export function listAppContacts(db: Queryable, workspaceId: string, options: ContactListOptions) {
  return pageOf<AppContact>(db, workspaceId, options, APP_CONTACT_COLUMNS);
}

async function pageOf<T extends { id: string }>(
  db: Queryable,
  workspaceId: string,
  options: ContactListOptions,
  columns: string,
): Promise<ContactPage<T>> {
  const { limit, offset = 0, after } = options;
  const q = options.search;
  const search = q?.trim() ? likePattern(q.trim()) : null;
  const digits = q?.replace(/\D/g, '') ? likePattern(q.replace(/\D/g, '')) : null;
  const order = options.newestFirst ? 'DESC' : 'ASC';
  // The key compares as the listing index (workspace_id, created_at, id) orders.
  const beyond = options.newestFirst ? '<' : '>';
  const { rows } = await db.query<T & { page_micros: string }>(
    `SELECT ${columns}, (extract(epoch FROM created_at) * 1000000)::bigint::text AS page_micros
     FROM contacts WHERE workspace_id = $1
       AND ($2::text IS NULL OR name ILIKE $2 OR email ILIKE $2 OR ($3::text IS NOT NULL AND phone LIKE $3))
       AND ($4::text IS NULL OR $4 = ANY (tags))
       AND ($7::text IS NULL OR phone = $7)
       AND ($8::bigint IS NULL OR (contacts.created_at, contacts.id) ${beyond}
         (timestamptz 'epoch' + $8::bigint * interval '1 microsecond', $9::text))
     ORDER BY contacts.created_at ${order}, contacts.id ${order}
     LIMIT $5 OFFSET $6`,
    [
      workspaceId,
      search,
      digits,
      options.tag ?? null,
      limit + 1,
      offset,
      options.phone ?? null,
      after?.micros ?? null,
      after?.id ?? null,
    ],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    contacts: page.map(({ page_micros: _, ...contact }) => contact as unknown as T),
    hasNextPage: rows.length > limit,
    nextCursor: rows.length > limit && last ? encodeCursor({ micros: last.page_micros, id: last.id }) : null,
  };
}
