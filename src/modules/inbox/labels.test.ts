import { describe, expect, it } from 'vitest';
import { PASSWORD, signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { connectSimulator, simControl, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { addMember, createUser } from '../accounts/users.js';
import { createEndpoint } from '../webhooks/endpoints.js';
import { BULK_MAX } from './label-schemas.js';

const t = simulatorAppForTests({ queue: true });

let n = 0;
/** A connected workspace, its owner signed in (`app`) and its key (`api`); customers write in with `write`. */
async function workspace() {
  const owner = await workspaceWithOwner(t);
  const number = await connectSimulator(t, t.base, owner.workspaceId);
  const count = async () =>
    (
      await t.ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND direction = 'inbound'`,
        [owner.workspaceId],
      )
    ).rows[0]!.n;
  /** A customer's message; answers the conversation's (contact's) id. */
  const write = async (from = `1415556${String(1000 + (++n % 9000))}`, text = 'Hello') => {
    const before = await count();
    await simControl(t.base, '/inbound', {
      from,
      text,
      name: `Customer ${from}`,
      phone_number_id: number.phoneNumberId,
    });
    await until(async () => (await count()) > before);
    const { rows } = await t.ctx.db.query<{ id: string }>(
      'SELECT id FROM contacts WHERE workspace_id = $1 AND phone = $2',
      [owner.workspaceId, from],
    );
    return { id: rows[0]!.id, from };
  };
  const app = (method: string, path: string, body?: unknown) => owner.client.call(method, path, body);
  const api = (method: string, path: string, body?: unknown) => t.api(method, path, owner.apiKey, body);
  const ids = async (query: string) =>
    (await ok(await app('GET', `/inbox?${query}`))).conversations.map(
      (r: { contact_id: string }) => r.contact_id,
    );
  return { ...owner, write, app, api, ids };
}

async function ok(res: { statusCode: number; body: string; json(): unknown }, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  // biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are what the tests assert
  return res.json() as any;
}

describe('labels', () => {
  it('are created with a colour, unique by name in any case, renamed, recoloured and deleted', async () => {
    const w = await workspace();
    const vip = (await ok(await w.app('POST', '/labels', { name: ' VIP ', colour: 'purple' }), 201)).label;
    expect(vip).toMatchObject({ name: 'VIP', colour: 'purple', conversations: 0 });
    const dup = await w.app('POST', '/labels', { name: 'vip' });
    expectRestError(dup, 422, 'validation_error');
    expect(dup.json().error.details).toEqual([
      { field: 'name', message: 'A label of that name exists already; choose another name.' },
    ]);
    expectRestError(
      await w.app('POST', '/labels', { name: 'Red', colour: '#ff0000' }),
      422,
      'validation_error',
    );
    expectRestError(await w.app('POST', '/labels', { name: '   ' }), 422, 'validation_error');
    const other = (await ok(await w.api('POST', '/labels', { name: 'Billing' }), 201)).label;
    expect(other.colour).toBe('grey');
    expectRestError(await w.app('PATCH', `/labels/${other.id}`, { name: 'Vip' }), 422, 'validation_error');
    expect(
      (await ok(await w.api('PATCH', `/labels/${other.id}`, { name: 'Refunds', colour: 'red' }))).label,
    ).toMatchObject({
      name: 'Refunds',
      colour: 'red',
    });
    const { id } = await w.write();
    await ok(await w.app('POST', `/conversations/${id}/labels`, { label_id: other.id }));
    expect(
      (await ok(await w.app('GET', '/labels'))).labels.map((l: { name: string; conversations: number }) => [
        l.name,
        l.conversations,
      ]),
    ).toEqual([
      ['Refunds', 1],
      ['VIP', 0],
    ]);
    expect((await w.api('DELETE', `/labels/${other.id}`)).statusCode).toBe(204);
    expect((await ok(await w.api('GET', `/conversations/${id}`))).conversation.labels).toEqual([]);
    expectRestError(await w.app('DELETE', `/labels/${other.id}`), 404, 'not_found');
  });

  it('go on and off conversations, show on rows and in REST v1, and filter the inbox', async () => {
    const w = await workspace();
    const a = await w.write();
    const b = await w.write();
    const vip = (await ok(await w.app('POST', '/labels', { name: 'VIP', colour: 'blue' }), 201)).label;
    const tagged = await ok(await w.app('POST', `/conversations/${a.id}/labels`, { label_id: vip.id }));
    expect(tagged.conversation.labels).toEqual([{ id: vip.id, name: 'VIP', colour: 'blue' }]);
    // Twice is once.
    await ok(await w.app('POST', `/conversations/${a.id}/labels`, { label_id: vip.id }));
    expect(await w.ids(`label=${vip.id}`)).toEqual([a.id]);
    expect(await w.ids(`filter=open&label=${vip.id}`)).toEqual([a.id]);
    const rows = (await ok(await w.app('GET', '/inbox'))).conversations;
    expect(rows.find((r: { contact_id: string }) => r.contact_id === a.id).labels).toEqual([
      { id: vip.id, name: 'VIP', colour: 'blue' },
    ]);
    expect(rows.find((r: { contact_id: string }) => r.contact_id === b.id).labels).toEqual([]);
    const listed = await ok(await w.api('GET', `/conversations?label=${vip.id}`));
    expect(listed.conversations.map((c: { id: string }) => c.id)).toEqual([a.id]);
    expect(listed.conversations[0].labels).toEqual([{ id: vip.id, name: 'VIP', colour: 'blue' }]);
    expectRestError(
      await w.app('POST', `/conversations/${a.id}/labels`, { label_id: 'lbl_nope' }),
      422,
      'validation_error',
    );
    expectRestError(
      await w.api('POST', `/conversations/${a.id}/labels`, { label_id: 'lbl_nope' }),
      422,
      'validation_error',
    );
    expectRestError(await w.api('DELETE', `/conversations/${a.id}/labels/lbl_nope`), 404, 'not_found');
    const off = await ok(await w.api('DELETE', `/conversations/${a.id}/labels/${vip.id}`));
    expect(off.conversation.labels).toEqual([]);
    expect(await w.ids(`label=${vip.id}`)).toEqual([]);
  });
});

describe('snooze', () => {
  it('hides a conversation from the open lists until its time, then it comes back', async () => {
    const w = await workspace();
    const { id } = await w.write();
    await ok(await w.app('PATCH', `/conversations/${id}`, { assignee_id: w.client.userId }));
    const unread = async () => (await ok(await w.app('GET', '/inbox/unread'))).unread_conversations;
    expect(await unread()).toBe(1);
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const snoozed = await ok(await w.app('POST', `/conversations/${id}/snooze`, { until }));
    // Not counted as unread while it sleeps; the inbox's first page says when it wakes.
    expect(await unread()).toBe(0);
    const wakesAt = async () => (await ok(await w.app('GET', '/inbox?filter=open'))).wakes_at;
    expect(await wakesAt()).toBe(until);
    expect(snoozed.conversation).toMatchObject({ snoozed_until: until, snoozed_until_reply: false });
    for (const filter of ['open', 'mine']) expect(await w.ids(`filter=${filter}`)).toEqual([]);
    expect(await w.ids('filter=snoozed')).toEqual([id]);
    expect(await w.ids('filter=all')).toEqual([id]);
    expect((await ok(await w.api('GET', `/conversations/${id}`))).conversation.snoozed_until).toBe(until);
    // Its time passes: nothing runs, the lists read the clock.
    await t.ctx.db.query(
      `UPDATE conversations SET snoozed_until = now() - interval '1 second' WHERE workspace_id = $1 AND contact_id = $2`,
      [w.workspaceId, id],
    );
    expect(await w.ids('filter=open')).toEqual([id]);
    expect(await w.ids('filter=mine')).toEqual([id]);
    expect(await w.ids('filter=snoozed')).toEqual([]);
    expect(await unread()).toBe(1);
    expect(await wakesAt()).toBeNull();
    expect((await ok(await w.api('GET', `/conversations/${id}`))).conversation.snoozed_until).toBeNull();
  });

  it('until the customer writes: their message wakes it; unsnooze wakes it at once', async () => {
    const w = await workspace();
    const c = await w.write();
    const snoozed = await ok(await w.api('POST', `/conversations/${c.id}/snooze`, { until_reply: true }));
    expect(snoozed.conversation).toMatchObject({ snoozed_until: null, snoozed_until_reply: true });
    expect(await w.ids('filter=unassigned')).toEqual([]);
    expect(await w.ids('filter=snoozed')).toEqual([c.id]);
    await w.write(c.from, 'Any news?');
    expect(await w.ids('filter=unassigned')).toEqual([c.id]);
    expect((await ok(await w.api('GET', `/conversations/${c.id}`))).conversation.snoozed_until_reply).toBe(
      false,
    );
    // A time far off wakes on a reply too; unsnooze wakes it now.
    await ok(
      await w.app('POST', `/conversations/${c.id}/snooze`, {
        until: new Date(Date.now() + 86_400_000).toISOString(),
      }),
    );
    expect(await w.ids('filter=snoozed')).toEqual([c.id]);
    await ok(await w.app('POST', `/conversations/${c.id}/unsnooze`));
    expect(await w.ids('filter=open')).toEqual([c.id]);
  });

  it('refuses a time in the past or over a year off, and both kinds at once', async () => {
    const w = await workspace();
    const { id } = await w.write();
    const past = await w.app('POST', `/conversations/${id}/snooze`, {
      until: new Date(Date.now() - 60_000).toISOString(),
    });
    expectRestError(past, 422, 'validation_error');
    expect(past.json().error.details).toEqual([{ field: 'until', message: 'Choose a time in the future.' }]);
    const far = new Date(Date.now() + 400 * 86_400_000).toISOString();
    expectRestError(
      await w.api('POST', `/conversations/${id}/snooze`, { until: far }),
      422,
      'validation_error',
    );
    const both = { until: new Date(Date.now() + 60_000).toISOString(), until_reply: true };
    expectRestError(await w.api('POST', `/conversations/${id}/snooze`, both), 422, 'validation_error');
    expectRestError(
      await w.api('POST', '/conversations/ct_nope/snooze', { until_reply: true }),
      404,
      'not_found',
    );
    expect(await w.ids('filter=open')).toEqual([id]);
  });
});

describe('saved views', () => {
  it("are a member's own unless shared, and only their author changes them", async () => {
    const w = await workspace();
    const label = (await ok(await w.app('POST', '/labels', { name: 'VIP' }), 201)).label;
    const query = { filter: 'open', label: label.id, q: 'refund' };
    const mine = (await ok(await w.app('POST', '/saved-views', { name: 'VIP refunds', query }), 201)).view;
    expect(mine).toMatchObject({ name: 'VIP refunds', query, shared: false, mine: true });
    const email = `mate-${++n}-${w.workspaceId}@example.com`;
    await addMember(t.ctx.db, w.workspaceId, await createUser(t.ctx.db, email, PASSWORD, 'Mate'), 'member');
    const mate = await signIn(t, email);
    expect((await ok(await mate.call('GET', '/saved-views'))).views).toEqual([]);
    await ok(await w.app('PATCH', `/saved-views/${mine.id}`, { shared: true }));
    expect((await ok(await mate.call('GET', '/saved-views'))).views).toMatchObject([
      { id: mine.id, mine: false },
    ]);
    expectRestError(
      await mate.call('PATCH', `/saved-views/${mine.id}`, { name: 'Mine now' }),
      404,
      'not_found',
    );
    expectRestError(await mate.call('DELETE', `/saved-views/${mine.id}`), 404, 'not_found');
    expectRestError(
      await w.app('POST', '/saved-views', { name: 'Odd', query: { filter: 'everything' } }),
      422,
      'validation_error',
    );
    expectRestError(
      await w.app('POST', '/saved-views', { name: 'Odd', query: { colour: 'red' } }),
      422,
      'validation_error',
    );
    await ok(await w.app('DELETE', `/saved-views/${mine.id}`));
    expect((await ok(await w.app('GET', '/saved-views'))).views).toEqual([]);
  });
});

describe('bulk actions', () => {
  it("resolve each conversation as a single change would, and leave another workspace's ids alone", async () => {
    const w = await workspace();
    const other = await workspace();
    await createEndpoint(t.ctx, w.workspaceId, 'https://bulk.example.invalid/hook');
    const a = await w.write();
    const b = await w.write();
    const theirs = await other.write();
    const res = await ok(
      await w.app('POST', '/conversations/bulk', { ids: [a.id, theirs.id, b.id], action: 'resolve' }),
    );
    expect(res).toEqual({ result: true, done: 2, not_found: [theirs.id] });
    expect(await w.ids('filter=open')).toEqual([]);
    expect(await other.ids('filter=open')).toEqual([theirs.id]);
    // Each resolution is its own event, by the teammate who did it.
    const { rows } = await t.ctx.db.query<{ payload: string }>(
      `SELECT payload::text FROM webhook_deliveries WHERE workspace_id = $1 AND event_type = 'conversation.resolved'`,
      [w.workspaceId],
    );
    expect(rows).toHaveLength(2);
    for (const id of [a.id, b.id]) expect(rows.some((r) => r.payload.includes(id))).toBe(true);
    expect(rows.every((r) => r.payload.includes(w.client.userId))).toBe(true);
  });

  it('assign, label, unlabel and snooze through REST v1; a bad assignee or label changes nothing', async () => {
    const w = await workspace();
    const other = await workspace();
    const a = await w.write();
    const b = await w.write();
    const ids = [a.id, b.id];
    const label = (await ok(await w.api('POST', '/labels', { name: 'Later' }), 201)).label;
    const theirLabel = (await ok(await other.api('POST', '/labels', { name: 'Theirs' }), 201)).label;
    const badLabel = await w.api('POST', '/conversations/bulk', {
      ids,
      action: 'label',
      label_id: theirLabel.id,
    });
    expectRestError(badLabel, 422, 'validation_error');
    expectRestError(
      await w.api('POST', '/conversations/bulk', { ids, action: 'label' }),
      422,
      'validation_error',
    );
    expectRestError(
      await w.api('POST', '/conversations/bulk', { ids, action: 'assign', assignee_id: other.client.userId }),
      422,
      'validation_error',
    );
    expect(await w.ids('filter=unassigned')).toEqual(expect.arrayContaining(ids));
    expect(await w.ids(`label=${label.id}`)).toEqual([]);
    expect(
      await ok(await w.api('POST', '/conversations/bulk', { ids, action: 'label', label_id: label.id })),
    ).toEqual({
      result: true,
      done: 2,
      not_found: [],
    });
    expect((await w.ids(`label=${label.id}`)).sort()).toEqual([...ids].sort());
    await ok(
      await w.api('POST', '/conversations/bulk', { ids: [a.id], action: 'unlabel', label_id: label.id }),
    );
    expect(await w.ids(`label=${label.id}`)).toEqual([b.id]);
    await ok(
      await w.api('POST', '/conversations/bulk', { ids, action: 'assign', assignee_id: w.client.userId }),
    );
    expect((await w.ids('filter=mine')).sort()).toEqual([...ids].sort());
    await ok(
      await w.api('POST', '/conversations/bulk', { ids: [a.id], action: 'snooze', until_reply: true }),
    );
    expect(await w.ids('filter=mine')).toEqual([b.id]);
    expect(await w.ids('filter=snoozed')).toEqual([a.id]);
    const past = await w.api('POST', '/conversations/bulk', {
      ids,
      action: 'snooze',
      until: '2020-01-01T00:00:00Z',
    });
    expectRestError(past, 422, 'validation_error');
  });

  it(`refuses more than ${BULK_MAX} ids, none, or the same id twice`, async () => {
    const w = await workspace();
    const { id } = await w.write();
    const many = Array.from({ length: BULK_MAX + 1 }, (_, i) => (i === 0 ? id : `ct_${i}`));
    expectRestError(
      await w.app('POST', '/conversations/bulk', { ids: many, action: 'resolve' }),
      422,
      'validation_error',
    );
    expectRestError(
      await w.api('POST', '/conversations/bulk', { ids: many, action: 'resolve' }),
      422,
      'validation_error',
    );
    expectRestError(
      await w.api('POST', '/conversations/bulk', { ids: [], action: 'resolve' }),
      422,
      'validation_error',
    );
    expectRestError(
      await w.api('POST', '/conversations/bulk', { ids: [id, id], action: 'resolve' }),
      422,
      'validation_error',
    );
    expect(await w.ids('filter=open')).toEqual([id]);
    // Exactly the limit is taken.
    const limit = await ok(
      await w.api('POST', '/conversations/bulk', { ids: many.slice(0, BULK_MAX), action: 'resolve' }),
    );
    expect(limit.done).toBe(1);
    expect(await w.ids('filter=open')).toEqual([]);
  });
});
