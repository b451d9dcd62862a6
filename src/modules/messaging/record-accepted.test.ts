import { beforeAll, describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { broadcastRows } from '../../../test/support/broadcast-rows.js';
import { followed } from './events.js';
import { RECORD_ACCEPTED, recordAccepted } from './record-accepted.js';

// Sends answered together are recorded as accepted in one statement: the message with its wamid, the
// contact's wa_id, the message.status event and the broadcast recipient, as one send's change would.

const t = testAppForTests();
const N = 30;
let ws: string;

beforeAll(async () => {
  ws = await broadcastRows(t.ctx.db, 'acc', '1416557', N, 'releasing');
  // Message 1 had its `sent` webhook first: it moves no further back.
  await t.ctx.db.query(
    `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, status, status_rank, source_key, wamid)
     SELECT $1, 'msg_acc' || g, 'outbound', 'ct_acc' || g, '1416557' || lpad(g::text, 4, '0'), 'template',
       CASE g WHEN 1 THEN 'sent' ELSE 'queued' END, CASE g WHEN 1 THEN 2 ELSE 0 END,
       'broadcast:bc_acc:ct_acc' || g, CASE g WHEN 1 THEN 'wamid.acc1' END
     FROM generate_series(1, $2::int) g`,
    [ws, N],
  );
});

const accepted = (g: number, wamid = `wamid.acc${g}`) => ({
  workspaceId: ws,
  id: `msg_acc${g}`,
  wamid,
  waId: `1416557${String(g).padStart(4, '0')}`,
});

describe('recording accepted sends', () => {
  it('records sends answered together in fewer statements, each as its own change', async () => {
    const db = t.ctx.db;
    let statements = 0;
    const query = db.query.bind(db);
    db.query = ((text: string, params?: unknown[]) => {
      if (text === followed(RECORD_ACCEPTED)) statements++;
      return query(text, params);
    }) as typeof db.query;
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => recordAccepted(t.ctx, accepted(i + 1))),
      );
      expect(statements).toBeLessThan(10);
      expect(answers[0]).toBeNull();
      expect(answers.slice(1).map((a) => a && [a.id, a.status, a.wamid])).toEqual(
        Array.from({ length: 19 }, (_, i) => [`msg_acc${i + 2}`, 'accepted', `wamid.acc${i + 2}`]),
      );
    } finally {
      db.query = query;
    }
    const { rows } = await db.query<{ id: string; status: string; wa_id: string | null; state: string }>(
      `SELECT m.id, m.status, c.wa_id, r.state FROM messages m
       JOIN contacts c ON c.workspace_id = m.workspace_id AND c.id = m.contact_id
       JOIN broadcast_recipients r ON r.workspace_id = m.workspace_id AND r.contact_id = m.contact_id
       WHERE m.workspace_id = $1 AND m.id IN ('msg_acc1', 'msg_acc2', 'msg_acc20') ORDER BY m.id`,
      [ws],
    );
    expect(rows).toEqual([
      // The contact's wa_id is stored even for a message that had moved on.
      { id: 'msg_acc1', status: 'sent', wa_id: '14165570001', state: 'releasing' },
      { id: 'msg_acc2', status: 'accepted', wa_id: '14165570002', state: 'sent' },
      { id: 'msg_acc20', status: 'accepted', wa_id: '14165570020', state: 'sent' },
    ]);
    const events = await db.query<{ key: string; status: string }>(
      `SELECT event_key AS key, payload->'data'->>'status' AS status FROM webhook_deliveries
       WHERE workspace_id = $1 AND event_type = 'message.status' ORDER BY event_key`,
      [ws],
    );
    expect(events.rows).toHaveLength(19);
    expect(events.rows.every((e) => e.status === 'accepted')).toBe(true);
    expect(events.rows.map((e) => e.key)).not.toContain('msg_acc1:accepted');
  });

  it("fails only the send whose record fails; its batch's others are recorded", async () => {
    // msg_acc29 already holds the wamid msg_acc22 is given: the unique wamid refuses that one.
    await t.ctx.db.query(
      `UPDATE messages SET wamid = 'wamid.taken', status = 'accepted', status_rank = 1
       WHERE workspace_id = $1 AND id = 'msg_acc29'`,
      [ws],
    );
    // The first four take every running batch, so 21 to 24 wait and go together as one.
    const answers = await Promise.allSettled([
      ...[25, 26, 27, 28].map((g) => recordAccepted(t.ctx, accepted(g))),
      recordAccepted(t.ctx, accepted(21)),
      recordAccepted(t.ctx, accepted(22, 'wamid.taken')),
      recordAccepted(t.ctx, accepted(23)),
      recordAccepted(t.ctx, accepted(24)),
    ]);
    expect(answers.map((a) => a.status)).toEqual([
      ...Array(5).fill('fulfilled'),
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    const { rows } = await t.ctx.db.query<{ id: string; status: string }>(
      `SELECT id, status FROM messages WHERE workspace_id = $1 AND id IN ('msg_acc21', 'msg_acc22', 'msg_acc23', 'msg_acc24')
       ORDER BY id`,
      [ws],
    );
    expect(rows.map((r) => r.status)).toEqual(['accepted', 'queued', 'accepted', 'accepted']);
  });
});
