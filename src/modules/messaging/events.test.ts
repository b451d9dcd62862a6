import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppClient, workspaceWithOwner } from '../../../test/support/app-session.js';
import { connectSimulator, simControl, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { wireSubscriptions } from '../subscriptions.js';
import { type ConversationChanged, type MessageReceived, subscribe, type TeammateReplied } from './events.js';

// What messaging publishes, heard by a subscriber of this test's own in place of the modules' (put
// back after): what each event carries, and that its subscribers run inside the transaction that
// stored what happened, their after-commit work once it committed.

const t = simulatorAppForTests();

interface Heard<E> {
  event: E;
  /** Read in the publishing transaction. */
  inside: Record<string, unknown>;
  /** Read on the database once the transaction committed. */
  after?: boolean;
}
const received: Heard<MessageReceived>[] = [];
const replied: Heard<TeammateReplied>[] = [];
const changed: Heard<ConversationChanged>[] = [];

let workspaceId: string;
let client: AppClient;
let apiKey: string;
let phoneNumberId: string;
const from = '14155550199';

beforeAll(async () => {
  subscribe({
    on: {
      'message.received': [
        async (ctx, tx, event) => {
          const { rows } = await tx.query<{ opted_out: boolean; stored: boolean }>(
            `SELECT c.opted_out, EXISTS (SELECT 1 FROM messages m WHERE m.workspace_id = c.workspace_id
               AND m.id = $3) AS stored FROM contacts c WHERE c.workspace_id = $1 AND c.id = $2`,
            [event.workspaceId, event.contactId, event.message.message_id],
          );
          const heard: Heard<MessageReceived> = { event, inside: rows[0]! };
          received.push(heard);
          return async () => {
            const { rows: seen } = await ctx.db.query(
              'SELECT 1 FROM messages WHERE workspace_id = $1 AND id = $2',
              [event.workspaceId, event.message.message_id],
            );
            heard.after = seen.length === 1;
          };
        },
      ],
      'teammate.replied': [
        async (_ctx, tx, event) => {
          const { rows } = await tx.query<{ sent_by: string; contact_id: string }>(
            'SELECT sent_by, contact_id FROM messages WHERE workspace_id = $1 AND id = $2',
            [event.workspaceId, event.messageId],
          );
          replied.push({ event, inside: rows[0] ?? {} });
        },
      ],
      'conversation.changed': [
        async (_ctx, tx, event) => {
          const { rows } = await tx.query<{ state: string }>(
            'SELECT state FROM conversations WHERE workspace_id = $1 AND contact_id = $2',
            [event.workspaceId, event.contactId],
          );
          changed.push({ event, inside: rows[0]! });
        },
      ],
      'number.paused': [],
      'number.resumed': [],
      'number.limit_changed': [],
    },
    statusChanged: [],
  });
  const owner = await workspaceWithOwner(t);
  workspaceId = owner.workspaceId;
  client = owner.client;
  apiKey = owner.apiKey;
  phoneNumberId = (await connectSimulator(t, t.base, workspaceId)).phoneNumberId;
});

afterAll(() => wireSubscriptions());

async function write(text: string) {
  const before = received.length;
  await simControl(t.base, '/inbound', { from, text, name: 'Ana', phone_number_id: phoneNumberId });
  await until(async () => received.length > before && received.at(-1)!.after !== undefined);
  return received.at(-1)!;
}

describe('message.received', () => {
  it('carries the consent change the message made, applied before it is published', async () => {
    const stop = await write('STOP');
    expect(stop.event).toMatchObject({
      workspaceId,
      consent: 'opted_out',
      message: { type: 'text', text: 'STOP', button_payload: null, reply_to: null },
    });
    expect(stop.event.at).toBeInstanceOf(Date);
    expect(stop.inside).toEqual({ opted_out: true, stored: true });
    expect(stop.after).toBe(true);

    const chat = await write('Is the shop open?');
    expect(chat.event).toMatchObject({ contactId: stop.event.contactId, consent: null });
    expect(chat.inside).toEqual({ opted_out: true, stored: true });

    const start = await write('START');
    expect(start.event.consent).toBe('opted_in');
    expect(start.inside).toEqual({ opted_out: false, stored: true });
  });
});

describe('teammate.replied', () => {
  it("is published with a teammate's reply from the app, not with an API send", async () => {
    const contactId = received[0]!.event.contactId;
    const { rows } = await t.ctx.db.query<{ user_id: string }>(
      'SELECT user_id FROM memberships WHERE workspace_id = $1',
      [workspaceId],
    );
    const res = await client.call('POST', `/conversations/${contactId}/messages`, { text: 'Yes, till 6' });
    expect(res.statusCode, res.body).toBe(201);
    const api = await t.api('POST', '/messages', apiKey, { to: `+${from}`, type: 'text', text: 'Or 7' });
    expect(api.statusCode, api.body).toBe(201);
    const userId = rows[0]!.user_id;
    expect(replied).toEqual([
      {
        event: { workspaceId, contactId, userId, messageId: res.json().id },
        inside: { sent_by: userId, contact_id: contactId },
      },
    ]);
  });
});

describe('conversation.changed', () => {
  it('is published when a teammate moves or assigns a conversation, with how it stood before', async () => {
    const contactId = received[0]!.event.contactId;
    const { rows } = await t.ctx.db.query<{ user_id: string }>(
      'SELECT user_id FROM memberships WHERE workspace_id = $1',
      [workspaceId],
    );
    const userId = rows[0]!.user_id;
    const patch = async (body: unknown) => {
      const res = await client.call('PATCH', `/conversations/${contactId}`, body);
      expect(res.statusCode, res.body).toBe(200);
    };
    await patch({ assignee_id: userId });
    await patch({ assignee_id: userId });
    await patch({ state: 'resolved', assignee_id: null });
    const base = { workspaceId, contactId, userId, via: 'member' };
    expect(changed).toEqual([
      {
        event: { ...base, state: 'open', assigneeId: userId, was: { state: 'open', assigneeId: null } },
        inside: { state: 'open' },
      },
      {
        event: { ...base, state: 'resolved', assigneeId: null, was: { state: 'open', assigneeId: userId } },
        inside: { state: 'resolved' },
      },
    ]);
  });
});
