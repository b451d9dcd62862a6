// A large inbox in one workspace, written by a few set-based statements (generate_series, no row
// per round trip), for the inbox's browser test at scale and its bench (bench/inbox.mjs).

const FIRST = [
  'Meera',
  'Ravi',
  'Asha',
  'Kabir',
  'Zoya',
  'Arjun',
  'Priya',
  'Vikram',
  'Nisha',
  'Rohan',
  'Leela',
  'Sanjay',
];
const LAST = ['Shah', 'Kumar', 'Rao', 'Iyer', 'Khan', 'Mehta', 'Das', 'Nair', 'Gupta', 'Reddy', 'Bose'];
const SAID = [
  'Do you deliver to Colaba',
  'Where is my order',
  'Can I change the delivery time',
  'Thanks, that works',
  'Is the shop open on Sunday',
  'Please send the invoice',
  'The parcel arrived damaged',
  'What are your prices',
];
const sqlArray = (words) => `ARRAY[${words.map((w) => `'${w}'`).join(', ')}]`;

/**
 * `conversations` contacts (ids seed_<n>, phones 1555 + 7 digits) and `messages` messages spread
 * evenly over them, one a second ending now: message m is contact m % conversations's, its text a
 * phrase and "ref <m>" (so "ref 4242" finds message 4242 alone). The conversations are ordered as
 * their last messages: with messages a multiple of conversations, contact 0's is the oldest. Every third conversation is `assigneeId`'s (if
 * given), every fifth resolved, every seventh pending; the team has read all but every tenth.
 * Triggers are off while it writes (session_replication_role): conversations are filled in one
 * statement after, and the contact count added at once.
 */
export async function seedInbox(db, workspaceId, { conversations, messages, assigneeId = null }) {
  await db.transaction(async (tx) => {
    await tx.query(`SET LOCAL session_replication_role = replica`);
    // The server's pool bounds a statement (PostgreSQL); a million messages take longer.
    await tx.query(`SET LOCAL statement_timeout = 0`);
    await tx.query(
      `INSERT INTO contacts (workspace_id, id, phone, name, created_at, updated_at)
       SELECT $1, 'seed_' || n, '1555' || lpad(n::text, 7, '0'),
         (${sqlArray(FIRST)})[1 + n % ${FIRST.length}] || ' ' || (${sqlArray(LAST)})[1 + n % ${LAST.length}] || ' ' || n,
         now() - interval '1 year', now() - interval '1 year'
       FROM generate_series(0, $2::int - 1) AS n`,
      [workspaceId, conversations],
    );
    await tx.query(`UPDATE contact_counts SET n = n + $2 WHERE workspace_id = $1 AND slot = 0`, [
      workspaceId,
      conversations,
    ]);
    await tx.query(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, text, status, status_rank, created_at, updated_at)
       SELECT $1, 'seedmsg_' || m, CASE WHEN m % 3 = 2 THEN 'outbound' ELSE 'inbound' END, 'seed_' || c,
         '1555' || lpad(c::text, 7, '0'), 'text',
         (${sqlArray(SAID)})[1 + (m / 7) % ${SAID.length}] || ', ref ' || m,
         CASE WHEN m % 3 = 2 THEN 'delivered' ELSE 'received' END, CASE WHEN m % 3 = 2 THEN 2 ELSE 0 END,
         at, at
       FROM generate_series(0, $2::int - 1) AS m,
         LATERAL (SELECT m % $3::int AS c, now() - ($2::int - m) * interval '1 second' AS at) AS k`,
      [workspaceId, messages, conversations],
    );
    await tx.query(
      `INSERT INTO conversations (workspace_id, contact_id, state, assignee_id, last_message_at, last_inbound_at,
         team_read_at, created_at, updated_at)
       SELECT $1, m.contact_id,
         CASE WHEN n % 5 = 0 THEN 'resolved' WHEN n % 7 = 0 THEN 'pending' ELSE 'open' END,
         CASE WHEN n % 3 = 0 THEN $2::text END, m.last_at, m.last_in,
         CASE WHEN n % 10 <> 0 THEN m.last_at END, m.first_at, m.last_at
       FROM (SELECT contact_id, max(created_at) AS last_at, min(created_at) AS first_at,
               max(created_at) FILTER (WHERE direction = 'inbound') AS last_in
             FROM messages WHERE workspace_id = $1 AND id LIKE 'seedmsg\\_%' GROUP BY contact_id) AS m,
         LATERAL (SELECT substr(m.contact_id, 6)::int AS n) AS k`,
      [workspaceId, assigneeId],
    );
  });
  await db.exec('ANALYZE contacts; ANALYZE messages; ANALYZE conversations');
}
