import { describe, expect, it } from 'vitest';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import {
  type connectedWorkspace,
  connectSimulator,
  simControl,
  simState,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { createEndpoint } from '../webhooks/endpoints.js';
import { deliverBroadcast, keepLease } from './deliver-broadcast.js';
import { getBroadcast } from './get-broadcast.js';
import { recipientKey } from './recipient-follow.js';

const t = simulatorAppForTests({ queue: true, statusDelaysMs: [20, 40, -1] });

let n = 0;
const nextPhone = () => `1415556${String(1000 + ++n)}`;

type Ws = Awaited<ReturnType<typeof connectedWorkspace>>;

async function contact(ws: Ws, body: Record<string, unknown> = {}) {
  const phone = nextPhone();
  const res = await t.api('POST', '/contacts', ws.key, { phone: `+${phone}`, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, phone };
}

const WELCOME = { name: 'welcome', language: 'en' }; // MARKETING: "Hi {{1}}, welcome to {{2}}!"
const VALUES = {
  body: [
    { from: 'contact', field: 'name', fallback: 'there' },
    { from: 'trait', key: 'company', fallback: 'Parley' },
  ],
};

const create = (ws: Ws, body: Record<string, unknown>) =>
  t.api('POST', '/broadcasts', ws.key, { name: 'Spring sale', template: WELCOME, values: VALUES, ...body });

const get = async (ws: Ws, id: string) => (await t.api('GET', `/broadcasts/${id}`, ws.key)).json().broadcast;
// Polling reads the module directly: the API key's 300 requests a minute are for the assertions.
const state = (ws: Ws, id: string) => getBroadcast(t.ctx.db, ws.id, id);

const settled = (ws: Ws, id: string, status = 'completed') =>
  until(async () => {
    const b = await state(ws, id);
    return b.status === status && b;
  }, 20_000);

const recipients = async (ws: Ws, id: string, query = '') =>
  (await t.api('GET', `/broadcasts/${id}/recipients?limit=200${query}`, ws.key)).json().recipients;

/** What the simulator received for a phone: the body parameters' texts of each template. */
function bodiesSentTo(phone: string): string[][] {
  return simState(t)
    .messages.filter((m) => m.to === phone)
    .map((m) => {
      const components = (
        m.payload as { template?: { components?: { type: string; parameters: { text: string }[] }[] } }
      ).template?.components;
      return components?.find((c) => c.type === 'body')?.parameters.map((p) => p.text) ?? [];
    });
}

describe('a broadcast to a tag segment', () => {
  it('sends each contact its own values, leaves out the opted-out and the untagged, and reports the results', async () => {
    const ws = await t.connectedWorkspace();
    await createEndpoint(t.ctx, ws.id, 'https://hooks.example.invalid/x', ['broadcast.completed']);
    const ann = await contact(ws, { name: 'Ann', tags: ['vip'], traits: { company: 'Acme' } });
    const bob = await contact(ws, { tags: ['vip', 'new'] });
    const out = await contact(ws, { name: 'Olga', tags: ['vip'], opted_out: true });
    const other = await contact(ws, { name: 'Ola', tags: ['other'] });

    const audience = await t.api('POST', '/broadcasts/audience', ws.key, {
      audience: { tags_all: ['vip'] },
      template: WELCOME,
    });
    expect(audience.json()).toMatchObject({ result: true, count: 2 });
    expect(
      audience
        .json()
        .sample.map((c: { id: string }) => c.id)
        .sort(),
    ).toEqual([ann.id, bob.id].sort());

    const preview = await t.api('POST', '/broadcasts/preview', ws.key, {
      template: WELCOME,
      values: VALUES,
      contact_id: bob.id,
    });
    expect(preview.json()).toMatchObject({
      rendered: { body: 'Hi there, welcome to Parley!' },
      missing: ['values.body[0]', 'values.body[1]'],
    });

    const res = await create(ws, { audience: { tags_all: ['vip'] } });
    expect(res.statusCode, res.body).toBe(201);
    const { broadcast } = res.json();
    expect(broadcast).toMatchObject({
      id: expect.stringMatching(/^brd_/),
      status: 'sending',
      template: { ...WELCOME, category: 'MARKETING' },
      time_zone: 'UTC',
      reply_window_hours: 24,
    });
    const done = await settled(ws, broadcast.id);
    expect(bodiesSentTo(ann.phone)).toEqual([['Ann', 'Acme']]);
    expect(bodiesSentTo(bob.phone)).toEqual([['there', 'Parley']]);
    expect(bodiesSentTo(out.phone)).toEqual([]);
    expect(bodiesSentTo(other.phone)).toEqual([]);
    expect(done.counts).toMatchObject({ audience: 2, queued: 0, sent: 2, failed: 0, skipped: 0 });
    expect(done.limit).toEqual({ tier: 'TIER_1K', used_24h: 2, max_24h: 1000 });

    await until(async () => (await state(ws, broadcast.id)).counts.delivered === 2);
    const listed = await recipients(ws, broadcast.id, '&status=delivered');
    expect(listed.map((r: { contact_id: string }) => r.contact_id).sort()).toEqual([ann.id, bob.id].sort());
    expect(listed[0]).toMatchObject({
      status: 'delivered',
      message_id: expect.stringMatching(/^msg_/),
      error: null,
    });

    // Ann writes back: a reply within the window.
    await simControl(t.base, '/inbound', {
      from: ann.phone,
      phone_number_id: ws.number.phoneNumberId,
      text: 'Yes!',
    });
    await until(async () => (await state(ws, broadcast.id)).counts.replied === 1);

    const timeline = (await t.api('GET', `/broadcasts/${broadcast.id}/timeline`, ws.key)).json();
    expect(timeline.bucket).toBe('minute');
    expect(timeline.points.reduce((s: number, p: { sent: number }) => s + p.sent, 0)).toBe(2);

    const events = await t.ctx.db.query<{ payload: { data: { id: string; status: string } } }>(
      `SELECT payload FROM webhook_deliveries WHERE workspace_id = $1 AND event_type = 'broadcast.completed'`,
      [ws.id],
    );
    expect(events.rows.map((r) => r.payload.data)).toEqual([
      expect.objectContaining({ id: broadcast.id, status: 'completed' }),
    ]);

    const list = (await t.api('GET', '/broadcasts?status=completed', ws.key)).json();
    expect(list.broadcasts.map((b: { id: string }) => b.id)).toEqual([broadcast.id]);
  });
});

describe('creating a broadcast', () => {
  it('refuses values that do not fit the template, a past time and an unknown import, at the field', async () => {
    const ws = await t.connectedWorkspace();
    const short = await create(ws, { audience: {}, values: { body: [{ from: 'text', text: 'x' }] } });
    expect(short.statusCode).toBe(422);
    expect(short.json().error.details).toEqual([
      { field: 'values.body', message: expect.stringMatching(/2 variables/) },
    ]);
    const header = await create(ws, {
      audience: {},
      values: { ...VALUES, header: { from: 'text', text: 'x' } },
    });
    expect(header.json().error.details).toEqual([
      { field: 'values.header', message: 'the template has no header' },
    ]);
    const past = await create(ws, { audience: {}, send_at: '2020-01-01T09:00:00Z' });
    expect(past.statusCode).toBe(422);
    expect(past.json().error.details[0].field).toBe('send_at');
    const garbage = await create(ws, { audience: {}, send_at: 'tomorrow-ish' });
    expect(garbage.json().error.details[0].field).toBe('send_at');
    const impossible = await create(ws, { audience: {}, send_at: '2099-02-31T09:00' });
    expect(impossible.statusCode).toBe(422);
    const imported = await create(ws, { audience: { import_id: 'imp_nope' } });
    expect(imported.json().error.details).toEqual([
      { field: 'audience.import_id', message: expect.any(String) },
    ]);
    const missing = await create(ws, { audience: {}, template: { name: 'draft', language: 'en' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('template_not_found');
  });

  it('answers hostile and oversized input with 4xx, never 500', async () => {
    const ws = await t.connectedWorkspace();
    const bodies: unknown[] = [
      {
        name: 'x',
        template: WELCOME,
        audience: { traits: [{ key: 'a', equals: { $ne: 1 } }] },
        values: VALUES,
      },
      { name: 'x', template: WELCOME, audience: { created: { from: 'not a date' } }, values: VALUES },
      { name: '\u0000', template: WELCOME, audience: {}, values: VALUES },
      { name: 'x', template: WELCOME, audience: { tags_all: Array(51).fill('a') }, values: VALUES },
      { name: 'x', template: WELCOME, audience: {}, values: { body: [{ from: 'trait' }] } },
      { name: 'x', template: WELCOME, audience: {}, values: VALUES, reply_window_hours: 1000 },
      { name: 'x', template: WELCOME, audience: { import_id: '\ud800' }, values: VALUES },
      [],
      'null',
    ];
    for (const body of bodies) {
      const res = await t.api('POST', '/broadcasts', ws.key, body as object);
      expect(res.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
    }
    const huge = await t.api('POST', '/broadcasts', ws.key, {
      name: 'x',
      template: WELCOME,
      audience: { tags_any: Array(5000).fill('x'.repeat(64)) },
      values: VALUES,
    });
    expect([413, 422]).toContain(huge.statusCode);
    // Tags that look like SQL are only tags: nobody matches, nothing breaks.
    const dropped = await t.api('POST', '/broadcasts', ws.key, {
      name: 'x',
      template: WELCOME,
      audience: { tags_any: ["'; DROP TABLE contacts; --"] },
      values: VALUES,
    });
    expect(dropped.json().broadcast.counts.audience).toBe(0);
    const sqlish = await t.api('POST', '/broadcasts/audience', ws.key, {
      audience: { tags_any: ["x' OR 1=1 --"], traits: [{ key: "k') OR true --", exists: true }] },
    });
    expect(sqlish.json()).toMatchObject({ count: 0 });
    for (const path of ['/broadcasts/brd_nope', '/broadcasts/%00/recipients', '/broadcasts/x/timeline']) {
      const res = await t.api('GET', path, ws.key);
      expect(res.statusCode, `${path}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    const badFilter = await t.api('GET', '/broadcasts?status=nope', ws.key);
    expect(badFilter.statusCode).toBe(422);
  });
});

describe('pause, resume and cancel', () => {
  it('stops releasing while paused, goes on when resumed, and refuses moves the state does not allow', async () => {
    const ws = await t.connectedWorkspace({ messagesPerSecond: 1 });
    const contacts: { id: string; phone: string }[] = [];
    for (let i = 0; i < 5; i++) contacts.push(await contact(ws, { tags: ['slow'] }));
    const { broadcast } = (await create(ws, { audience: { tags_all: ['slow'] } })).json();
    await until(async () => (await state(ws, broadcast.id)).counts.sent >= 1);
    const paused = await t.api('POST', `/broadcasts/${broadcast.id}/pause`, ws.key);
    expect(paused.json().broadcast).toMatchObject({ status: 'paused', paused_reason: null });
    const sentAtPause = simState(t).messages.filter((m) => contacts.some((c) => c.phone === m.to)).length;
    await new Promise((r) => setTimeout(r, 2_500));
    const sentLater = simState(t).messages.filter((m) => contacts.some((c) => c.phone === m.to)).length;
    // The send already waiting for its slot may still go; no more after it.
    expect(sentLater).toBeLessThanOrEqual(sentAtPause + 1);
    expect(sentLater).toBeLessThan(5);
    const again = await t.api('POST', `/broadcasts/${broadcast.id}/pause`, ws.key);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('broadcast_state');

    expect((await t.api('POST', `/broadcasts/${broadcast.id}/resume`, ws.key)).json().broadcast.status).toBe(
      'sending',
    );
    const done = await settled(ws, broadcast.id);
    expect(done.counts).toMatchObject({ audience: 5, sent: 5 });
    for (const c of contacts) expect(bodiesSentTo(c.phone)).toHaveLength(1);
    const resume = await t.api('POST', `/broadcasts/${broadcast.id}/resume`, ws.key);
    expect(resume.statusCode).toBe(409);
    expect(resume.json().error.message).toMatch(/completed broadcast cannot be resumed/);
  });

  it('pauses itself when the number is disconnected, and says why until resumed', async () => {
    const ws = await t.connectedWorkspace();
    const c = await contact(ws, { tags: ['unplugged'] });
    const { broadcast } = (await create(ws, { audience: { tags_all: ['unplugged'] }, draft: true })).json();
    expect(broadcast.paused_reason).toBeNull();
    await t.ctx.db.query('DELETE FROM connected_numbers WHERE workspace_id = $1', [ws.id]);
    await t.api('POST', `/broadcasts/${broadcast.id}/resume`, ws.key);
    await settled(ws, broadcast.id, 'paused');
    expect(await get(ws, broadcast.id)).toMatchObject({
      status: 'paused',
      paused_reason: 'no_connected_number',
    });
    expect(bodiesSentTo(c.phone)).toEqual([]);
    const resumed = await t.api('POST', `/broadcasts/${broadcast.id}/resume`, ws.key);
    expect(resumed.json().broadcast).toMatchObject({ status: 'sending', paused_reason: null });
  });

  // A batch of 5 with 3 left does not fit whole: once the month has a count, and on its first send.
  it.each([
    ['with 3 left of the month it has counted', 'the count'],
    ['on a plan of 3 messages, the month not counted yet', 'the plan'],
  ])(
    "sends up to the plan's messages of the month, then pauses itself saying why: %s",
    async (_, limitedBy) => {
      const ws = await t.connectedWorkspace();
      const contacts: { id: string; phone: string }[] = [];
      for (let i = 0; i < 5; i++) contacts.push(await contact(ws, { tags: ['budget'] }));
      if (limitedBy === 'the count') {
        await t.ctx.db.query(
          `INSERT INTO message_usage (workspace_id, month, sent)
           SELECT w.id, date_trunc('month', now() AT TIME ZONE 'UTC')::date, p.messages_per_month_limit - 3
           FROM workspaces w JOIN plans p ON p.name = w.plan WHERE w.id = $1`,
          [ws.id],
        );
      } else {
        await t.ctx.db.query(
          `INSERT INTO plans (name, contacts_limit, monthly_leads_limit, messages_per_month_limit)
           VALUES ('three-a-month', 100, 100, 3)`,
        );
        await t.ctx.db.query(`UPDATE workspaces SET plan = 'three-a-month' WHERE id = $1`, [ws.id]);
      }
      const { broadcast } = (await create(ws, { audience: { tags_all: ['budget'] } })).json();
      const paused = await settled(ws, broadcast.id, 'paused');
      expect(paused.paused_reason).toBe('plan_limit_reached');
      expect(contacts.map((c) => bodiesSentTo(c.phone).length).sort()).toEqual([0, 0, 1, 1, 1]);
      const usage = await t.ctx.db.query<{ left: number }>(
        `SELECT p.messages_per_month_limit - u.sent AS left FROM message_usage u
         JOIN workspaces w ON w.id = u.workspace_id JOIN plans p ON p.name = w.plan WHERE u.workspace_id = $1`,
        [ws.id],
      );
      expect(usage.rows[0]!.left).toBe(0);
      // The two the month could not take wait for a resume once the plan allows.
      const waiting = await t.ctx.db.query(
        `SELECT 1 FROM broadcast_recipients WHERE workspace_id = $1 AND broadcast_id = $2 AND state = 'pending'`,
        [ws.id, broadcast.id],
      );
      expect(waiting.rows).toHaveLength(2);
    },
  );

  it('cancels a draft without sending, and announces it', async () => {
    const ws = await t.connectedWorkspace();
    await createEndpoint(t.ctx, ws.id, 'https://hooks.example.invalid/x', ['broadcast.completed']);
    const c = await contact(ws, { tags: ['draft'] });
    const res = await create(ws, { audience: { tags_all: ['draft'] }, draft: true });
    expect(res.json().broadcast).toMatchObject({ status: 'draft', counts: { audience: 1 } });
    const cancelled = await t.api('POST', `/broadcasts/${res.json().broadcast.id}/cancel`, ws.key);
    expect(cancelled.json().broadcast).toMatchObject({
      status: 'cancelled',
      cancelled_at: expect.any(String),
    });
    expect((await t.api('POST', `/broadcasts/${res.json().broadcast.id}/resume`, ws.key)).statusCode).toBe(
      409,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(bodiesSentTo(c.phone)).toEqual([]);
    const events = await t.ctx.db.query<{ payload: { data: { status: string } } }>(
      `SELECT payload FROM webhook_deliveries WHERE workspace_id = $1 AND event_type = 'broadcast.completed'`,
      [ws.id],
    );
    expect(events.rows.map((r) => r.payload.data.status)).toEqual(['cancelled']);
  });
});

describe('the messaging limit tier', () => {
  it('stops at the cap of unique recipients in 24 hours, waits, and goes on when the window frees', async () => {
    const ws = await t.connectedWorkspace();
    const tier = await simControl(t.base, `/numbers/${ws.number.phoneNumberId}/tier`, {
      messaging_limit_tier: 'TIER_250',
    });
    expect(tier.status).toBe(200);
    // 247 other customers got a template in the last hours: three places are left.
    await t.ctx.db.query(
      `WITH c AS (
         INSERT INTO contacts (workspace_id, id, phone)
         SELECT $1, 'ct_earlier' || g, '1999000' || lpad(g::text, 4, '0') FROM generate_series(1, 247) g RETURNING id, phone)
       INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, status, status_rank, created_at)
       SELECT $1, 'msg_' || c.id, 'outbound', c.id, c.phone, 'template', 'delivered', 3, now() - interval '2 hours' FROM c`,
      [ws.id],
    );
    for (let i = 0; i < 5; i++) await contact(ws, { tags: ['capped'] });
    const { broadcast } = (await create(ws, { audience: { tags_all: ['capped'] } })).json();
    await settled(ws, broadcast.id, 'waiting_for_limit');
    await until(async () => (await state(ws, broadcast.id)).counts.sent === 3);
    const waiting = await get(ws, broadcast.id);
    expect(waiting.limit).toEqual({ tier: 'TIER_250', used_24h: 250, max_24h: 250 });
    expect(waiting).toMatchObject({ status: 'waiting_for_limit', counts: { audience: 5, queued: 2 } });

    await t.ctx.db.query(
      `UPDATE messages SET created_at = now() - interval '25 hours' WHERE workspace_id = $1 AND id LIKE 'msg_ct_earlier%'`,
      [ws.id],
    );
    await deliverBroadcast(t.ctx, { workspaceId: ws.id, broadcastId: broadcast.id });
    const done = await settled(ws, broadcast.id);
    expect(done.counts).toMatchObject({ sent: 5, queued: 0 });
  });
});

describe('a scheduled broadcast', () => {
  it('starts at a time given in the workspace time zone, once', async () => {
    const ws = await t.connectedWorkspace();
    await t.ctx.db.query(`UPDATE workspaces SET time_zone = 'Asia/Kolkata' WHERE id = $1`, [ws.id]);
    const c = await contact(ws, { tags: ['later'] });
    const at = new Date(Math.ceil((Date.now() + 3_000) / 1000) * 1000);
    const local = new Date(at.getTime() + 5.5 * 3600_000).toISOString().slice(0, 19);
    const res = await create(ws, { audience: { tags_all: ['later'] }, send_at: local });
    expect(res.statusCode, res.body).toBe(201);
    const { broadcast } = res.json();
    expect(broadcast).toMatchObject({ status: 'scheduled', time_zone: 'Asia/Kolkata', started_at: null });
    expect(Date.parse(broadcast.send_at)).toBe(at.getTime());
    expect(bodiesSentTo(c.phone)).toEqual([]);
    const done = await settled(ws, broadcast.id);
    expect(Date.parse(done.started_at!)).toBeGreaterThanOrEqual(at.getTime() - 1_000);
    // A second job for it (a retry, a sweep) finds nothing to do.
    await deliverBroadcast(t.ctx, { workspaceId: ws.id, broadcastId: broadcast.id });
    expect(bodiesSentTo(c.phone)).toHaveLength(1);
  });
});

describe('delivery', () => {
  it('is taken up again soon after the worker holding it died, not after the minute sweep', async () => {
    const ws = await t.connectedWorkspace();
    const c = await contact(ws, { tags: ['orphan'] });
    const later = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19);
    const { broadcast } = (await create(ws, { audience: { tags_all: ['orphan'] }, send_at: later })).json();
    // As a worker killed mid-send leaves it: sending, its lease run out, and no job due for an hour.
    await t.ctx.db.query(
      `UPDATE broadcasts SET status = 'sending', lease_owner = 'dead', lease_until = now() - interval '5 seconds',
         updated_at = now() WHERE workspace_id = $1 AND id = $2`,
      [ws.id, broadcast.id],
    );
    const done = await settled(ws, broadcast.id);
    expect(done.counts).toMatchObject({ sent: 1 });
    expect(bodiesSentTo(c.phone)).toHaveLength(1);
  });

  it("sends a dead delivery's stored, unsent message once its attempt's lease ends, not after the minute sweep", async () => {
    const ws = await t.connectedWorkspace();
    const c = await contact(ws, { tags: ['leftover'] });
    const later = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19);
    const { broadcast } = (await create(ws, { audience: { tags_all: ['leftover'] }, send_at: later })).json();
    // As a worker killed between storing a message and its slot leaves it: the delivery's lease run
    // out, the recipient releasing, its message queued under the attempt's lease (ending in 2 s).
    await t.ctx.db.query(
      `UPDATE broadcasts SET status = 'sending', lease_owner = 'dead', lease_until = now() - interval '5 seconds',
         snapshot_done = true, updated_at = now() WHERE workspace_id = $1 AND id = $2`,
      [ws.id, broadcast.id],
    );
    await t.ctx.db.query(
      `INSERT INTO broadcast_recipients (workspace_id, broadcast_id, contact_id, phone, state, released_at)
       VALUES ($1, $2, $3, $4, 'releasing', now())`,
      [ws.id, broadcast.id, c.id, c.phone],
    );
    await t.ctx.db.query(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, template_name, template_language,
         template_values, template_components, status, status_rank, sending_until, unconfirmed_since, source_key)
       VALUES ($1, 'msg_leftover', 'outbound', $2, $3, 'template', 'welcome', 'en', '["there", "Parley"]',
         $4::jsonb, 'queued', 0, now() + interval '2 seconds', now() - interval '1 hour', $5)`,
      [
        ws.id,
        c.id,
        c.phone,
        JSON.stringify([
          { type: 'body', parameters: ['there', 'Parley'].map((text) => ({ type: 'text', text })) },
        ]),
        recipientKey(broadcast.id, c.id),
      ],
    );
    const done = await settled(ws, broadcast.id);
    expect(done.counts).toMatchObject({ sent: 1 });
    expect(bodiesSentTo(c.phone)).toEqual([['there', 'Parley']]);
  });

  it('keeps its lease while it waits, and only its own', async () => {
    const ws = await t.connectedWorkspace();
    const later = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19);
    const [mine, theirs] = await Promise.all(
      ['a', 'b'].map(async () =>
        (await create(ws, { audience: { tags_all: ['x'] }, send_at: later })).json(),
      ),
    );
    const leaseOf = async (id: string) =>
      (
        await t.ctx.db.query<{ owner: string; left: number }>(
          `SELECT lease_owner AS owner, extract(epoch FROM lease_until - now())::float8 AS left
           FROM broadcasts WHERE workspace_id = $1 AND id = $2`,
          [ws.id, id],
        )
      ).rows[0]!;
    // The other is paused, so that the drain leaves its lapsed lease alone.
    await t.ctx.db.query(
      `UPDATE broadcasts SET status = CASE id WHEN $2 THEN 'sending' ELSE 'paused' END,
         lease_owner = CASE id WHEN $2 THEN 'me' ELSE 'other' END, lease_until = now() + interval '1 second'
       WHERE workspace_id = $1 AND id IN ($2, $3)`,
      [ws.id, mine.broadcast.id, theirs.broadcast.id],
    );
    const renewing = keepLease(t.ctx, { workspaceId: ws.id, broadcastId: mine.broadcast.id }, 'me');
    try {
      await new Promise((r) => setTimeout(r, 2_500));
      // Past its first second, and renewed to seconds ahead; the other delivery's lapsed.
      const kept = await leaseOf(mine.broadcast.id);
      expect(kept.owner).toBe('me');
      expect(kept.left).toBeGreaterThan(3);
      expect(await leaseOf(theirs.broadcast.id)).toEqual({ owner: 'other', left: expect.any(Number) });
      expect((await leaseOf(theirs.broadcast.id)).left).toBeLessThan(0);
    } finally {
      clearInterval(renewing);
      await t.ctx.db.query(`UPDATE broadcasts SET status = 'cancelled' WHERE workspace_id = $1`, [ws.id]);
    }
  });

  it("records the network's refusal per recipient with Meta's code", async () => {
    const ws = await t.connectedWorkspace();
    const c = await contact(ws, { tags: ['refused'] });
    await simControl(t.base, '/control', { failNext: 1, failNextCode: 131026 });
    const { broadcast } = (await create(ws, { audience: { tags_all: ['refused'] } })).json();
    const done = await settled(ws, broadcast.id);
    expect(done.counts).toMatchObject({ failed: 1, sent: 0 });
    expect(done.failed_by_reason).toEqual([{ code: 131026, reason: expect.any(String), count: 1 }]);
    const failed = await recipients(ws, broadcast.id, '&status=failed&code=131026');
    expect(failed).toEqual([
      expect.objectContaining({
        contact_id: c.id,
        status: 'failed',
        error: { code: 131026, title: expect.any(String) },
      }),
    ]);
    expect(await recipients(ws, broadcast.id, '&code=1')).toEqual([]);
  });

  it('skips a contact who opted out after the snapshot, saying why', async () => {
    const ws = await t.connectedWorkspace();
    const stays = await contact(ws, { tags: ['late'] });
    const leaves = await contact(ws, { tags: ['late'] });
    const { broadcast } = (await create(ws, { audience: { tags_all: ['late'] }, draft: true })).json();
    await t.ctx.db.query(
      `INSERT INTO broadcast_recipients (workspace_id, broadcast_id, contact_id, phone)
       SELECT workspace_id, $2, id, phone FROM contacts WHERE workspace_id = $1 AND 'late' = ANY (tags)`,
      [ws.id, broadcast.id],
    );
    await t.ctx.db.query('UPDATE broadcasts SET snapshot_done = true WHERE workspace_id = $1 AND id = $2', [
      ws.id,
      broadcast.id,
    ]);
    await t.api('POST', '/contacts', ws.key, { phone: `+${leaves.phone}`, opted_out: true });
    await t.api('POST', `/broadcasts/${broadcast.id}/resume`, ws.key);
    const done = await settled(ws, broadcast.id);
    expect(done.counts).toMatchObject({ sent: 1, skipped: 1 });
    expect(bodiesSentTo(stays.phone)).toHaveLength(1);
    expect(bodiesSentTo(leaves.phone)).toEqual([]);
    expect(await recipients(ws, broadcast.id, '&status=skipped')).toEqual([
      expect.objectContaining({
        contact_id: leaves.id,
        error: { code: null, title: expect.stringMatching(/opted out/) },
      }),
    ]);
  });

  it('sends to the contacts one CSV import created or updated', async () => {
    const ws = await t.connectedWorkspace();
    const before = await contact(ws, { name: 'Known' });
    const fresh = nextPhone();
    const form = new FormData();
    form.append(
      'file',
      new Blob([`phone,name\n+${before.phone},Known\n+${fresh},New\n`], { type: 'text/csv' }),
      'c.csv',
    );
    const started = (await t.api('POST', '/contacts/import', ws.key, form)).json();
    await until(async () => {
      const res = (await t.api('GET', `/contacts/imports/${started.import.id}`, ws.key)).json();
      return res.import.status === 'completed';
    });
    await contact(ws, { name: 'Not imported' });
    const audience = await t.api('POST', '/broadcasts/audience', ws.key, {
      audience: { import_id: started.import.id },
    });
    expect(audience.json().count).toBe(2);
  });
});

describe('the tenant wall', () => {
  it("keeps another workspace's key from reading or moving a broadcast", async () => {
    const a = await t.connectedWorkspace();
    const b = await t.connectedWorkspace();
    await contact(a, { tags: ['mine'] });
    const { broadcast } = (await create(a, { audience: { tags_all: ['mine'] }, draft: true })).json();
    for (const path of ['', '/recipients', '/timeline'])
      expect((await t.api('GET', `/broadcasts/${broadcast.id}${path}`, b.key)).statusCode).toBe(404);
    for (const move of ['pause', 'resume', 'cancel'])
      expect((await t.api('POST', `/broadcasts/${broadcast.id}/${move}`, b.key)).statusCode).toBe(404);
    expect((await t.api('GET', '/broadcasts', b.key)).json().broadcasts).toEqual([]);
    expect(
      (await t.api('POST', '/broadcasts/audience', b.key, { audience: { tags_all: ['mine'] } })).json().count,
    ).toBe(0);
    expect((await get(a, broadcast.id)).status).toBe('draft');
  });
});

describe('the web app', () => {
  it('lets members read broadcasts, and only owners and admins create and control them', async () => {
    const member = await workspaceWithOwner(t, 'member');
    await connectSimulator(t, t.base, member.workspaceId);
    const body = { name: 'From the app', template: WELCOME, audience: {}, values: VALUES, draft: true };
    const refused = await member.client.call('POST', '/broadcasts', body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');
    const made = await t.api('POST', '/broadcasts', member.apiKey, body);
    const { id } = made.json().broadcast;
    expect((await member.client.call('GET', `/broadcasts/${id}`)).json().broadcast.id).toBe(id);
    expect((await member.client.call('GET', '/broadcasts')).json().broadcasts).toHaveLength(1);
    expect((await member.client.call('POST', `/broadcasts/${id}/cancel`)).statusCode).toBe(403);
    const owner = await workspaceWithOwner(t);
    await connectSimulator(t, t.base, owner.workspaceId);
    const own = await owner.client.call('POST', '/broadcasts', body);
    expect(own.statusCode, own.body).toBe(201);
    const cancelled = await owner.client.call('POST', `/broadcasts/${own.json().broadcast.id}/cancel`);
    expect(cancelled.json().broadcast.status).toBe('cancelled');
  });
});
