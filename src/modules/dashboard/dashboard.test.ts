import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { submit } from '../../../test/support/intake.js';
import { until } from '../../../test/support/until.js';
import { messageCounts } from './message-counts.js';

const t = testAppForTests({ queue: true });

const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** Messages stored as the send path and the network's webhook leave them, `daysAgo` days back. */
async function messages(
  workspaceId: string,
  rows: [direction: string, status: string, rank: number, daysAgo: number][],
) {
  let i = 0;
  for (const [direction, status, rank, daysAgo] of rows) {
    await t.ctx.db.query(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, text, status, status_rank, created_at)
       VALUES ($1, $2, $3, 'ct_x', '14155550100', 'text', 'hi', $4, $5, now() - make_interval(days => $6))`,
      [workspaceId, `msg_dash${++i}_${workspaceId}`, direction, status, rank, daysAgo],
    );
  }
}

describe('GET /api/app/dashboard', () => {
  it('counts messages, leads per form and finished runs per UTC day, every day of the period present', async () => {
    const { client, workspaceId } = await workspaceWithOwner(t);
    await messages(workspaceId, [
      ['outbound', 'read', 4, 0],
      ['outbound', 'delivered', 3, 0],
      ['outbound', 'failed', 5, 0],
      ['outbound', 'queued', 0, 0],
      ['inbound', 'received', 0, 0],
      ['outbound', 'sent', 2, 2],
      ['outbound', 'accepted', 1, 6],
      // Before a 7-day period: not counted in it.
      ['outbound', 'read', 4, 7],
    ]);
    const form = (await client.call('POST', '/forms', { name: 'Site', active: true })).json();
    await submit(t, { token: form.token, email: 'a@example.com' });
    await submit(t, { token: form.token, email: 'b@example.com' });
    const definition = {
      name: 'Every new lead',
      trigger: { type: 'lead_created' },
      steps: [{ id: 'tag', type: 'update_lead_status', status: 'contacted' }],
    };
    await client.call('POST', '/automations', { kind: 'sequence', definition, publish: true });
    await submit(t, { token: form.token, email: 'c@example.com' });

    const body = await until(async () => {
      const res = await client.call('GET', '/dashboard?days=7');
      expect(res.statusCode).toBe(200);
      const b = res.json();
      return b.runs.at(-1).completed === 1 && b;
    });
    expect(body.period).toEqual({ days: 7, from: utcDay(6), to: utcDay(0), time_zone: 'UTC' });
    expect(body.messages).toHaveLength(7);
    expect(body.messages.at(-1)).toEqual({
      day: utcDay(0),
      sent: 2,
      delivered: 2,
      read: 1,
      failed: 1,
      replied: 1,
    });
    expect(body.messages[4]).toMatchObject({ day: utcDay(2), sent: 1, delivered: 0 });
    expect(body.messages[0]).toMatchObject({ day: utcDay(6), sent: 1 });
    expect(body.messages.reduce((n: number, d: { sent: number }) => n + d.sent, 0)).toBe(4);
    expect(body.leads).toEqual([
      {
        form_id: form.id,
        form_name: 'Site',
        points: body.messages.map((m: { day: string }) => ({
          day: m.day,
          count: m.day === utcDay(0) ? 3 : 0,
        })),
      },
    ]);
    expect(body.runs.at(-1)).toEqual({ day: utcDay(0), completed: 1, failed: 0 });

    const month = (await client.call('GET', '/dashboard')).json();
    expect(month.period.days).toBe(30);
    expect(month.messages).toHaveLength(30);
    expect(month.messages.reduce((n: number, d: { sent: number }) => n + d.sent, 0)).toBe(5);
  });

  it('refuses a period outside 1 to 90 days, or not a number, with 422', async () => {
    const { client } = await workspaceWithOwner(t);
    for (const days of ['0', '91', '-1', 'abc', '1.5', '9999999999999999999', '%00', '7;DROP']) {
      expectRestError(await client.call('GET', `/dashboard?days=${days}`), 422, 'validation_error');
    }
    expect((await client.call('GET', '/dashboard?days=1')).json().messages).toHaveLength(1);
    expect((await client.call('GET', '/dashboard?days=90')).json().messages).toHaveLength(90);
  });

  it("counts only the workspace's own rows", async () => {
    const a = await workspaceWithOwner(t);
    const b = await workspaceWithOwner(t);
    await messages(a.workspaceId, [['outbound', 'read', 4, 0]]);
    const theirs = (await b.client.call('GET', '/dashboard?days=7')).json();
    expect(theirs.messages.every((d: { sent: number; read: number }) => d.sent === 0 && d.read === 0)).toBe(
      true,
    );
    expect(theirs.leads).toEqual([]);
  });

  it("reads the period's messages through the workspace's index, not the whole table", async () => {
    const busy = await workspaceWithOwner(t);
    const other = await workspaceWithOwner(t);
    // A year of the busy workspace's messages, and another workspace's, all recent.
    await t.ctx.db.query(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, status, status_rank, created_at)
       SELECT CASE WHEN g % 2 = 0 THEN $1 ELSE $2 END, 'msg_bulk' || g, 'outbound', 'ct_' || g % 500, '14155550100', 'text',
         'read', 4, now() - CASE WHEN g % 2 = 0 THEN (g % 365) * interval '1 day' ELSE interval '1 hour' END
       FROM generate_series(1, 40000) AS g`,
      [busy.workspaceId, other.workspaceId],
    );
    await t.ctx.db.query('VACUUM ANALYZE messages');
    const counts = await messageCounts(t.ctx.db, busy.workspaceId, 30);
    const sent = counts.reduce((n, d) => n + d.sent, 0);
    expect(sent).toBeGreaterThan(1500);
    expect(sent).toBeLessThan(1700);
    const plan = await explain(busy.workspaceId);
    expect(plan).toMatch(/Index Only Scan using messages_created on messages/);
    expect(plan).not.toMatch(/Seq Scan on messages/);
    // 40,000 rows into PGlite take over 30 s on a busy machine.
  }, 120_000);
});

/** The plan of the dashboard's messages query for the workspace, as PostgreSQL would run it. */
async function explain(workspaceId: string): Promise<string> {
  let text = '';
  const capture = {
    query: async <R extends object>(sql: string) => {
      text = sql;
      return { rows: [] as R[] };
    },
  };
  await messageCounts(capture, workspaceId, 30);
  const { rows } = await t.ctx.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, [workspaceId, 30]);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}
