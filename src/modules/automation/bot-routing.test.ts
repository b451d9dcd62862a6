import { describe, expect, it } from 'vitest';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import {
  connectSimulator,
  simControl,
  simState,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { changeConversation } from '../inbox/change-conversation.js';
import { createAutomation } from './save-automation.js';

// Bots started by what a customer writes: which one a message starts, and when none does.

const t = simulatorAppForTests({ queue: true });
type Ws = Awaited<ReturnType<typeof t.connectedWorkspace>>;

let phones = 14155550700;
const nextPhone = () => String(phones++);

/** A published bot that answers "<name> here"; `hold` keeps it holding the conversation an hour after. */
const replyBot = (ws: Ws, name: string, trigger: Record<string, unknown>, hold = false) =>
  createAutomation(
    t.ctx,
    ws.id,
    {
      name,
      trigger: { type: 'message_received', ...trigger },
      steps: [
        { id: 'answer', type: 'send_text', text: `${name} here` },
        ...(hold ? [{ id: 'hold', type: 'wait', duration: '1h' }] : []),
      ],
    },
    { publish: true },
  );
const holdingBot = (ws: Ws, name: string, trigger: Record<string, unknown>) =>
  replyBot(ws, name, trigger, true);

async function say(ws: Ws, from: string, body: Record<string, unknown>) {
  const res = await simControl(t.base, '/inbound', {
    from,
    phone_number_id: ws.number.phoneNumberId,
    ...body,
  });
  expect(res.body.delivered_status).toBe(200);
}
const text = (s: string) => ({ text: s });
const tap = (payload: string, title: string) => ({
  message: { type: 'button', button: { payload, text: title } },
});

interface RunRow {
  name: string;
  status: string;
  holds_conversation: boolean;
  error: string | null;
}
async function runsOf(ws: Ws, phone: string): Promise<RunRow[]> {
  const { rows } = await t.ctx.db.query<RunRow>(
    `SELECT a.name, r.status, r.holds_conversation, r.error FROM runs r
     JOIN automations a ON a.workspace_id = r.workspace_id AND a.id = r.automation_id
     JOIN contacts c ON c.workspace_id = r.workspace_id AND c.id = r.contact_id
     WHERE r.workspace_id = $1 AND c.phone = $2 ORDER BY r.started_at, r.id`,
    [ws.id, phone],
  );
  return rows;
}
const repliesTo = (phone: string) =>
  simState(t)
    .messages.filter((m) => m.to === phone && m.type === 'text')
    .map((m) => (m.payload as { text: { body: string } }).text.body);

/** Waits until the bot's replies reach the network, then checks they are exactly these. */
async function expectReplies(phone: string, replies: string[]) {
  await until(async () => repliesTo(phone).length >= replies.length, 15_000);
  expect(repliesTo(phone)).toEqual(replies);
}

async function member(ws: Ws): Promise<string> {
  const id = `usr_${ws.id}`;
  await t.ctx.db.query("INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')", [
    id,
    `${id}@example.com`,
  ]);
  await t.ctx.db.query("INSERT INTO memberships (workspace_id, user_id, role) VALUES ($1, $2, 'member')", [
    ws.id,
    id,
  ]);
  return id;
}

async function contactId(ws: Ws, phone: string) {
  const { rows } = await t.ctx.db.query<{ id: string }>(
    'SELECT id FROM contacts WHERE workspace_id = $1 AND phone = $2',
    [ws.id, phone],
  );
  return rows[0]!.id;
}

describe('bots started by what customers write', () => {
  it('a payload wins over a keyword, a keyword over any message; among equals the oldest', async () => {
    const ws = await t.connectedWorkspace();
    await replyBot(ws, 'Any', {});
    await replyBot(ws, 'Any too', {});
    await replyBot(ws, 'Keyword', { keywords: ['menu', 'start over'] });
    await replyBot(ws, 'Payload', { payloads: ['MENU_OPEN'] });
    const [a, b, c, d] = [nextPhone(), nextPhone(), nextPhone(), nextPhone()];
    await say(ws, a, tap('MENU_OPEN', 'Menu'));
    await say(ws, b, text(' Menu! '));
    await say(ws, c, text('hello, is anyone there?'));
    await say(ws, d, text('START OVER.'));
    await expectReplies(a, ['Payload here']);
    await expectReplies(b, ['Keyword here']);
    await expectReplies(c, ['Any here']);
    await expectReplies(d, ['Keyword here']);
    await until(async () => (await runsOf(ws, c)).every((r) => r.status === 'completed'), 10_000);
    expect(await runsOf(ws, c)).toEqual([
      { name: 'Any', status: 'completed', holds_conversation: true, error: null },
    ]);
  });

  it('one bot at a time: a conversation held by a bot starts no other', async () => {
    const ws = await t.connectedWorkspace();
    await holdingBot(ws, 'Greeter', {});
    await replyBot(ws, 'Keyword', { keywords: ['menu'] });
    const phone = nextPhone();
    await say(ws, phone, text('hi'));
    await expectReplies(phone, ['Greeter here']);
    await until(async () => (await runsOf(ws, phone))[0]?.status === 'waiting', 10_000);
    await say(ws, phone, text('menu'));
    await say(ws, phone, text('anyone?'));
    // Runs start in the transaction that stores the message, before the webhook is answered.
    expect((await runsOf(ws, phone)).map((r) => r.name)).toEqual(['Greeter']);
    expect(repliesTo(phone)).toEqual(['Greeter here']);
  });

  it('opt-out keywords go before every bot, and STOP ends the bot talking to the contact', async () => {
    const ws = await t.connectedWorkspace();
    await holdingBot(ws, 'Greeter', {});
    await replyBot(ws, 'Stop bot', { keywords: ['stop', 'start'] });
    const [quiet, talking] = [nextPhone(), nextPhone()];
    await say(ws, quiet, text('STOP'));
    // Already opted out: still an opt-out keyword, still no bot's.
    await say(ws, quiet, text('stop!'));
    await say(ws, quiet, text('Start'));
    await say(ws, talking, text('hello'));
    await until(async () => (await runsOf(ws, talking))[0]?.status === 'waiting', 10_000);
    await say(ws, talking, text('stop'));
    await until(async () => (await runsOf(ws, talking))[0]?.status === 'stopped', 10_000);
    expect(await runsOf(ws, quiet)).toEqual([]);
    expect(await runsOf(ws, talking)).toEqual([
      { name: 'Greeter', status: 'stopped', holds_conversation: true, error: 'the contact opted out' },
    ]);
    expect(repliesTo(quiet)).toEqual([]);
  });

  it('a customer talking to a teammate starts only the bots that say while_assigned', async () => {
    const ws = await t.connectedWorkspace();
    await replyBot(ws, 'Menu', { keywords: ['menu'] });
    const [assigned, resolved, free] = [nextPhone(), nextPhone(), nextPhone()];
    const teammate = await member(ws);
    const by = { workspaceId: ws.id, userId: teammate };
    for (const phone of [assigned, resolved]) {
      await say(ws, phone, text('I need a person'));
      await changeConversation(t.ctx, by, await contactId(ws, phone), { assignee_id: teammate });
    }
    await changeConversation(t.ctx, by, await contactId(ws, resolved), { state: 'resolved' });
    await say(ws, assigned, text('menu'));
    await say(ws, resolved, text('menu'));
    await say(ws, free, text('menu'));
    await expectReplies(free, ['Menu here']);
    await expectReplies(resolved, ['Menu here']);
    expect(await runsOf(ws, assigned)).toEqual([]);

    await replyBot(ws, 'Menu for all', { keywords: ['menu'], while_assigned: true });
    await say(ws, assigned, text('MENU'));
    await expectReplies(assigned, ['Menu for all here']);
  });

  it('first_message and after_silence start only on a first message, or after that long without one', async () => {
    const ws = await t.connectedWorkspace();
    await replyBot(ws, 'Welcome', { first_message: true });
    await replyBot(ws, 'Welcome back', { after_silence: '24h' });
    const phone = nextPhone();
    await say(ws, phone, text('hi'));
    await expectReplies(phone, ['Welcome here']);
    await until(async () => (await runsOf(ws, phone))[0]?.status === 'completed', 10_000);
    await say(ws, phone, text('hi again'));
    expect((await runsOf(ws, phone)).map((r) => r.name)).toEqual(['Welcome']);
    // A day and a minute later (the stored message moved back in time).
    await t.ctx.db.query(
      `UPDATE messages SET created_at = created_at - interval '1 day 1 minute'
       WHERE workspace_id = $1 AND direction = 'inbound'`,
      [ws.id],
    );
    await say(ws, phone, text('hello?'));
    await expectReplies(phone, ['Welcome here', 'Welcome back here']);
  });

  it('a tap is also a keyword when no payload trigger claims it; unpublished bots start nothing', async () => {
    const ws = await t.connectedWorkspace();
    const draft = {
      name: 'Draft',
      trigger: { type: 'message_received', payloads: ['HELP'] },
      steps: [{ id: 'answer', type: 'send_text', text: 'Draft here' }],
    };
    await createAutomation(t.ctx, ws.id, draft);
    await replyBot(ws, 'Help', { keywords: ['help'] });
    const phone = nextPhone();
    await say(ws, phone, tap('HELP', 'Help'));
    await expectReplies(phone, ['Help here']);
  });
});

describe("a teammate's reply", () => {
  it('stops the bot holding the conversation, unless the automation says continue', async () => {
    const owner = await workspaceWithOwner(t);
    const ws = { id: owner.workspaceId, number: await connectSimulator(t, t.base, owner.workspaceId) } as Ws;
    const steps = (name: string) => [
      { id: 'answer', type: 'send_text', text: `${name} here` },
      { id: 'hold', type: 'wait', duration: '2s' },
      { id: 'later', type: 'send_text', text: `${name} again` },
    ];
    await createAutomation(
      t.ctx,
      ws.id,
      { name: 'Stops', trigger: { type: 'message_received', keywords: ['a'] }, steps: steps('Stops') },
      { publish: true },
    );
    await createAutomation(
      t.ctx,
      ws.id,
      {
        name: 'Goes on',
        trigger: { type: 'message_received', keywords: ['b'] },
        steps: steps('Goes on'),
        on_teammate_reply: 'continue',
      },
      { publish: true },
    );
    const [a, b] = [nextPhone(), nextPhone()];
    await say(ws, a, text('a'));
    await say(ws, b, text('b'));
    for (const phone of [a, b]) {
      await until(async () => (await runsOf(ws, phone))[0]?.status === 'waiting', 10_000);
      const res = await owner.client.call('POST', `/conversations/${await contactId(ws, phone)}/messages`, {
        text: 'A person here',
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    await expectReplies(b, ['Goes on here', 'A person here', 'Goes on again']);
    expect(await runsOf(ws, a)).toEqual([
      { name: 'Stops', status: 'stopped', holds_conversation: true, error: 'a teammate replied' },
    ]);
    expect(repliesTo(a)).toEqual(['Stops here', 'A person here']);
  });
});

describe('the inbox', () => {
  it('shows which bot answers a conversation and marks its messages; a teammate can stop it', async () => {
    const owner = await workspaceWithOwner(t);
    const ws = { id: owner.workspaceId, number: await connectSimulator(t, t.base, owner.workspaceId) } as Ws;
    await holdingBot(ws, 'Concierge', {});
    const phone = nextPhone();
    await say(ws, phone, text('hello'));
    await expectReplies(phone, ['Concierge here']);
    const id = await contactId(ws, phone);
    const inbox = (await owner.client.call('GET', '/inbox')).json();
    expect(inbox.conversations.map((c: { bot_name: string | null }) => c.bot_name)).toEqual(['Concierge']);
    const conv = (await owner.client.call('GET', `/conversations/${id}`)).json();
    expect(conv.conversation.bot).toMatchObject({ name: 'Concierge', waiting_for_answer: false });
    const sent = conv.messages.filter((m: { direction: string }) => m.direction === 'outbound');
    expect(sent.map((m: { sent_via: string; sender_name: string }) => [m.sent_via, m.sender_name])).toEqual([
      ['bot', 'Concierge'],
    ]);

    const other = await workspaceWithOwner(t);
    expect((await other.client.call('POST', `/conversations/${id}/bot/stop`)).statusCode).toBe(404);
    expect((await runsOf(ws, phone))[0]?.status).toBe('waiting');

    const stopped = await owner.client.call('POST', `/conversations/${id}/bot/stop`);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json().conversation.bot).toBeNull();
    expect(await runsOf(ws, phone)).toEqual([
      { name: 'Concierge', status: 'stopped', holds_conversation: true, error: 'a teammate stopped it' },
    ]);
    const after = (await owner.client.call('GET', '/inbox')).json();
    expect(after.conversations[0].bot_name).toBeNull();
  });

  it('a bot that handed the conversation over takes it back when a teammate hands it back', async () => {
    const owner = await workspaceWithOwner(t);
    const ws = { id: owner.workspaceId, number: await connectSimulator(t, t.base, owner.workspaceId) } as Ws;
    await createAutomation(
      t.ctx,
      ws.id,
      {
        name: 'Receptionist',
        trigger: { type: 'message_received' },
        steps: [
          { id: 'hello', type: 'send_text', text: 'Let me find someone' },
          // biome-ignore lint/suspicious/noThenProperty: the assign step's field
          { id: 'handoff', type: 'assign', to: null, then: 'wait' },
          { id: 'back', type: 'send_text', text: 'The bot again' },
        ],
      },
      { publish: true },
    );
    const phone = nextPhone();
    await say(ws, phone, text('hi'));
    await until(async () => (await runsOf(ws, phone))[0]?.holds_conversation === false, 10_000);
    const id = await contactId(ws, phone);
    const state = async () => (await owner.client.call('GET', `/conversations/${id}`)).json().conversation;
    expect(await state()).toMatchObject({ bot: null, bot_waiting: { name: 'Receptionist' } });
    const reply = await owner.client.call('POST', `/conversations/${id}/messages`, { text: 'Hi, Asha here' });
    expect(reply.statusCode, reply.body).toBe(201);
    expect((await runsOf(ws, phone))[0]?.status).toBe('waiting');

    const other = await workspaceWithOwner(t);
    expect((await other.client.call('POST', `/conversations/${id}/bot/resume`)).statusCode).toBe(404);
    const back = await owner.client.call('POST', `/conversations/${id}/bot/resume`);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().conversation.bot_waiting).toBeNull();
    await expectReplies(phone, ['Let me find someone', 'Hi, Asha here', 'The bot again']);
    await until(async () => (await runsOf(ws, phone))[0]?.status === 'completed', 10_000);
    const again = await owner.client.call('POST', `/conversations/${id}/bot/resume`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('No bot waits to take this conversation back');
  });
});
