import type { Queryable } from '../../db/db.js';
import { ISO } from '../contacts/list-contacts.js';
import { getBroadcast } from './get-broadcast.js';
import type { RecipientStatus } from './schemas.js';

/** The API's status filter as the recipient states it covers. */
const STATES: Record<RecipientStatus, string[]> = {
  queued: ['pending', 'releasing', 'queued'],
  sent: ['sent', 'delivered', 'read'],
  delivered: ['delivered', 'read'],
  read: ['read'],
  failed: ['failed'],
  skipped: ['skipped'],
};

const at = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', ${ISO}) AS ${column}`;

/** GET /broadcasts/{id}/recipients: by contact id, filtered by status (as counted) and Meta's error code. */
export async function listRecipients(
  db: Queryable,
  workspaceId: string,
  id: string,
  query: { status?: RecipientStatus; code?: number; limit: number; offset: number },
) {
  await getBroadcast(db, workspaceId, id);
  const { rows } = await db.query<{
    contact_id: string;
    phone: string;
    name: string | null;
    state: string;
    message_id: string | null;
    error_code: number | null;
    error_title: string | null;
    sent_at: string | null;
    delivered_at: string | null;
    read_at: string | null;
    replied_at: string | null;
  }>(
    `SELECT contact_id, phone, name, state, message_id, error_code, error_title,
       ${['sent_at', 'delivered_at', 'read_at', 'replied_at'].map(at).join(', ')}
     FROM broadcast_recipients WHERE workspace_id = $1 AND broadcast_id = $2
       AND ($3::text[] IS NULL OR state = ANY ($3::text[])) AND ($4::int IS NULL OR error_code = $4)
     ORDER BY contact_id LIMIT $5 OFFSET $6`,
    [
      workspaceId,
      id,
      query.status ? STATES[query.status] : null,
      query.code ?? null,
      query.limit + 1,
      query.offset,
    ],
  );
  return {
    recipients: rows.slice(0, query.limit).map(({ state, error_code, error_title, ...r }) => ({
      ...r,
      status: (state === 'pending' || state === 'releasing' ? 'queued' : state) as RecipientStatus,
      error:
        error_title !== null || error_code !== null ? { code: error_code, title: error_title ?? '' } : null,
    })),
    hasNextPage: rows.length > query.limit,
  };
}
