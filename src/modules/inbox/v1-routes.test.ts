import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { connectSimulator, simControl, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { addMember, createUser } from '../accounts/users.js';
import { createEndpoint } from '../webhooks/endpoints.js';

// WEBHOOKS_ALLOW_PRIVATE: the customer's webhook endpoint below listens on loopback.
const t = simulatorAppForTests({ queue: true, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });

type Hook = { type: string; data: Record<string, unknown> & { id: string } };
const received: { headers: IncomingHttpHeaders; body: Hook }[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received.push({ headers: req.headers, body: JSON.parse(body) });
    res.writeHead(200).end();
  });
});
let hookUrl = '';
beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

const hooksFor = (contactId: string, type?: string) =>
  received.map((r) => r.body).filter((b) => b.data.id === contactId && (!type || b.type === type));

let n = 0;
/** A connected workspace with its owner (user id) and API key; customers write in with `write`. */
async function workspace(options: { webhook?: boolean } = {}) {
  const owner = await workspaceWithOwner(t);
  const number = await connectSimulator(t, t.base, owner.workspaceId);
  const { rows } = await t.ctx.db.query<{ user_id: string }>(
    'SELECT user_id FROM memberships WHERE workspace_id = $1',
    [owner.workspaceId],
  );
  if (options.webhook) await createEndpoint(t.ctx, owner.workspaceId, hookUrl);
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    t.api(method, path, owner.apiKey, body, headers);
  /** A customer's message; answers the conversation's (contact's) id once it is stored. */
  const write = async (from: string, text: string, name = 'Meera') => {
    const before = await inbound(owner.workspaceId);
    await simControl(t.base, '/inbound', { from, text, name, phone_number_id: number.phoneNumberId });
    await until(async () => (await inbound(owner.workspaceId)) > before);
    const contact = await t.ctx.db.query<{ id: string }>(
      'SELECT id FROM contacts WHERE workspace_id = $1 AND phone = $2',
      [owner.workspaceId, from],
    );
    return contact.rows[0]!.id;
  };
  const phone = () => `1415558${String(1000 + (++n % 9000))}`;
  return { ...owner, ownerId: rows[0]!.user_id, api, write, phone };
}

async function inbound(workspaceId: string) {
  const { rows } = await t.ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND direction = 'inbound'`,
    [workspaceId],
  );
  return rows[0]!.n;
}

async function ok(res: { statusCode: number; body: string; json(): unknown }, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  // biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are what the tests assert
  return res.json() as any;
}

describe('GET /api/v1/conversations', () => {
  it('shows each conversation with its contact, status, assignee, unread count and dates', async () => {
    const ws = await workspace();
    const from = ws.phone();
    const id = await ws.write(from, 'Hello', 'Meera Shah');
    await ws.write(from, 'Anyone there?');
    const { conversation } = await ok(await ws.api('GET', `/conversations/${id}`));
    expect(conversation).toEqual({
      id,
      contact: { id, phone: from, name: 'Meera Shah' },
      status: 'open',
      assignee: null,
      team: null,
      unread_count: 2,
      window: { open: true, closes_at: expect.any(String) },
      last_message_at: expect.any(String),
      created_at: expect.any(String),
      bot: null,
      bot_waiting: null,
      labels: [],
      snoozed_until: null,
      snoozed_until_reply: false,
    });
    // The window closes 24 hours after the customer's last message.
    const closes = Date.parse(conversation.window.closes_at) - Date.parse(conversation.last_message_at);
    expect(Math.abs(closes - 24 * 3_600_000)).toBeLessThan(5_000);
    await ok(await ws.api('POST', `/conversations/${id}/assign`, { member_id: ws.ownerId }));
    const list = await ok(await ws.api('GET', '/conversations'));
    expect(list).toEqual({
      result: true,
      conversations: [{ ...conversation, assignee: { id: ws.ownerId, name: 'Owner' } }],
      next_cursor: null,
    });
    // A day and an hour after the customer wrote, the window is closed; with no customer message, it
    // never opened.
    const window = async (lastInbound: string | null) => {
      await t.ctx.db.query('UPDATE contacts SET last_inbound_at = $3 WHERE workspace_id = $1 AND id = $2', [
        ws.workspaceId,
        id,
        lastInbound,
      ]);
      return (await ok(await ws.api('GET', `/conversations/${id}`))).conversation.window;
    };
    const wrote = new Date(Date.now() - 25 * 3_600_000).toISOString();
    expect(await window(wrote)).toEqual({
      open: false,
      closes_at: new Date(Date.parse(wrote) + 24 * 3_600_000).toISOString(),
    });
    expect(await window(null)).toEqual({ open: false, closes_at: null });
  });

  it('filters by status (open covers pending) and by assignee', async () => {
    const ws = await workspace();
    const open = await ws.write(ws.phone(), 'a');
    const pending = await ws.write(ws.phone(), 'b');
    const resolved = await ws.write(ws.phone(), 'c');
    await ws.client.call('PATCH', `/conversations/${pending}`, { state: 'pending' });
    await ok(await ws.api('POST', `/conversations/${resolved}/resolve`));
    await ok(await ws.api('POST', `/conversations/${open}/assign`, { member_id: ws.ownerId }));
    const ids = async (query: string) =>
      (await ok(await ws.api('GET', `/conversations?${query}`))).conversations.map(
        (c: { id: string }) => c.id,
      );
    expect(await ids('status=open')).toEqual([pending, open]);
    expect(await ids('status=resolved')).toEqual([resolved]);
    expect(await ids('status=all')).toEqual([resolved, pending, open]);
    expect(await ids('')).toEqual([resolved, pending, open]);
    expect(await ids(`assignee=${ws.ownerId}`)).toEqual([open]);
    expect(await ids('assignee=unassigned')).toEqual([resolved, pending]);
    expect(await ids('assignee=unassigned&status=open')).toEqual([pending]);
  });

  it('pages with next_cursor, newest begun first, each conversation once while new ones arrive', async () => {
    const ws = await workspace();
    const first: string[] = [];
    for (let i = 0; i < 5; i++) first.push(await ws.write(ws.phone(), `hi ${i}`));
    const seen: string[] = [];
    let page = await ok(await ws.api('GET', '/conversations?limit=2'));
    seen.push(...page.conversations.map((c: { id: string }) => c.id));
    // New ones begin, and an old one moves (a message, a resolve): neither is seen twice nor skipped.
    const later = await ws.write(ws.phone(), 'new');
    await ws.write(page.conversations[0].contact.phone, 'again');
    await ok(await ws.api('POST', `/conversations/${first[0]}/resolve`));
    while (page.next_cursor) {
      page = await ok(await ws.api('GET', `/conversations?limit=2&cursor=${page.next_cursor}`));
      seen.push(...page.conversations.map((c: { id: string }) => c.id));
    }
    expect(seen).toEqual([...first].reverse());
    expect((await ok(await ws.api('GET', '/conversations?limit=1'))).conversations[0].id).toBe(later);
  });

  it("refuses a cursor that is not one of its own and an assignee who is not the workspace's member", async () => {
    const ws = await workspace();
    const other = await workspace();
    expectRestError(await ws.api('GET', '/conversations?cursor=bm90LWEtY3Vyc29y'), 422, 'validation_error');
    const res = await ws.api('GET', `/conversations?assignee=${other.ownerId}`);
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.details[0].field).toBe('assignee');
  });
});

describe('GET /api/v1/conversations/{id}/messages', () => {
  it("pages the conversation's messages newest first, each as GET /messages/{id} shows it", async () => {
    const ws = await workspace();
    const from = ws.phone();
    const id = await ws.write(from, 'one');
    await ws.write(from, 'two');
    const sent = await ok(
      await ws.api('POST', '/messages', { to: `+${from}`, type: 'text', text: 'three' }),
      201,
    );
    const page1 = await ok(await ws.api('GET', `/conversations/${id}/messages?limit=2`));
    expect(page1.messages.map((m: { text: string }) => m.text)).toEqual(['three', 'two']);
    // The network's statuses for 'three' arrive meanwhile: the two reads agree once they saw the same one.
    await vi.waitFor(async () => {
      const listed = (await ok(await ws.api('GET', `/conversations/${id}/messages?limit=1`))).messages[0];
      const { result: _r, ...view } = await ok(await ws.api('GET', `/messages/${sent.id}`));
      expect(listed).toEqual(view);
    });
    const page2 = await ok(
      await ws.api('GET', `/conversations/${id}/messages?limit=2&cursor=${page1.next_cursor}`),
    );
    expect(page2).toMatchObject({ messages: [{ text: 'one', direction: 'inbound' }], next_cursor: null });
  });

  it('answers 404 for a contact who has no conversation yet', async () => {
    const ws = await workspace();
    const contact = await ok(await ws.api('POST', '/contacts', { phone: '+14155550111' }), 201);
    for (const path of [`/conversations/${contact.id}`, `/conversations/${contact.id}/messages`])
      expectRestError(await ws.api('GET', path), 404, 'not_found');
    expectRestError(await ws.api('POST', `/conversations/${contact.id}/resolve`), 404, 'not_found');
    expectRestError(
      await ws.api('POST', `/conversations/${contact.id}/notes`, { text: 'x' }),
      404,
      'not_found',
    );
  });
});

describe('POST /api/v1/conversations/{id}/assign, resolve, reopen', () => {
  it('assigns to a member and to no one, refusing a non-member and a team at their fields', async () => {
    const ws = await workspace();
    const id = await ws.write(ws.phone(), 'hi');
    const member = await createUser(t.ctx.db, `m${Date.now()}@example.com`, 'x'.repeat(12), 'Ravi');
    await addMember(t.ctx.db, ws.workspaceId, member, 'member');
    const given = await ok(await ws.api('POST', `/conversations/${id}/assign`, { member_id: member }));
    expect(given.conversation.assignee).toEqual({ id: member, name: 'Ravi' });
    const stranger = await createUser(t.ctx.db, `s${Date.now()}@example.com`, 'x'.repeat(12), 'S');
    const refused = await ws.api('POST', `/conversations/${id}/assign`, { member_id: stranger });
    expectRestError(refused, 422, 'validation_error');
    expect(refused.json().error.details).toEqual([{ field: 'member_id', message: expect.any(String) }]);
    const team = await ws.api('POST', `/conversations/${id}/assign`, { team_id: 'team_x' });
    expectRestError(team, 422, 'validation_error');
    expect(team.json().error.details).toEqual([{ field: 'team_id', message: expect.any(String) }]);
    expect((await ok(await ws.api('GET', `/conversations/${id}`))).conversation.assignee.id).toBe(member);
    const none = await ok(await ws.api('POST', `/conversations/${id}/assign`, { member_id: null }));
    expect(none.conversation.assignee).toBeNull();
  });

  it('gives a conversation to a team: its available member who waited longest, else the team unassigned', async () => {
    const ws = await workspace();
    const [first, second] = [await ws.write(ws.phone(), 'hi'), await ws.write(ws.phone(), 'hello')];
    const third = await ws.write(ws.phone(), 'hey');
    const member = await createUser(t.ctx.db, `r${Date.now()}@example.com`, 'x'.repeat(12), 'Ravi');
    await addMember(t.ctx.db, ws.workspaceId, member, 'member');
    const teamId = 'team_api1';
    await t.ctx.db.query(
      `INSERT INTO teams (workspace_id, id, name, max_open_per_member) VALUES ($1, $2, 'Sales', 1)`,
      [ws.workspaceId, teamId],
    );
    await t.ctx.db.query(
      `INSERT INTO team_members (workspace_id, team_id, user_id) VALUES ($1, $2, $3), ($1, $2, $4)`,
      [ws.workspaceId, teamId, ws.ownerId, member],
    );
    await t.ctx.db.query(`UPDATE memberships SET last_seen_at = now() WHERE workspace_id = $1`, [
      ws.workspaceId,
    ]);
    const assign = async (id: string) =>
      (await ok(await ws.api('POST', `/conversations/${id}/assign`, { team_id: teamId }))).conversation;
    const a = await assign(first);
    const b = await assign(second);
    expect(a.team).toEqual({ id: teamId, name: 'Sales' });
    expect([a.assignee.id, b.assignee.id].sort()).toEqual([ws.ownerId, member].sort());
    // Both are at the team's cap of one open conversation: the third waits in the team.
    expect(await assign(third)).toMatchObject({ team: { id: teamId }, assignee: null });
  });

  it('resolves and reopens, keeping the assignee; the change is made via the API', async () => {
    const ws = await workspace();
    const id = await ws.write(ws.phone(), 'hi');
    await ok(await ws.api('POST', `/conversations/${id}/assign`, { member_id: ws.ownerId }));
    const resolved = await ok(await ws.api('POST', `/conversations/${id}/resolve`));
    expect(resolved.conversation).toMatchObject({ status: 'resolved', assignee: { id: ws.ownerId } });
    expect((await ok(await ws.api('POST', `/conversations/${id}/resolve`))).conversation.status).toBe(
      'resolved',
    );
    const reopened = await ok(await ws.api('POST', `/conversations/${id}/reopen`));
    expect(reopened.conversation).toMatchObject({ status: 'open', assignee: { id: ws.ownerId } });
    // The team sees the state the API set.
    const app = (await ws.client.call('GET', `/conversations/${id}`)).json();
    expect(app.conversation).toMatchObject({ state: 'open', assignee_id: ws.ownerId });
  });
});

describe('POST /api/v1/conversations/{id}/notes', () => {
  it("adds a note the team sees by the key's name, once per Idempotency-Key", async () => {
    const ws = await workspace();
    const id = await ws.write(ws.phone(), 'hi');
    // A key without a name goes by its readable prefix.
    const { rows } = await t.ctx.db.query<{ name: string }>(
      `SELECT COALESCE(NULLIF(name, ''), display_prefix) AS name FROM api_keys WHERE workspace_id = $1`,
      [ws.workspaceId],
    );
    const headers = { 'idempotency-key': 'note-1' };
    const first = await ok(
      await ws.api('POST', `/conversations/${id}/notes`, { text: 'Refund approved' }, headers),
      201,
    );
    expect(first).toEqual({
      result: true,
      id: expect.stringMatching(/^nt_/),
      created_at: expect.any(String),
    });
    const again = await ws.api('POST', `/conversations/${id}/notes`, { text: 'Refund approved' }, headers);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first);
    const { notes } = (await ws.client.call('GET', `/conversations/${id}`)).json();
    expect(notes).toEqual([
      expect.objectContaining({
        id: first.id,
        text: 'Refund approved',
        author_id: null,
        author_name: `API key ${rows[0]!.name}`,
      }),
    ]);
  });
});

describe('webhook events', () => {
  it('announces conversation.created on the first message only, then .assigned and .resolved via the API', async () => {
    const ws = await workspace({ webhook: true });
    const from = ws.phone();
    const id = await ws.write(from, 'first');
    await ws.write(from, 'second');
    const created = await until(() => hooksFor(id, 'conversation.created')[0]);
    expect(created.data).toMatchObject({ id, contact: { id, phone: from }, status: 'open', assignee: null });
    expect(created.data.message_id).toMatch(/^msg_/);
    await ok(await ws.api('POST', `/conversations/${id}/assign`, { member_id: ws.ownerId }));
    await ok(await ws.api('POST', `/conversations/${id}/assign`, { member_id: ws.ownerId }));
    await ok(await ws.api('POST', `/conversations/${id}/resolve`));
    await ok(await ws.api('POST', `/conversations/${id}/resolve`));
    const resolved = await until(() => hooksFor(id, 'conversation.resolved')[0]);
    expect(resolved.data).toMatchObject({
      status: 'resolved',
      assignee: { id: ws.ownerId },
      changed_by: { type: 'api', member_id: null },
    });
    // A teammate's change says so.
    await ws.client.call('PATCH', `/conversations/${id}`, { assignee_id: null });
    await until(() => hooksFor(id, 'conversation.assigned').length === 2);
    const assigned = hooksFor(id, 'conversation.assigned');
    expect(assigned.map((h) => [h.data.assignee, h.data.changed_by])).toEqual([
      [
        { id: ws.ownerId, name: 'Owner' },
        { type: 'api', member_id: null },
      ],
      [null, { type: 'member', member_id: ws.ownerId }],
    ]);
    // Events are recorded in the transaction that made them: once the message is stored, so are they.
    await ws.write(from, 'third');
    const { rows } = await t.ctx.db.query<{ event_type: string; n: number }>(
      `SELECT event_type, count(*)::int AS n FROM webhook_deliveries
       WHERE workspace_id = $1 AND event_type LIKE 'conversation.%' GROUP BY event_type ORDER BY event_type`,
      [ws.workspaceId],
    );
    expect(rows).toEqual([
      { event_type: 'conversation.assigned', n: 2 },
      { event_type: 'conversation.created', n: 1 },
      { event_type: 'conversation.resolved', n: 1 },
    ]);
  });

  it('announces no conversation.created for a conversation begun before the endpoint was added', async () => {
    const ws = await workspace();
    const from = ws.phone();
    await ws.write(from, 'first');
    await createEndpoint(t.ctx, ws.workspaceId, hookUrl);
    await ws.write(from, 'second');
    const { rows } = await t.ctx.db.query<{ event_type: string }>(
      'SELECT event_type FROM webhook_deliveries WHERE workspace_id = $1',
      [ws.workspaceId],
    );
    expect(rows.map((r) => r.event_type)).toEqual(['message.received']);
  });

  it("delivers a bot's assign and resolve once the step's transaction committed", async () => {
    const ws = await workspace({ webhook: true });
    await ok(
      await ws.api('POST', '/automations', {
        name: 'Hand over',
        trigger: { type: 'message_received', keywords: ['agent'] },
        steps: [
          { id: 'done', type: 'resolve', next: 'give' },
          { id: 'give', type: 'assign', to: ws.ownerId },
        ],
        published: true,
      }),
      201,
    );
    const id = await ws.write(ws.phone(), 'agent');
    const assigned = await until(() => hooksFor(id, 'conversation.assigned')[0]);
    expect(assigned.data).toMatchObject({
      assignee: { id: ws.ownerId },
      changed_by: { type: 'bot', member_id: null },
    });
    const resolved = await until(() => hooksFor(id, 'conversation.resolved')[0]);
    expect(resolved.data.changed_by).toEqual({ type: 'bot', member_id: null });
  });
});
