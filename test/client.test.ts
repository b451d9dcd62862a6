import { createParleyClient } from '@parley/client';
import { expect, it } from 'vitest';
import { workspaceWithOwner } from './support/app-session.js';
import { connectSimulator, simControl, simulatorAppForTests } from './support/messaging.js';
import { until } from './support/until.js';

// The typed client (packages/client) over HTTP against the live server: what a customer's code does.
const t = simulatorAppForTests();

async function workspace() {
  const owner = await workspaceWithOwner(t);
  const number = await connectSimulator(t, t.base, owner.workspaceId);
  const { rows } = await t.ctx.db.query<{ user_id: string }>(
    'SELECT user_id FROM memberships WHERE workspace_id = $1',
    [owner.workspaceId],
  );
  const client = createParleyClient({ baseUrl: `${t.base}/api/v1/`, apiKey: owner.apiKey });
  return { client, number, memberId: rows[0]!.user_id };
}

it('sends a template and reads the message back', async () => {
  const { client } = await workspace();
  const { data, error, response } = await client.POST('/messages', {
    body: { to: '+14155550101', template: { name: 'hello', language: 'en_US' }, callback_data: 'order-7' },
  });
  expect(error).toBeUndefined();
  expect(response.status).toBe(201);
  expect(data).toMatchObject({ result: true, id: expect.stringMatching(/^msg_/), wamid: expect.any(String) });

  const read = await client.GET('/messages/{id}', { params: { path: { id: data!.id } } });
  expect(read.data).toMatchObject({
    id: data!.id,
    direction: 'outbound',
    to: '14155550101',
    type: 'template',
    callback_data: 'order-7',
  });
});

it('answers errors as the typed envelope', async () => {
  const { client } = await workspace();
  const missing = await client.GET('/messages/{id}', { params: { path: { id: 'msg_nope' } } });
  expect(missing.response.status).toBe(404);
  expect(missing.data).toBeUndefined();
  expect(missing.error?.error).toMatchObject({ code: 'not_found', request_id: expect.any(String) });

  const refused = await client.POST('/messages', {
    body: { to: '', template: { name: 'hello', language: 'en_US' } },
  });
  expect(refused.response.status).toBe(422);
  expect(refused.error?.error.details).toEqual([{ field: 'to', message: expect.any(String) }]);

  const wrongKey = createParleyClient({ baseUrl: `${t.base}/api/v1`, apiKey: 'pk_live_wrong' });
  const unauthorized = await wrongKey.GET('/conversations', { params: { query: { limit: 10 } } });
  expect(unauthorized.response.status).toBe(401);
  expect(unauthorized.error?.error.code).toBe('unauthorized');
});

it('works a conversation: list, read, its messages, assign, note, resolve and reopen', async () => {
  const { client, number, memberId } = await workspace();
  await simControl(t.base, '/inbound', {
    from: '14155550102',
    text: 'Where is my order?',
    name: 'Meera',
    phone_number_id: number.phoneNumberId,
  });
  const listed = await until(async () => {
    const { data } = await client.GET('/conversations', { params: { query: { limit: 10 } } });
    return data?.conversations.length ? data : undefined;
  });
  expect(listed.next_cursor).toBeNull();
  const [conversation] = listed.conversations;
  expect(conversation).toMatchObject({ contact: { phone: '14155550102', name: 'Meera' }, status: 'open' });
  const id = conversation!.id;

  const one = await client.GET('/conversations/{id}', { params: { path: { id } } });
  expect(one.data?.conversation).toMatchObject({ id, unread_count: 1 });

  const messages = await client.GET('/conversations/{id}/messages', {
    params: { path: { id }, query: { limit: 10 } },
  });
  expect(messages.data?.messages.map((m) => [m.direction, m.text])).toEqual([
    ['inbound', 'Where is my order?'],
  ]);

  const assigned = await client.POST('/conversations/{id}/assign', {
    params: { path: { id } },
    body: { member_id: memberId },
  });
  expect(assigned.data?.conversation.assignee).toMatchObject({ id: memberId });

  const note = await client.POST('/conversations/{id}/notes', {
    params: { path: { id } },
    body: { text: 'Courier booked for tomorrow.' },
  });
  expect(note.response.status).toBe(201);
  expect(note.data).toMatchObject({ result: true, id: expect.any(String) });

  const resolved = await client.POST('/conversations/{id}/resolve', { params: { path: { id } } });
  expect(resolved.data?.conversation.status).toBe('resolved');
  const reopened = await client.POST('/conversations/{id}/reopen', { params: { path: { id } } });
  expect(reopened.data?.conversation).toMatchObject({ status: 'open', assignee: { id: memberId } });

  const answer = await client.POST('/messages', {
    body: { to: '+14155550102', type: 'text', text: 'It ships tomorrow.' },
  });
  expect(answer.response.status).toBe(201);
  const after = await client.GET('/conversations/{id}/messages', {
    params: { path: { id }, query: { limit: 1 } },
  });
  expect(after.data?.messages.map((m) => m.text)).toEqual(['It ships tomorrow.']);
  expect(after.data?.next_cursor).toEqual(expect.any(String));
  const older = await client.GET('/conversations/{id}/messages', {
    params: { path: { id }, query: { limit: 1, cursor: after.data!.next_cursor! } },
  });
  expect(older.data?.messages.map((m) => m.text)).toEqual(['Where is my order?']);
});
