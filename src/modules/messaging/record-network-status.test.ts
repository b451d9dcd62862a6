import { beforeAll, describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { broadcastRows } from '../../../test/support/broadcast-rows.js';
import { countStatements } from '../../../test/support/statements.js';
import { followed } from './events.js';
import { RECORD_NETWORK_STATUS, recordNetworkStatus } from './record-network-status.js';
import type { MessageStatus } from './status.js';

// Status webhooks arriving together are recorded in one statement each batch, every status as its
// own change: its event, its broadcast recipient, and only forward.

const t = testAppForTests();
const N = 30;
let ws: string;

beforeAll(async () => {
  ws = await broadcastRows(t.ctx.db, 'st', '1416558', N, 'queued');
  // Every message accepted with its wamid, but message 30: its send's answer was lost, so it has no
  // wamid and waits to be confirmed, failed as never confirmed.
  await t.ctx.db.query(
    `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, status, status_rank, source_key, wamid,
       error_code, unconfirmed_since)
     SELECT $1, 'msg_st' || g, 'outbound', 'ct_st' || g, '1416558' || lpad(g::text, 4, '0'), 'template',
       CASE g WHEN 30 THEN 'failed' ELSE 'accepted' END, CASE g WHEN 30 THEN 5 ELSE 1 END,
       'broadcast:bc_st:ct_st' || g, CASE WHEN g < 30 THEN 'wamid.st' || g END,
       CASE g WHEN 30 THEN 2 END, CASE g WHEN 30 THEN now() END
     FROM generate_series(1, $2::int) g`,
    [ws, N],
  );
});

const status = (g: number, s: MessageStatus, wamid = `wamid.st${g}`) =>
  recordNetworkStatus(t.ctx, ws, { wamid, status: s, callbackData: `msg_st${g}` });

async function events(ids: string[]) {
  const { rows } = await t.ctx.db.query<{ key: string }>(
    `SELECT event_key AS key FROM webhook_deliveries
     WHERE workspace_id = $1 AND event_type = 'message.status' AND split_part(event_key, ':', 1) = ANY ($2::text[])
     ORDER BY created_at, event_key`,
    [ws, ids],
  );
  return rows.map((r) => r.key);
}

describe('recording status webhooks', () => {
  it('records statuses arriving together in fewer statements, each as its own change', async () => {
    const { result, statements } = await countStatements(t.ctx.db, followed(RECORD_NETWORK_STATUS), () =>
      Promise.all(Array.from({ length: 20 }, (_, i) => status(i + 1, 'delivered'))),
    );
    expect(statements).toBeLessThan(10);
    expect(result.map((c) => c && [c.id, c.status])).toEqual(
      Array.from({ length: 20 }, (_, i) => [`msg_st${i + 1}`, 'delivered']),
    );
    // A late `sent` moves nothing back and announces nothing.
    expect(await status(1, 'sent')).toBeNull();
    const { rows } = await t.ctx.db.query<{ state: string }>(
      `SELECT state FROM broadcast_recipients WHERE workspace_id = $1 AND contact_id IN ('ct_st1', 'ct_st20')`,
      [ws],
    );
    expect(rows.map((r) => r.state)).toEqual(['delivered', 'delivered']);
    expect(await events(['msg_st1'])).toEqual(['msg_st1:delivered']);
  });

  it("keeps each of a message's statuses arriving together, in their order", async () => {
    // The four batches running hold the first four; the rest wait and are taken together.
    const { result } = await countStatements(t.ctx.db, followed(RECORD_NETWORK_STATUS), () =>
      Promise.all([
        ...[21, 22, 23, 24].map((g) => status(g, 'delivered')),
        status(25, 'sent'),
        status(25, 'delivered'),
        status(25, 'read'),
        status(26, 'read'),
      ]),
    );
    expect(result.slice(4).map((c) => c?.status)).toEqual(['sent', 'delivered', 'read', 'read']);
    expect(await events(['msg_st25'])).toEqual(['msg_st25:sent', 'msg_st25:delivered', 'msg_st25:read']);
    const { rows } = await t.ctx.db.query<{ status: string }>(
      `SELECT status FROM messages WHERE workspace_id = $1 AND id = 'msg_st25'`,
      [ws],
    );
    expect(rows[0]?.status).toBe('read');
  });

  it('confirms a message whose send answer was lost, by the id in its callback data', async () => {
    const change = await status(30, 'sent', 'wamid.st30');
    expect(change).toMatchObject({ id: 'msg_st30', wamid: 'wamid.st30', status: 'sent' });
    const { rows } = await t.ctx.db.query(
      `SELECT status, wamid, error_code, unconfirmed_since FROM messages WHERE workspace_id = $1 AND id = 'msg_st30'`,
      [ws],
    );
    expect(rows[0]).toEqual({
      status: 'sent',
      wamid: 'wamid.st30',
      error_code: null,
      unconfirmed_since: null,
    });
  });

  it("fails only the status whose record fails; its batch's others are recorded", async () => {
    // Message 29's answer was lost; its status then names the wamid message 28 holds (read, so the
    // status does not move 28): taking it breaks the unique wamid.
    await status(28, 'read');
    await t.ctx.db.query(
      `UPDATE messages SET wamid = NULL, status = 'queued', status_rank = 0 WHERE workspace_id = $1 AND id = 'msg_st29'`,
      [ws],
    );
    const answers = await Promise.allSettled([
      ...[21, 22, 23, 24].map((g) => status(g, 'read')),
      status(27, 'delivered'),
      status(29, 'sent', 'wamid.st28'),
      status(20, 'read'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([...Array(5).fill('fulfilled'), 'rejected', 'fulfilled']);
    const { rows } = await t.ctx.db.query<{ id: string; status: string }>(
      `SELECT id, status FROM messages WHERE workspace_id = $1 AND id IN ('msg_st20', 'msg_st27', 'msg_st29')
       ORDER BY id`,
      [ws],
    );
    expect(rows.map((r) => r.status)).toEqual(['read', 'delivered', 'queued']);
  });
});
