import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';

const t = testAppForTests();

const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

describe('GET /api/v1/dashboard', () => {
  it("counts the workspace's messages per UTC day, every day of the period present", async () => {
    const { id, key } = await t.workspace();
    await t.ctx.db.query(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, text, status, status_rank, created_at)
       VALUES ($1, $2, 'outbound', 'ct_x', '14155550100', 'text', 'hi', 'delivered', 3, now() - interval '1 day')`,
      [id, `msg_dash_${id}`],
    );
    const res = await t.api('GET', '/dashboard?days=3', key);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.period).toEqual({ days: 3, from: utcDay(2), to: utcDay(0), time_zone: 'UTC' });
    expect(body.messages.map((m: { day: string }) => m.day)).toEqual([utcDay(2), utcDay(1), utcDay(0)]);
    expect(body.messages[1]).toMatchObject({ sent: 1, delivered: 1, read: 0 });
    expect(body.messages[2]).toMatchObject({ sent: 0, delivered: 0 });
    expect(body).toMatchObject({
      leads: [],
      runs: [expect.any(Object), expect.any(Object), expect.any(Object)],
    });

    const other = await t.workspace();
    expect((await t.api('GET', '/dashboard?days=3', other.key)).json().messages[1]).toMatchObject({
      sent: 0,
    });
  });

  it.each(['days=0', 'days=91', 'days=x'])('refuses %s with 422 at days', async (query) => {
    const { key } = await t.workspace();
    const res = await t.api('GET', `/dashboard?${query}`, key);
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.details[0].field).toBe('querystring.days');
  });
});
