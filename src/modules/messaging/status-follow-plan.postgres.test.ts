import { beforeAll, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { snapshotAudience } from '../broadcasts/snapshot-audience.js';
import { createWorkspace } from '../workspaces/create-workspace.js';
import { followed } from './events.js';
import { RECORD_ACCEPTED } from './record-accepted.js';
import { RECORD_NETWORK_STATUS } from './record-network-status.js';
import { CHANGED, FOLLOW_CHANGED } from './status.js';

// A status change moves its broadcast recipient forward in the same statement. On tables that grew
// since their statistics were taken (a broadcast's audience just snapshotted, its messages being
// stored), it must still read one message and one recipient, not every broadcast message of the workspace and each one's recipients: that made a
// 100,000-recipient broadcast slow down to a few sends per second (bench/broadcast.mjs).
const MESSAGES = 2_000;

const t = testAppForTests();

type PlanNode = {
  'Relation Name'?: string;
  'Index Name'?: string;
  'Rows Removed by Filter'?: number;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
};
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

let ws: { id: string };

beforeAll(async () => {
  const db = t.ctx.db;
  ws = await createWorkspace(db, { name: 'Plan', defaultCountryCode: '91', plan: 'scale' });
  // Statistics of tables with none of this workspace's rows, as when a broadcast starts.
  await db.exec('ANALYZE messages; ANALYZE broadcast_recipients');
  await db.query(
    `INSERT INTO broadcasts (workspace_id, id, name, status, template_name, template_language, template_category,
       audience, "values", time_zone)
     VALUES ($1, 'bc_plan', 'Plan', 'sending', 'offer', 'en', 'MARKETING', '{"tags_all": ["plan"]}', '{}', 'UTC')`,
    [ws.id],
  );
  await db.query(
    `INSERT INTO contacts (workspace_id, id, phone, tags) SELECT $1, 'ct_plan' || g, '1416556' || lpad(g::text, 4, '0'), '{plan}'
     FROM generate_series(1, $2::int) g`,
    [ws.id, MESSAGES],
  );
  await snapshotAudience(db, ws.id, {
    id: 'bc_plan',
    audience: { tags_all: ['plan'] },
    template_category: 'MARKETING',
    snapshot_done: false,
    snapshot_after: null,
  });
  await db.query(
    `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, status, status_rank, source_key)
     SELECT $1, 'msg_plan' || g, 'outbound', 'ct_plan' || g, '1416556' || lpad(g::text, 4, '0'), 'template',
       'queued', 0, 'broadcast:bc_plan:ct_plan' || g FROM generate_series(1, $2::int) g`,
    [ws.id, MESSAGES],
  );
}, 120_000);

// Rows each scan of the two tables looked at: those it returned and those its filter dropped.
async function rowsRead(sql: string, params: unknown[]) {
  const { rows } = await t.ctx.db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
    params,
  );
  return nodes(rows[0]!['QUERY PLAN'][0].Plan)
    .filter((n) => /^(messages|broadcast_recipients)/.test(n['Relation Name'] ?? n['Index Name'] ?? ''))
    .map((n) => ({
      scan: n['Relation Name'] ?? n['Index Name'],
      rows: ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0)) * (n['Actual Loops'] ?? 1),
    }));
}

async function recipients(contacts: string[]) {
  const { rows } = await t.ctx.db.query<{ contact_id: string; state: string; message_id: string }>(
    `SELECT contact_id, state, message_id FROM broadcast_recipients
     WHERE workspace_id = $1 AND contact_id = ANY ($2::text[]) ORDER BY contact_id`,
    [ws.id, contacts],
  );
  return rows;
}

it('reads one message and one recipient per status change, whatever the statistics say', async () => {
  const read = await rowsRead(
    `WITH m AS (
       UPDATE messages SET status = 'accepted', status_rank = 1 WHERE workspace_id = $1 AND id = $3
       RETURNING ${CHANGED})${followed(FOLLOW_CHANGED)}
     SELECT *, $2::text AS event_id FROM m`,
    [ws.id, 'evt_plan', 'msg_plan7'],
  );
  expect(read.length).toBeGreaterThan(0);
  expect(read.filter((r) => r.rows > 1)).toEqual([]);
  expect(await recipients(['ct_plan7'])).toEqual([
    { contact_id: 'ct_plan7', state: 'sent', message_id: 'msg_plan7' },
  ]);
});

it("reads only the batch's messages and recipients when sends are recorded accepted together", async () => {
  const batch = Array.from({ length: 20 }, (_, i) => i + 100);
  const read = await rowsRead(followed(RECORD_ACCEPTED), [
    batch.map(() => ws.id),
    batch.map((g) => `msg_plan${g}`),
    batch.map((g) => `wamid.plan${g}`),
    batch.map(() => null),
    batch.map((g) => `evt_plan${g}`),
  ]);
  expect(read.length).toBeGreaterThan(0);
  expect(read.filter((r) => r.rows > batch.length)).toEqual([]);
  const moved = await recipients(batch.map((g) => `ct_plan${g}`));
  expect(moved.map((r) => r.state)).toEqual(batch.map(() => 'sent'));
});

it("reads only the batch's messages and recipients when status webhooks are recorded together", async () => {
  // Twenty the network reports delivered by their wamids (recorded just above), and one whose send's
  // answer was lost, found by the message id in its callback data.
  const batch = Array.from({ length: 20 }, (_, i) => i + 100);
  const read = await rowsRead(followed(RECORD_NETWORK_STATUS), [
    [...batch, 300].map(() => ws.id),
    [...batch, 300].map((g) => `wamid.plan${g}`),
    [...batch, 300].map(() => 'delivered'),
    [...batch, 300].map(() => 3),
    [...batch, 300].map(() => null),
    [...batch, 300].map(() => null),
    [...batch.map(() => null), 'msg_plan300'],
    [...batch, 300].map((g) => `evt_plan_d${g}`),
  ]);
  expect(read.length).toBeGreaterThan(0);
  expect(read.filter((r) => r.rows > batch.length + 1)).toEqual([]);
  const moved = await recipients([...batch, 300].map((g) => `ct_plan${g}`));
  expect(moved.map((r) => r.state)).toEqual([...batch, 300].map(() => 'delivered'));
});
