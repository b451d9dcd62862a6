import { describe, expect, it } from 'vitest';
import { type AppClient, PASSWORD, signIn } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { simControl, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { queueIdle } from '../../../test/support/queue-idle.js';
import { until } from '../../../test/support/until.js';
import { addMember, createUser } from '../accounts/users.js';
import { sendReadMark } from './mark-read.js';

const t = simulatorAppForTests({ queue: true });

let n = 0;
async function member(workspaceId: string, role: 'owner' | 'member') {
  const email = `${role}${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await addMember(t.ctx.db, workspaceId, await createUser(t.ctx.db, email, PASSWORD), role);
  return signIn(t, email);
}

/** A connected workspace with an owner, and a customer who writes in `texts`, one message each. */
async function customerWrites(texts: string[]) {
  const ws = await t.connectedWorkspace();
  const owner = await member(ws.id, 'owner');
  const from = `1415555${String(1000 + Math.floor(Math.random() * 8999))}`;
  const wamids: string[] = [];
  for (const text of texts) wamids.push(await write(ws.number.phoneNumberId, from, text));
  const contactId = await until(async () => {
    const { rows } = await t.ctx.db.query<{ contact_id: string }>(
      `SELECT contact_id FROM messages WHERE workspace_id = $1 AND direction = 'inbound'
       GROUP BY contact_id HAVING count(*) = $2`,
      [ws.id, texts.length],
    );
    return rows[0]?.contact_id;
  });
  return { ws, owner, from, wamids, contactId };
}

async function write(phoneNumberId: string, from: string, text: string) {
  const sent = await simControl<{ wamid: string }>(t.base, '/inbound', {
    from,
    text,
    phone_number_id: phoneNumberId,
  });
  return sent.body.wamid;
}

/** The simulator's record of what the customer sent: read or not, and how often Parley asked. */
const onNetwork = (wamid: string) => [...simState(t).inbound.values()].find((m) => m.wamid === wamid)!;

const openConversation = async (client: AppClient, contactId: string) => {
  const res = await client.call('POST', `/conversations/${contactId}/read`);
  expect(res.statusCode).toBe(200);
  return res.json().marked as boolean;
};

describe('marking a conversation read on the network', () => {
  it('is off by default: opening a conversation tells the network nothing', async () => {
    const { owner, wamids, contactId } = await customerWrites(['hi']);
    expect((await owner.call('GET', '/workspace')).json().workspace.mark_read).toBe(false);
    expect(await openConversation(owner, contactId)).toBe(false);
    await queueIdle(t.ctx.db, ['messages.mark_read']);
    expect(onNetwork(wamids[0]!)).toMatchObject({ readAt: null, readMarks: 0 });
  });

  it('only an owner or admin turns it on', async () => {
    const { ws, owner } = await customerWrites(['hi']);
    const teammate = await member(ws.id, 'member');
    expectRestError(await teammate.call('PATCH', '/workspace', { mark_read: true }), 403, 'forbidden');
    expect((await owner.call('GET', '/workspace')).json().workspace.mark_read).toBe(false);
    expectRestError(await owner.call('PATCH', '/workspace', { mark_read: 'yes' }), 422, 'validation_error');
    expect((await owner.call('PATCH', '/workspace', { mark_read: true })).statusCode).toBe(200);
    expect((await teammate.call('GET', '/workspace')).json().workspace.mark_read).toBe(true);
  });

  it('when on, marks the newest customer message read once, and the next one when it comes', async () => {
    const { ws, owner, from, wamids, contactId } = await customerWrites(['first', 'second']);
    await owner.call('PATCH', '/workspace', { mark_read: true });
    const teammate = await member(ws.id, 'member');

    expect(await openConversation(teammate, contactId)).toBe(true);
    await until(() => onNetwork(wamids[1]!).readAt !== null);
    // One request, for the newest: the network marks the earlier one with it.
    expect(onNetwork(wamids[1]!).readMarks).toBe(1);
    expect(onNetwork(wamids[0]!)).toMatchObject({ readMarks: 0, readAt: expect.any(Number) });
    const conversation = (await owner.call('GET', `/conversations/${contactId}`)).json();
    expect(conversation.messages.map((m: { team_read_at: string | null }) => m.team_read_at)).toEqual([
      expect.any(String),
      expect.any(String),
    ]);

    // Opened again, by anyone: nothing new to mark.
    expect(await openConversation(owner, contactId)).toBe(false);
    expect(await openConversation(teammate, contactId)).toBe(false);
    await queueIdle(t.ctx.db, ['messages.mark_read']);
    expect(onNetwork(wamids[1]!).readMarks).toBe(1);

    const third = await write(ws.number.phoneNumberId, from, 'third');
    await until(
      async () => (await owner.call('GET', `/conversations/${contactId}`)).json().messages.length === 3,
    );
    expect(await openConversation(owner, contactId)).toBe(true);
    await until(() => onNetwork(third).readAt !== null);
    expect(onNetwork(third).readMarks).toBe(1);
    expect(onNetwork(wamids[1]!).readMarks).toBe(1);
  });

  it('another workspace’s session cannot mark a conversation read', async () => {
    const { owner, contactId } = await customerWrites(['hi']);
    await owner.call('PATCH', '/workspace', { mark_read: true });
    const { owner: stranger } = await customerWrites(['hello']);
    await stranger.call('PATCH', '/workspace', { mark_read: true });
    expectRestError(await stranger.call('POST', `/conversations/${contactId}/read`), 404, 'not_found');
    const { rows } = await t.ctx.db.query('SELECT team_read_at FROM messages WHERE contact_id = $1', [
      contactId,
    ]);
    expect(rows).toEqual([{ team_read_at: null }]);
  });

  it('a refusal from the network is logged and dropped; the teammate sees no error', async () => {
    const { ws, owner, wamids, contactId } = await customerWrites(['hi']);
    await owner.call('PATCH', '/workspace', { mark_read: true });
    // The network no longer knows the message (as after a number was moved): it answers error 100.
    simState(t).inbound.delete(`${ws.number.phoneNumberId}:${wamids[0]}`);
    const warnings: unknown[] = [];
    const log = { ...t.ctx.log, warn: (o: unknown) => warnings.push(o) } as typeof t.ctx.log;
    expect(await openConversation(owner, contactId)).toBe(true);
    const { rows } = await t.ctx.db.query<{ id: string }>('SELECT id FROM messages WHERE contact_id = $1', [
      contactId,
    ]);
    await expect(
      sendReadMark({ ...t.ctx, log }, { workspaceId: ws.id, messageId: rows[0]!.id }, false),
    ).resolves.toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ messageId: rows[0]!.id, code: 100 })]);
  });
});
