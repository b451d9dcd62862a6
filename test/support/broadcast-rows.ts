import type { Db } from '../../src/db/db.js';
import { createWorkspace } from '../../src/modules/workspaces/create-workspace.js';

/**
 * Rows for tests of status changes: a workspace with an endpoint taking `message.status`, a sending
 * broadcast `bc_<key>` and contacts `ct_<key>1` to `ct_<key><n>` (phones `<phonePrefix>0001` on) as
 * its recipients in `state`. Answers the workspace id; the test adds the messages it needs.
 */
export async function broadcastRows(db: Db, key: string, phonePrefix: string, n: number, state: string) {
  const ws = (await createWorkspace(db, { name: `Rows ${key}`, defaultCountryCode: '91' })).id;
  await db.query(
    `INSERT INTO webhook_endpoints (workspace_id, id, url, secret_enc, events)
     VALUES ($1, 'we_' || $2, 'https://example.com/hook', 'unused', '{message.status}')`,
    [ws, key],
  );
  await db.query(
    `INSERT INTO broadcasts (workspace_id, id, name, status, template_name, template_language, template_category,
       audience, "values", time_zone)
     VALUES ($1, 'bc_' || $2, $2, 'sending', 'offer', 'en', 'MARKETING', '{}', '{}', 'UTC')`,
    [ws, key],
  );
  await db.query(
    `INSERT INTO contacts (workspace_id, id, phone) SELECT $1, 'ct_' || $2 || g, $3 || lpad(g::text, 4, '0')
     FROM generate_series(1, $4::int) g`,
    [ws, key, phonePrefix, n],
  );
  await db.query(
    `INSERT INTO broadcast_recipients (workspace_id, broadcast_id, contact_id, phone, state)
     SELECT $1, 'bc_' || $2, 'ct_' || $2 || g, $3 || lpad(g::text, 4, '0'), $5 FROM generate_series(1, $4::int) g`,
    [ws, key, phonePrefix, n, state],
  );
  return ws;
}
