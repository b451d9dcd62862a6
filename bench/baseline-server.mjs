// The baseline: a bare Fastify server doing the same database work as Parley's endpoints, and
// nothing else (no authentication, rate limit, validation, transaction or logging).
import Fastify from 'fastify';
import { openDatabase } from '../dist/db/open.js';

const { PORT, DATA_DIR, DATABASE_URL, WORKSPACE_ID } = process.env;
const db = await openDatabase({ dataDir: DATA_DIR, databaseUrl: DATABASE_URL });
let seq = 0;

const app = Fastify();
app.post('/upsert', async (request) => {
  const { phone } = request.body;
  const { rows } = await db.query(
    `INSERT INTO contacts (workspace_id, id, phone, tags, traits) VALUES ($1, $2, $3, $4::text[], $5::jsonb)
     ON CONFLICT (workspace_id, phone) DO UPDATE SET tags = contacts.tags, traits = contacts.traits || EXCLUDED.traits,
       updated_at = now()
     RETURNING id, (xmax = 0) AS created`,
    [WORKSPACE_ID, `ct_base_${process.pid}_${seq++}`, phone, ['bench'], '{"source":"bench"}'],
  );
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
