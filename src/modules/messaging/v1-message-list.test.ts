import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';

// REST v1's GET /messages: the app's message log, its filters, and a cursor that never skips nor repeats.

const t = testAppForTests();

/** A workspace with messages stored as the network left them (no number needed to read a log). */
async function workspaceWith(messages: { id: string; direction: string; status: string; at: string }[]) {
  const ws = await t.workspace();
  await t.ctx.db.query(
    `INSERT INTO contacts (workspace_id, id, phone, name) VALUES ($1, 'ct_log', '15550009', 'Asha')`,
    [ws.id],
  );
  for (const m of messages)
    await t.ctx.db.query(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, text, status, status_rank, created_at)
       VALUES ($1, $2, $3, 'ct_log', '15550009', 'text', $2, $4, 0, $5)`,
      [ws.id, m.id, m.direction, m.status, m.at],
    );
  return { ...ws, get: (q = '') => t.api('GET', `/messages${q}`, ws.key) };
}

const ids = (res: { json(): { messages: { id: string }[] } }) => res.json().messages.map((m) => m.id);

describe('GET /messages', () => {
  it('lists messages newest first, each as GET /messages/{id} shows it, with its contact', async () => {
    const ws = await workspaceWith([
      { id: 'msg_a', direction: 'inbound', status: 'read', at: '2026-11-01T10:00:00Z' },
      { id: 'msg_b', direction: 'outbound', status: 'delivered', at: '2026-11-01T11:00:00Z' },
    ]);
    const res = await ws.get();
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(res)).toEqual(['msg_b', 'msg_a']);
    const one = (await t.api('GET', '/messages/msg_b', ws.key)).json();
    const { result: _r, ...shown } = one;
    expect(res.json().messages[0]).toEqual({ ...shown, contact_id: 'ct_log', contact_name: 'Asha' });
    expect(res.json().next_cursor).toBeNull();
  });

  it("narrows by the app's filters: status and direction", async () => {
    const ws = await workspaceWith([
      { id: 'msg_in', direction: 'inbound', status: 'read', at: '2026-11-01T10:00:00Z' },
      { id: 'msg_ok', direction: 'outbound', status: 'delivered', at: '2026-11-01T11:00:00Z' },
      { id: 'msg_ko', direction: 'outbound', status: 'failed', at: '2026-11-01T12:00:00Z' },
    ]);
    expect(ids(await ws.get('?status=failed'))).toEqual(['msg_ko']);
    expect(ids(await ws.get('?direction=inbound'))).toEqual(['msg_in']);
    expect(ids(await ws.get('?direction=outbound&status=delivered'))).toEqual(['msg_ok']);
    expectRestError(await ws.get('?status=lost'), 422, 'validation_error');
    expectRestError(await ws.get('?direction=sideways'), 422, 'validation_error');
  });

  it('pages with a cursor that visits each message once, even with messages of the same moment', async () => {
    const same = '2026-11-01T10:00:00Z';
    const ws = await workspaceWith(
      ['msg_1', 'msg_2', 'msg_3', 'msg_4', 'msg_5'].map((id) => ({
        id,
        direction: 'inbound',
        status: 'read',
        at: id === 'msg_5' ? '2026-11-01T09:00:00Z' : same,
      })),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await ws.get(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...ids(res));
      cursor = res.json().next_cursor;
      // A message arriving mid-walk comes first in a new walk, never inside this one.
      if (seen.length === 2)
        await t.ctx.db.query(
          `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, status, status_rank)
           VALUES ($1, 'msg_new', 'inbound', 'ct_log', '15550009', 'text', 'read', 4)`,
          [ws.id],
        );
    } while (cursor);
    expect(seen).toEqual(['msg_4', 'msg_3', 'msg_2', 'msg_1', 'msg_5']);
  });

  it("answers 422 for a cursor this list did not give, and keeps to the key's workspace", async () => {
    const a = await workspaceWith([
      { id: 'msg_of_a', direction: 'inbound', status: 'read', at: '2026-11-01T10:00:00Z' },
    ]);
    const b = await t.workspace();
    expectRestError(await a.get('?cursor=not-a-cursor'), 422, 'validation_error');
    expectRestError(await a.get('?limit=0'), 422, 'validation_error');
    expectRestError(await a.get('?limit=201'), 422, 'validation_error');
    expect((await t.api('GET', '/messages', b.key)).json().messages).toEqual([]);
  });
});
