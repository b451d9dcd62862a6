import type { Static } from 'typebox';
import { ApiError } from '../../api/errors.js';
import { decodeCursor, encodeCursor } from '../../api/page-cursor.js';
import type { Queryable } from '../../db/db.js';
import { ISO } from '../contacts/list-contacts.js';
import type { Delivery, EndpointListResult } from './schemas.js';

type Endpoint = Static<typeof EndpointListResult>['endpoints'][number];
interface Page {
  limit: number;
  cursor?: string;
}

const MICROS = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint`;

/** A page's rows and the cursor after its last one (null on the last page). */
function paged<T extends { id: string; micros: string }>(rows: T[], limit: number) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(({ micros: _, ...row }) => row),
    next_cursor: rows.length > limit && last ? encodeCursor({ micros: last.micros, id: last.id }) : null,
  };
}

const ENDPOINT_COLUMNS = `e.id, e.url, e.events, e.enabled,
  to_char(e.created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
  (SELECT count(*)::int FROM webhook_deliveries d WHERE d.workspace_id = e.workspace_id AND d.endpoint_id = e.id
     AND d.status = 'failed') AS failed,
  ${MICROS('e.created_at')}::text AS micros`;

/** A page of the workspace's endpoints, newest first, each with its count of failed deliveries; never a secret. */
export async function listApiEndpoints(db: Queryable, workspaceId: string, options: Page) {
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const { rows } = await db.query<Endpoint & { micros: string }>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e
     WHERE e.workspace_id = $1
       AND ($2::bigint IS NULL OR (${MICROS('e.created_at')}, e.id) < ($2::bigint, $3::text))
     ORDER BY e.created_at DESC, e.id DESC LIMIT $4`,
    [workspaceId, after?.micros ?? null, after?.id ?? null, options.limit + 1],
  );
  const { items, next_cursor } = paged(rows, options.limit);
  return { endpoints: items, next_cursor };
}

/** One endpoint as the list shows it; null if it is not the workspace's. */
export async function getApiEndpoint(
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<Endpoint | null> {
  const { rows } = await db.query<Endpoint & { micros: string }>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e WHERE e.workspace_id = $1 AND e.id = $2`,
    [workspaceId, id],
  );
  const row = rows[0];
  if (!row) return null;
  const { micros: _, ...endpoint } = row;
  return endpoint;
}

/**
 * A page of the endpoint's deliveries, newest first: each one's status, attempts so far, and the
 * endpoint's last answer (its HTTP status, or what went wrong).
 */
export async function listApiDeliveries(
  db: Queryable,
  workspaceId: string,
  endpointId: string,
  options: Page,
) {
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  const endpoint = await db.query('SELECT 1 FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2', [
    workspaceId,
    endpointId,
  ]);
  if (!endpoint.rows[0]) throw new ApiError('not_found', 'No webhook endpoint with that id');
  const { rows } = await db.query<Static<typeof Delivery> & { micros: string }>(
    `SELECT id, event_type, status, attempts, last_status, last_error,
       to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
       to_char(delivered_at AT TIME ZONE 'UTC', ${ISO}) AS delivered_at,
       ${MICROS('created_at')}::text AS micros
     FROM webhook_deliveries WHERE workspace_id = $1 AND endpoint_id = $2
       AND ($3::bigint IS NULL OR (${MICROS('created_at')}, id) < ($3::bigint, $4::text))
     ORDER BY webhook_deliveries.created_at DESC, webhook_deliveries.id DESC LIMIT $5`,
    [workspaceId, endpointId, after?.micros ?? null, after?.id ?? null, options.limit + 1],
  );
  const { items, next_cursor } = paged(rows, options.limit);
  return { deliveries: items, next_cursor };
}
