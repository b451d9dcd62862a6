import { describe, expect, it } from 'vitest';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import {
  connectSimulator,
  simControl,
  simState,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { createAutomation } from '../automation/save-automation.js';

// REST v1's bot handover and pending state: the app's "Stop the bot", "Hand back to the bot" and Pending.

const t = simulatorAppForTests({ queue: true });

let phones = 14155553100;

async function workspace() {
  const owner = await workspaceWithOwner(t);
  const number = await connectSimulator(t, t.base, owner.workspaceId);
  const api = (method: string, path: string, body?: unknown) => t.api(method, path, owner.apiKey, body);
  const say = async (from: string, text: string) => {
    const res = await simControl(t.base, '/inbound', { from, text, phone_number_id: number.phoneNumberId });
    expect(res.body.delivered_status).toBe(200);
  };
  const contactOf = async (phone: string) => {
    await until(async () => (await idOf(owner.workspaceId, phone)) !== undefined);
    return (await idOf(owner.workspaceId, phone))!;
  };
  const runs = async (phone: string) =>
    (
      await t.ctx.db.query<{ status: string; holds_conversation: boolean; error: string | null }>(
        `SELECT r.status, r.holds_conversation, r.error FROM runs r
         JOIN contacts c ON c.workspace_id = r.workspace_id AND c.id = r.contact_id
         WHERE r.workspace_id = $1 AND c.phone = $2`,
        [owner.workspaceId, phone],
      )
    ).rows;
  return { ...owner, api, say, contactOf, runs };
}

async function idOf(workspaceId: string, phone: string) {
  const { rows } = await t.ctx.db.query<{ id: string }>(
    'SELECT id FROM contacts WHERE workspace_id = $1 AND phone = $2',
    [workspaceId, phone],
  );
  return rows[0]?.id;
}

const repliesTo = (phone: string) =>
  simState(t)
    .messages.filter((m) => m.to === phone && m.type === 'text')
    .map((m) => (m.payload as { text: { body: string } }).text.body);

describe('POST /conversations/{id}/bot/stop', () => {
  it("ends the bot's run and answers the conversation without a bot; again, nothing changes", async () => {
    const ws = await workspace();
    const bot = {
      name: 'Concierge',
      trigger: { type: 'message_received' },
      steps: [
        { id: 'answer', type: 'send_text', text: 'Concierge here' },
        { id: 'hold', type: 'wait', duration: '1h' },
      ],
    };
    await createAutomation(t.ctx, ws.workspaceId, bot, { publish: true });
    const phone = String(phones++);
    await ws.say(phone, 'hello');
    const id = await ws.contactOf(phone);
    await until(async () => (await ws.runs(phone))[0]?.status === 'waiting', 10_000);
    expect((await ws.api('GET', `/conversations/${id}`)).json().conversation.bot).toMatchObject({
      name: 'Concierge',
    });

    const other = await workspace();
    expectRestError(await other.api('POST', `/conversations/${id}/bot/stop`), 404, 'not_found');
    expect((await ws.runs(phone))[0]?.status).toBe('waiting');

    const stopped = await ws.api('POST', `/conversations/${id}/bot/stop`);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json().conversation).toMatchObject({ id, bot: null });
    expect(await ws.runs(phone)).toEqual([
      { status: 'stopped', holds_conversation: true, error: 'an API key stopped it' },
    ]);
    const again = await ws.api('POST', `/conversations/${id}/bot/stop`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().conversation.bot).toBeNull();
  });

  it('answers 404 for a contact that has no conversation', async () => {
    const ws = await workspace();
    const created = await ws.api('POST', '/contacts', { phone: `+${phones++}` });
    const id = created.json().id;
    expectRestError(await ws.api('POST', `/conversations/${id}/bot/stop`), 404, 'not_found');
  });
});

describe('POST /conversations/{id}/bot/resume', () => {
  it('hands the conversation back to the bot that waits for it; 409 when none waits', async () => {
    const ws = await workspace();
    const bot = {
      name: 'Receptionist',
      trigger: { type: 'message_received' },
      steps: [
        { id: 'hello', type: 'send_text', text: 'Let me find someone' },
        // biome-ignore lint/suspicious/noThenProperty: the assign step's field
        { id: 'handoff', type: 'assign', to: null, then: 'wait' },
        { id: 'back', type: 'send_text', text: 'The bot again' },
      ],
    };
    await createAutomation(t.ctx, ws.workspaceId, bot, { publish: true });
    const phone = String(phones++);
    await ws.say(phone, 'hi');
    const id = await ws.contactOf(phone);
    await until(async () => (await ws.runs(phone))[0]?.holds_conversation === false, 10_000);

    expect((await ws.api('GET', `/conversations/${id}`)).json().conversation).toMatchObject({
      bot: null,
      bot_waiting: { name: 'Receptionist' },
    });
    const other = await workspace();
    expectRestError(await other.api('POST', `/conversations/${id}/bot/resume`), 404, 'not_found');
    expect((await ws.runs(phone))[0]?.status).toBe('waiting');

    const back = await ws.api('POST', `/conversations/${id}/bot/resume`);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().conversation).toMatchObject({ id, bot_waiting: null });
    await until(async () => repliesTo(phone).length >= 2, 15_000);
    expect(repliesTo(phone)).toEqual(['Let me find someone', 'The bot again']);
    await until(async () => (await ws.runs(phone))[0]?.status === 'completed', 10_000);

    const again = await ws.api('POST', `/conversations/${id}/bot/resume`);
    expectRestError(again, 409, 'conflict');
    expect(again.json().error.message).toBe('No bot waits to take this conversation back');
  });
});

describe('POST /conversations/{id}/pending', () => {
  it('marks the conversation pending (still open in the list); again, it stays so', async () => {
    const ws = await workspace();
    const phone = String(phones++);
    await ws.say(phone, 'a question');
    const id = await ws.contactOf(phone);
    await until(async () => (await ws.api('GET', `/conversations/${id}`)).statusCode === 200);

    const other = await workspace();
    expectRestError(await other.api('POST', `/conversations/${id}/pending`), 404, 'not_found');
    expect((await ws.api('GET', `/conversations/${id}`)).json().conversation.status).toBe('open');

    const pending = await ws.api('POST', `/conversations/${id}/pending`);
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json().conversation).toMatchObject({ id, status: 'pending' });
    const open = (await ws.api('GET', '/conversations?status=open')).json().conversations;
    expect(open.map((c: { id: string }) => c.id)).toEqual([id]);
    expect((await ws.api('POST', `/conversations/${id}/pending`)).json().conversation.status).toBe('pending');
    expect((await ws.api('POST', `/conversations/${id}/reopen`)).json().conversation.status).toBe('open');
  });
});
