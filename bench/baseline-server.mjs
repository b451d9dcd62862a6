// The baseline: a bare Fastify server doing the same database work as Parley's endpoints and nothing
// else (no authentication, rate limit, validation, phone normalisation, logging or metrics), on the
// same kind of database (PGlite in its own data directory, or PostgreSQL through a pool of 20).
//   POST /upsert  Parley's contact upsert statement, as one statement outside a transaction.
//                 BASELINE_SQL=bare (the baseline proper) drops the contact-limit trigger first, so
//                 it is the INSERT ... ON CONFLICT alone; BASELINE_SQL=same-sql keeps the trigger.
//   GET  /list    Parley's contact listing query (one page of 50).
import Fastify from 'fastify';
import { openDatabase } from '../dist/db/open.js';
import { listContacts } from '../dist/modules/contacts/list-contacts.js';
import { UPSERT_CONTACT_SQL } from '../dist/modules/contacts/upsert-contact.js';

const { PORT, DATA_DIR, DATABASE_URL, WORKSPACE_ID, BASELINE_SQL } = process.env;
const db = await openDatabase({ dataDir: DATA_DIR, databaseUrl: DATABASE_URL });
if (BASELINE_SQL === 'bare') await db.query('DROP TRIGGER IF EXISTS contacts_limit ON contacts');
let seq = 0;

const app = Fastify();
app.post('/upsert', async (request, reply) => {
  const { phone, tags, traits } = request.body;
  const { rows } = await db.query(UPSERT_CONTACT_SQL, [
    WORKSPACE_ID,
    `ct_base_${process.pid}_${seq++}`,
    phone,
    null,
    null,
    tags,
    JSON.stringify(traits),
  ]);
  const { id, created } = rows[0];
  return reply.code(created ? 201 : 200).send({ result: true, id, created });
});
app.get('/list', async () => {
  const page = await listContacts(db, WORKSPACE_ID, 50, 0);
  return { result: true, contacts: page.contacts, limit: 50, offset: 0, has_next_page: page.hasNextPage };
});
await app.listen({ port: Number(PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.once('SIGTERM', async () => {
  await app.close();
  await db.close();
  process.exit(0);
});
