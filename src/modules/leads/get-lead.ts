import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { ISO } from '../contacts/list-contacts.js';
import { LEAD_TIMES, OWNER_NAME, SOURCE_NAME } from './list-leads.js';
import type { Lead } from './schemas.js';

/**
 * One lead with all its submitted fields and, for a form's lead, each field's label on the form
 * (`labels`, by field name) so the app shows "Company size" rather than `company_size`.
 */
export async function getLead(db: Queryable, workspaceId: string, id: string): Promise<Lead> {
  const { rows } = await db.query<Lead>(
    `SELECT l.id, l.name, l.email, l.phone, l.status, l.source, l.source_id, ${SOURCE_NAME} AS source_name,
       l.contact_id, l.owner_id, ${OWNER_NAME} AS owner_name, l.fields,
       COALESCE((SELECT jsonb_object_agg(x.field ->> 'name', x.field ->> 'label')
         FROM forms f, jsonb_array_elements(f.fields) AS x (field)
         WHERE l.source = 'form' AND f.workspace_id = l.workspace_id AND f.id = l.source_id
           AND x.field ->> 'name' IS NOT NULL), '{}') AS labels,
       ${LEAD_TIMES}, to_char(l.updated_at AT TIME ZONE 'UTC', ${ISO}) AS updated_at
     FROM leads l WHERE l.workspace_id = $1 AND l.id = $2`,
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No lead with that id');
  return rows[0];
}
