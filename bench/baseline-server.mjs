// The baseline: a bare Fastify server doing the same database work as Parley's endpoints and nothing
// else (no authentication, rate limit, validation, phone normalisation, logging or metrics), on the
// same kind of database (PGlite in its own data directory, or PostgreSQL through a pool of 20).
//   POST /upsert  Parley's contact upsert statement, as one statement outside a transaction.
//                 BASELINE_SQL=bare (the baseline proper) drops the contact-limit trigger first, so
//                 it is the INSERT ... ON CONFLICT alone; BASELINE_SQL=same-sql keeps the trigger.
//   GET  /list    Parley's contact listing query (one page of 50).
import Fastify from 'fastify';
import pg from 'pg';
import { openDatabase } from '../dist/db/open.js';
import { newId } from '../dist/lib/ids.js';
import { listContacts } from '../dist/modules/contacts/list-contacts.js';
import { UPSERT_CONTACT_SQL } from '../dist/modules/contacts/upsert-contact.js';

const { PORT, DATA_DIR, DATABASE_URL, WORKSPACE_ID, BASELINE_SQL, BASELINE_PREPARED, BASELINE_IDS } =
  process.env;
const opened = await openDatabase({ dataDir: DATA_DIR, databaseUrl: DATABASE_URL });
// BASELINE_PREPARED=1 (PostgreSQL, for experiments): named statements, parsed and planned once per
// connection, instead of node-postgres's default of an unnamed statement per query.
let db = opened;
if (BASELINE_PREPARED && DATABASE_URL) {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 20 });
  const names = new Map();
  const nameOf = (text) => names.get(text) ?? names.set(text, `q${names.size}`).get(text);
  db = {
    ...opened,
    query: (text, values) => pool.query({ name: nameOf(text), text, values }),
    close: async () => {
      await pool.end();
      await opened.close();
    },
  };
}
if (BASELINE_SQL === 'bare') await db.query('DROP TRIGGER IF EXISTS contacts_limit ON contacts');
let seq = 0;
// Contact ids like Parley's (random, so inserts land all over the primary key index) unless
// BASELINE_IDS=sequential (for experiments).
const contactId =
  BASELINE_IDS === 'sequential' ? () => `ct_base_${String(seq++).padStart(12, '0')}` : () => newId('ct');

const app = Fastify();
app.post('/upsert', async (request, reply) => {
  const { phone, tags, traits } = request.body;
  const { rows } = await db.query(UPSERT_CONTACT_SQL, [
    WORKSPACE_ID,
    contactId(),
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
  const page = await listContacts(db, WORKSPACE_ID, { limit: 50, offset: 0 });
  return { result: true, contacts: page.contacts, limit: 50, offset: 0, has_next_page: page.hasNextPage };
});
await app.listen({ port: Number(PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.once('SIGTERM', async () => {
  await app.close();
  await db.close();
  process.exit(0);
});
