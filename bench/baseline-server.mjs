// The baseline: a bare Fastify server doing the same database work as Parley's endpoints, and
// nothing else (no authentication, rate limit, validation or logging). BASELINE_SQL=parley runs
// Parley's own upsert statement (with its contact-limit trigger); bare runs a plain upsert.
import Fastify from 'fastify';
import { openDatabase } from '../dist/db/open.js';
import { UPSERT_CONTACT_SQL } from '../dist/modules/contacts/upsert-contact.js';

const { PORT, DATA_DIR, DATABASE_URL, WORKSPACE_ID, BASELINE_SQL } = process.env;
const db = await openDatabase({ dataDir: DATA_DIR, databaseUrl: DATABASE_URL });
if (BASELINE_SQL === 'bare') await db.query('DROP TRIGGER IF EXISTS contacts_limit ON contacts');
const BARE_UPSERT = `
INSERT INTO contacts (workspace_id, id, phone, name, email, tags, traits) VALUES ($1, $2, $3, $4, $5, $6::text[], $7::jsonb)
ON CONFLICT (workspace_id, phone) DO UPDATE SET traits = contacts.traits || EXCLUDED.traits, updated_at = now()
RETURNING id, (xmax = 0) AS created`;
const upsert = BASELINE_SQL === 'bare' ? BARE_UPSERT : UPSERT_CONTACT_SQL;
let seq = 0;

const app = Fastify();
app.post('/upsert', async (request) => {
  const { phone, tags, traits } = request.body;
  const { rows } = await db.query(upsert, [
    WORKSPACE_ID,
    `ct_base_${process.pid}_${seq++}`,
    phone,
    null,
    null,
    tags,
    JSON.stringify(traits),
  ]);
  return { result: true, ...rows[0] };
});
app.get('/list', async () => {
  const { rows } = await db.query(
    `SELECT id, phone, name, email, tags, traits, created_at, updated_at FROM contacts WHERE workspace_id = $1
     ORDER BY created_at, id LIMIT 51 OFFSET 0`,
    [WORKSPACE_ID],
  );
  return { result: true, contacts: rows.slice(0, 50), has_next_page: rows.length > 50 };
});
await app.listen({ port: Number(PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await app.close();
  await db.close();
  process.exit(0);
});
