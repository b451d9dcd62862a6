import { describe, expect, it } from 'vitest';
import { type AppClient, PASSWORD, signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { jpeg, multipart } from '../../../test/support/media-files.js';
import {
  connectSimulator,
  SIM_TEMPLATES,
  simControl,
  simState,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { addMember, createUser } from '../accounts/users.js';
import { sendMessage } from '../messaging/send-message.js';
import { QUICK_REPLIES_MAX } from './schemas.js';

const t = simulatorAppForTests({ queue: true });

let n = 0;
/** A connected workspace, its owner signed in, and a customer (named) who has written `text`. */
async function customerWrote(text = 'Hello there', name = 'Meera Shah') {
  const owner = await workspaceWithOwner(t);
  const number = await connectSimulator(t, t.base, owner.workspaceId);
  const from = `1415557${String(1000 + (++n % 9000))}`;
  const write = async (said: string) => {
    const before = await inboundCount(owner.workspaceId);
    await simControl(t.base, '/inbound', { from, text: said, name, phone_number_id: number.phoneNumberId });
    await until(async () => (await inboundCount(owner.workspaceId)) > before);
  };
  await write(text);
  const { rows } = await t.ctx.db.query<{ id: string }>(
    'SELECT id FROM contacts WHERE workspace_id = $1 AND phone = $2',
    [owner.workspaceId, from],
  );
  return { ...owner, from, write, contactId: rows[0]!.id };
}

async function inboundCount(workspaceId: string) {
  const { rows } = await t.ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND direction = 'inbound'`,
    [workspaceId],
  );
  return rows[0]!.n;
}

const inbox = async (client: AppClient, query = '') => {
  const res = await client.call('GET', `/inbox${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    conversations: {
      contact_id: string;
      state: string;
      unread: number;
      last_text: string;
      assignee_id: string | null;
    }[];
    unread_conversations: number;
  };
};

describe('the inbox', () => {
  it('lists one row per contact with its last message and unread count, read when opened', async () => {
    const c = await customerWrote('First');
    await c.write('Second');
    const list = await inbox(c.client);
    expect(list.conversations).toHaveLength(1);
    expect(list.conversations[0]).toMatchObject({
      contact_id: c.contactId,
      last_text: 'Second',
      unread: 2,
      state: 'open',
    });
    expect(list.unread_conversations).toBe(1);
    expect((await c.client.call('GET', '/inbox/unread')).json().unread_conversations).toBe(1);
    expect((await c.client.call('POST', `/conversations/${c.contactId}/read`)).statusCode).toBe(200);
    expect((await inbox(c.client)).conversations[0]!.unread).toBe(0);
    expect((await inbox(c.client)).unread_conversations).toBe(0);
    await c.write('Third');
    expect((await inbox(c.client)).conversations[0]).toMatchObject({ unread: 1, last_text: 'Third' });
  });

  it('shows a question sent with buttons by its body in the list, a tapped button by its title', async () => {
    const c = await customerWrote();
    const principal = { workspaceId: c.workspaceId, defaultCountryCode: null };
    await sendMessage(t.ctx, principal, {
      to: `+${c.from}`,
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'What can we do for you?' },
        action: { buttons: [{ type: 'reply', reply: { id: 'track', title: 'Track order' } }] },
      },
    });
    expect((await inbox(c.client)).conversations[0]).toMatchObject({ last_text: 'What can we do for you?' });
  });

  it('filters mine, unassigned, open and all; a customer message reopens a resolved conversation', async () => {
    const c = await customerWrote();
    const ids = async (filter: string) =>
      (await inbox(c.client, `?filter=${filter}`)).conversations.map((r) => r.contact_id);
    expect(await ids('unassigned')).toEqual([c.contactId]);
    expect(await ids('mine')).toEqual([]);
    const assign = await c.client.call('PATCH', `/conversations/${c.contactId}`, {
      assignee_id: c.client.userId,
    });
    expect(assign.statusCode, assign.body).toBe(200);
    expect(assign.json().conversation).toMatchObject({
      assignee_id: c.client.userId,
      assignee_name: 'Owner',
    });
    expect(await ids('mine')).toEqual([c.contactId]);
    expect(await ids('unassigned')).toEqual([]);
    await c.client.call('PATCH', `/conversations/${c.contactId}`, { state: 'resolved' });
    expect(await ids('open')).toEqual([]);
    expect(await ids('mine')).toEqual([]);
    expect(await ids('all')).toEqual([c.contactId]);
    await c.write('One more thing');
    expect((await inbox(c.client, '?filter=open')).conversations[0]).toMatchObject({
      contact_id: c.contactId,
      state: 'open',
    });
    // Unassigning keeps the state.
    await c.client.call('PATCH', `/conversations/${c.contactId}`, { assignee_id: null });
    expect((await inbox(c.client, '?filter=unassigned')).conversations[0]).toMatchObject({
      state: 'open',
      assignee_id: null,
    });
  });

  it('assigns only to a member of the workspace', async () => {
    const c = await customerWrote();
    const stranger = await workspaceWithOwner(t);
    for (const assignee_id of [stranger.client.userId, 'usr_nobody', "x' OR '1'='1"]) {
      const res = await c.client.call('PATCH', `/conversations/${c.contactId}`, { assignee_id });
      expectRestError(res, 422, 'validation_error');
      expect(res.json().error.details).toEqual([
        { field: 'assignee_id', message: 'Assign the conversation to a member of this workspace.' },
      ]);
    }
    expect((await inbox(c.client)).conversations[0]!.assignee_id).toBeNull();
    expectRestError(
      await c.client.call('PATCH', `/conversations/${c.contactId}`, {}),
      422,
      'validation_error',
    );
    expectRestError(
      await c.client.call('PATCH', `/conversations/${c.contactId}`, { state: 'closed' }),
      422,
      'validation_error',
    );
    expectRestError(
      await c.client.call('PATCH', '/conversations/ct_none', { state: 'pending' }),
      404,
      'not_found',
    );
  });

  it('searches by name, phone and message text, taking hostile input literally', async () => {
    const c = await customerWrote('Where is order 42_%?', 'Ravi Kumar');
    const found = async (q: string) =>
      (await inbox(c.client, `?filter=all&q=${encodeURIComponent(q)}`)).conversations.map(
        (r) => r.contact_id,
      );
    expect(await found('ravi')).toEqual([c.contactId]);
    expect(await found(c.from.slice(-6))).toEqual([c.contactId]);
    expect(await found('ORDER 42')).toEqual([c.contactId]);
    expect(await found('42_%')).toEqual([c.contactId]);
    expect(await found('42_!')).toEqual([]);
    for (const hostile of ['%', '_', '\\', "'; DROP TABLE messages; --", '%%%%', '😀', '<script>']) {
      expect(await found(hostile), hostile).toEqual([]);
    }
    expectRestError(await c.client.call('GET', `/inbox?q=${'a'.repeat(101)}`), 422, 'validation_error');
    expectRestError(await c.client.call('GET', '/inbox?q=%00'), 422, 'validation_error');
    expectRestError(await c.client.call('GET', '/inbox?filter=everything'), 422, 'validation_error');
    expectRestError(await c.client.call('GET', '/inbox?limit=1000'), 422, 'validation_error');
    expect(await inboundCount(c.workspaceId)).toBe(1);
  });
});

describe('the thread', () => {
  it('keeps internal notes with their author and never sends them', async () => {
    const c = await customerWrote();
    const sentBefore = simState(t).messages.length;
    const added = await c.client.call('POST', `/conversations/${c.contactId}/notes`, {
      text: 'VIP: call back',
    });
    expect(added.statusCode, added.body).toBe(201);
    const conv = (await c.client.call('GET', `/conversations/${c.contactId}`)).json();
    expect(conv.notes).toMatchObject([{ text: 'VIP: call back', author_name: 'Owner' }]);
    expect(conv.messages.map((m: { text: string }) => m.text)).toEqual(['Hello there']);
    expect(simState(t).messages.length).toBe(sentBefore);
    for (const text of ['', 'x'.repeat(4097)])
      expectRestError(
        await c.client.call('POST', `/conversations/${c.contactId}/notes`, { text }),
        422,
        'validation_error',
      );
    expectRestError(
      await c.client.call('POST', '/conversations/ct_none/notes', { text: 'x' }),
      404,
      'not_found',
    );
  });

  it('names a teammate who gave no name by their e-mail: notes, assignee, replies', async () => {
    const c = await customerWrote();
    const email = `nameless${++n}@example.com`;
    const userId = await createUser(t.ctx.db, email, PASSWORD);
    await addMember(t.ctx.db, c.workspaceId, userId, 'member');
    const mate = await signIn(t, email);
    const path = `/conversations/${c.contactId}`;
    expect((await mate.call('POST', `${path}/notes`, { text: 'Mine' })).statusCode).toBe(201);
    expect((await mate.call('PATCH', path, { assignee_id: userId })).statusCode).toBe(200);
    expect((await mate.call('POST', `${path}/messages`, { text: 'Hi' })).statusCode).toBe(201);
    const conv = (await mate.call('GET', path)).json();
    expect(conv.notes).toMatchObject([{ author_name: email }]);
    expect(conv.conversation.assignee_name).toBe(email);
    expect(conv.messages.at(-1)).toMatchObject({ text: 'Hi', sender_name: email });
    const listed = (await mate.call('GET', '/inbox?filter=mine')).json().conversations;
    expect(listed).toMatchObject([{ contact_id: c.contactId, assignee_name: email }]);
  });

  it('names the teammate who sent a reply; API sends say so', async () => {
    const c = await customerWrote();
    const reply = await c.client.call('POST', `/conversations/${c.contactId}/messages`, {
      text: 'On its way',
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const welcome = SIM_TEMPLATES[1]!;
    const api = await t.api('POST', '/messages', c.apiKey, {
      to: `+${c.from}`,
      template: { name: welcome.name, language: welcome.language, body: [] },
    });
    expect(api.statusCode, api.body).toBe(201);
    // A flow step's send carries its step's key.
    const principal = { workspaceId: c.workspaceId, defaultCountryCode: null };
    await sendMessage(
      t.ctx,
      principal,
      { to: `+${c.from}`, type: 'text', text: 'From a flow' },
      { sourceKey: 'run_1:s1' },
    );
    const { messages } = (await c.client.call('GET', `/conversations/${c.contactId}`)).json();
    const out = messages.filter((m: { direction: string }) => m.direction === 'outbound');
    expect(
      out.map((m: { sent_via: string; sender_name: string | null }) => [m.sent_via, m.sender_name]),
    ).toEqual([
      ['teammate', 'Owner'],
      ['api', null],
      ['flow', null],
    ]);
    expect(messages.find((m: { direction: string }) => m.direction === 'inbound').sent_via).toBeNull();
  });

  it('sends an attachment uploaded through the app', async () => {
    const c = await customerWrote();
    const form = multipart([{ name: 'file', file: jpeg(), filename: 'menu.jpg', type: 'image/jpeg' }]);
    const uploaded = await c.client.call('POST', '/media', form.payload, form.headers);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json()).toMatchObject({ kind: 'image', mime_type: 'image/jpeg' });
    const sent = await c.client.call('POST', `/conversations/${c.contactId}/messages`, {
      attachment: { kind: 'image', id: uploaded.json().id, caption: 'Our menu' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const onNetwork = simState(t).messages.at(-1)!;
    expect(onNetwork.payload).toMatchObject({
      type: 'image',
      image: { id: uploaded.json().id, caption: 'Our menu' },
    });
    expectRestError(
      await c.client.call('POST', `/conversations/${c.contactId}/messages`, {
        text: 'and',
        attachment: { kind: 'image', id: uploaded.json().id },
      }),
      422,
      'validation_error',
    );
    expectRestError(
      await c.client.call('POST', '/media', 'not a form', { 'content-type': 'text/plain' }),
      415,
      'unsupported_media_type',
    );
  });
});

describe('quick replies', () => {
  it('are saved, filled for a contact, changed and deleted', async () => {
    const c = await customerWrote('hi', 'Meera Shah');
    const created = await c.client.call('POST', '/quick-replies', {
      title: 'Greeting',
      text: 'Hi {{first_name}}, thanks for writing to us from {{ phone }}.',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    const filled = (await c.client.call('GET', `/quick-replies?contact_id=${c.contactId}`)).json();
    expect(filled.quick_replies).toMatchObject([
      { id, title: 'Greeting', filled: `Hi Meera, thanks for writing to us from +${c.from}.` },
    ]);
    expect(
      (await c.client.call('PUT', `/quick-replies/${id}`, { title: 'Hello', text: 'Hello {{name}}' }))
        .statusCode,
    ).toBe(200);
    const listed = (await c.client.call('GET', `/quick-replies?contact_id=${c.contactId}`)).json()
      .quick_replies;
    expect(listed).toMatchObject([{ title: 'Hello', filled: 'Hello Meera Shah' }]);
    expect((await c.client.call('DELETE', `/quick-replies/${id}`)).statusCode).toBe(200);
    expectRestError(await c.client.call('DELETE', `/quick-replies/${id}`), 404, 'not_found');
    expectRestError(
      await c.client.call('PUT', `/quick-replies/${id}`, { title: 'x', text: 'y' }),
      404,
      'not_found',
    );
    expectRestError(await c.client.call('GET', '/quick-replies?contact_id=ct_none'), 404, 'not_found');
  });

  it('refuse an unknown variable, a title in use, blank or long input, and more than the limit', async () => {
    const c = await customerWrote();
    const add = (body: unknown) => c.client.call('POST', '/quick-replies', body);
    const unknown = await add({ title: 'Typo', text: 'Hi {{nmae}}' });
    expectRestError(unknown, 422, 'validation_error');
    expect(unknown.json().error.details[0].field).toBe('text');
    expect((await add({ title: 'Same', text: 'a' })).statusCode).toBe(201);
    const taken = await add({ title: 'SAME', text: 'b' });
    expectRestError(taken, 422, 'validation_error');
    expect(taken.json().error.details).toEqual([
      { field: 'title', message: 'Another quick reply has this title; choose another.' },
    ]);
    for (const body of [
      { title: '   ', text: 'a' },
      { title: 'x'.repeat(61), text: 'a' },
      { title: 'a', text: 'x'.repeat(4097) },
      { title: 'a' },
    ])
      expectRestError(await add(body), 422, 'validation_error');
    await t.ctx.db.query(
      `INSERT INTO quick_replies (workspace_id, id, title, text)
       SELECT $1, 'qr_fill' || i, 'Fill ' || i, 'x' FROM generate_series(1, $2) AS i`,
      [c.workspaceId, QUICK_REPLIES_MAX - 1],
    );
    expectRestError(await add({ title: 'One too many', text: 'x' }), 422, 'validation_error');
  });
});
