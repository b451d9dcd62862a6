import { describe, expect, it } from 'vitest';
import { createTestApp, secondInstance } from '../../../test/support/app.js';
import { PASSWORD, signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { TEST_DB } from '../../../test/support/database.js';
import { openLiveStream } from '../../../test/support/live.js';
import {
  connectSimulator,
  listen,
  simControl,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { addMember, createUser } from '../accounts/users.js';

const t = simulatorAppForTests({ queue: true });

let n = 0;
/** A workspace with a signed-in owner and a number on the simulator, and a customer to write from it. */
async function connected() {
  const owner = await workspaceWithOwner(t);
  const number = await connectSimulator(t, t.base, owner.workspaceId);
  const from = `1415556${String(1000 + (++n % 9000))}`;
  const write = (text: string) =>
    simControl(t.base, '/inbound', { from, text, phone_number_id: number.phoneNumberId });
  return { ...owner, number, write };
}

describe('GET /api/app/events', () => {
  it('streams a customer message once the network’s webhook is in, to its workspace only', async () => {
    const a = await connected();
    const b = await connected();
    const streamA = await openLiveStream(t.base, a.client.cookie);
    const streamB = await openLiveStream(t.base, b.client.cookie);
    expect(streamA.status).toBe(200);
    await a.write('Is the shop open today?');
    // Pushed on the open stream: nothing asks again (how soon is the live feed's poll, not a test's bound).
    const event = await streamA.next((e) => e.event === 'message' && e.data.direction === 'inbound', 10_000);
    const { rows } = await t.ctx.db.query<{ id: string; contact_id: string }>(
      `SELECT id, contact_id FROM messages WHERE workspace_id = $1 AND direction = 'inbound'`,
      [a.workspaceId],
    );
    expect(event.data).toEqual({
      contact_id: rows[0]!.contact_id,
      message_id: rows[0]!.id,
      direction: 'inbound',
    });
    // A change made in the app reaches the stream too.
    await a.client.call('PATCH', `/conversations/${rows[0]!.contact_id}`, { state: 'pending' });
    await streamA.next((e) => e.event === 'conversation' && e.data.contact_id === rows[0]!.contact_id);
    await new Promise((r) => setTimeout(r, 300));
    expect(streamB.events).toEqual([]);
    streamA.close();
    streamB.close();
  });

  it('sends the events missed since Last-Event-ID, and a refresh when they cannot be told', async () => {
    const a = await connected();
    const first = await openLiveStream(t.base, a.client.cookie);
    await a.write('one');
    const seen = await first.next((e) => e.event === 'message');
    first.close();
    await a.write('two');
    const { rows } = await t.ctx.db.query<{ id: string }>(
      `SELECT id FROM messages WHERE workspace_id = $1 AND text = 'two'`,
      [a.workspaceId],
    );
    expect(rows).toHaveLength(1);
    const again = await openLiveStream(t.base, a.client.cookie, { 'last-event-id': seen.id! });
    const missed = await again.next((e) => e.event === 'message');
    expect(missed.data.message_id).toBe(rows[0]!.id);
    again.close();
    for (const id of ['someone-else-1', 'x', `${seen.id!.split('-')[0]}-99999999`]) {
      const unknown = await openLiveStream(t.base, a.client.cookie, { 'last-event-id': id });
      await unknown.next((e) => e.event === 'refresh');
      unknown.close();
    }
  });

  it('answers a client without EventSource the kept events as JSON, of its workspace only', async () => {
    const a = await connected();
    const b = await connected();
    // A polling client follows the workspace from its first request on.
    expect((await a.client.call('GET', '/events')).json().events).toEqual([]);
    await a.write('hello');
    const own = await until(async () => {
      const body = (await a.client.call('GET', '/events')).json() as { events: { kind: string }[] };
      // The new customer's contact is announced too.
      return body.events.some((e) => e.kind === 'message') ? body : null;
    });
    expect(own.events).toContainEqual(expect.objectContaining({ kind: 'message', direction: 'inbound' }));
    expect((await b.client.call('GET', '/events')).json().events).toEqual([]);
  });

  it('records nothing for a workspace no browser follows, and does once one does', async () => {
    const a = await connected();
    const inbound = async (count: number) =>
      until(async () => {
        const { rows } = await t.ctx.db.query(
          `SELECT 1 FROM messages WHERE workspace_id = $1 AND direction = 'inbound'`,
          [a.workspaceId],
        );
        return rows.length === count;
      });
    const ours = async () =>
      (await t.ctx.db.query(`SELECT kind FROM live_events WHERE workspace_id = $1`, [a.workspaceId])).rows;
    await a.write('nobody is looking');
    await inbound(1);
    expect(await ours()).toEqual([]);
    await a.client.call('GET', '/events');
    await a.write('now someone is');
    await until(async () => (await ours()).length > 0);
  });

  it('refuses a request without a session, and more streams than a session may hold', async () => {
    const refused = await openLiveStream(t.base, 'parley_session=nothing');
    expect(refused.status).toBe(401);
    const a = await connected();
    const open = await Promise.all(Array.from({ length: 5 }, () => openLiveStream(t.base, a.client.cookie)));
    expect(open.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await openLiveStream(t.base, a.client.cookie);
    expect(sixth.status).toBe(429);
    // Another session of the same person is counted apart.
    const other = await workspaceWithOwner(t);
    const theirs = await openLiveStream(t.base, other.client.cookie);
    expect(theirs.status).toBe(200);
    theirs.close();
    open[0]!.close();
    await until(async () => {
      const s = await openLiveStream(t.base, a.client.cookie);
      s.close();
      return s.status === 200;
    });
    for (const s of open) s.close();
  });

  it('bounds one person’s streams over all their sessions, and never another workspace’s', async () => {
    const a = await workspaceWithOwner(t);
    const sessions = [a.client, await signIn(t, a.client.email), await signIn(t, a.client.email)];
    const open = [];
    for (const session of sessions.slice(0, 2)) {
      for (let i = 0; i < 5; i++) open.push(await openLiveStream(t.base, session.cookie));
    }
    expect(open.map((s) => s.status)).toEqual(Array(10).fill(200));
    const eleventh = await openLiveStream(t.base, sessions[2]!.cookie);
    expect(eleventh.status).toBe(429);
    const other = await workspaceWithOwner(t);
    const theirs = await openLiveStream(t.base, other.client.cookie);
    expect(theirs.status).toBe(200);
    theirs.close();
    for (const s of open) s.close();
  });

  it('ends a session’s streams when it signs out or its member is removed, and no other', async () => {
    const a = await connected();
    const mine = await openLiveStream(t.base, a.client.cookie);
    const other = await workspaceWithOwner(t);
    const theirs = await openLiveStream(t.base, other.client.cookie);
    expect((await a.client.call('POST', '/logout')).statusCode).toBe(200);
    await until(() => mine.ended(), 2_000);
    expect(theirs.ended()).toBe(false);
    theirs.close();

    const b = await workspaceWithOwner(t);
    const email = `member-${++n}@example.com`;
    const memberId = await createUser(t.ctx.db, email, PASSWORD);
    await addMember(t.ctx.db, b.workspaceId, memberId, 'member');
    const member = await signIn(t, email);
    const ownerStream = await openLiveStream(t.base, b.client.cookie);
    const memberStream = await openLiveStream(t.base, member.cookie);
    expect(memberStream.status).toBe(200);
    expect((await b.client.call('DELETE', `/members/${memberId}`)).statusCode).toBe(200);
    await until(() => memberStream.ended(), 2_000);
    expect(ownerStream.ended()).toBe(false);
    ownerStream.close();
  });

  it('announces a broadcast changing state', async () => {
    const a = await connected();
    const stream = await openLiveStream(t.base, a.client.cookie);
    await t.ctx.db.query(
      `INSERT INTO broadcasts (workspace_id, id, name, status, template_name, template_language, template_category,
         audience, "values", time_zone) VALUES ($1, 'bc_live', 'Live', 'draft', 'welcome', 'en', 'MARKETING', '{}', '{}', 'UTC')`,
      [a.workspaceId],
    );
    await stream.next((e) => e.event === 'broadcast');
    const before = stream.events.length;
    await t.ctx.db.query(`UPDATE broadcasts SET status = 'cancelled' WHERE workspace_id = $1`, [
      a.workspaceId,
    ]);
    await stream.next((e) => e.event === 'broadcast' && stream.events.indexOf(e) >= before);
    stream.close();
  });

  it('does not keep the server from closing', async () => {
    const other = await createTestApp({ queue: false });
    const otherBase = await listen(other);
    const owner = await workspaceWithOwner(other);
    const stream = await openLiveStream(otherBase, owner.client.cookie);
    expect(stream.status).toBe(200);
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    await until(() => stream.ended(), 2_000);
  });

  it.runIf(TEST_DB === 'postgres')(
    'reaches a browser on another instance, and ends it there on sign-out',
    async () => {
      const second = await secondInstance(t);
      try {
        const secondBase = await listen(second);
        const a = await connected();
        const stream = await openLiveStream(secondBase, a.client.cookie);
        expect(stream.status).toBe(200);
        await a.write('Across instances');
        await stream.next((e) => e.event === 'message' && e.data.direction === 'inbound', 2_000);
        // Signed out on the first instance: the second ends that session's stream too.
        expect((await a.client.call('POST', '/logout')).statusCode).toBe(200);
        await until(() => stream.ended(), 2_000);
      } finally {
        await second.close();
      }
    },
  );
});
