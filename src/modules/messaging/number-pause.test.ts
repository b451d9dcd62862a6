import { afterEach, describe, expect, it } from 'vitest';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import {
  type connectedWorkspace,
  connectSimulator,
  simControl,
  simState,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { getBroadcast } from '../broadcasts/get-broadcast.js';
import { createEndpoint } from '../webhooks/endpoints.js';
import { connectNumber, numberOfWorkspace } from './connected-numbers.js';
import { retrySend } from './retry-send.js';

// Meta's refusals that concern the number (190 token, 131031 account locked...): the number pauses
// after the first, its sends are held queued and its broadcasts paused, until the owner fixes it.

const t = simulatorAppForTests({ queue: true, statusDelaysMs: [20, 40, -1] });
afterEach(async () => {
  await simControl(t.base, '/control', { failNext: 0, failNextCode: 130429 });
});

type Ws = Awaited<ReturnType<typeof connectedWorkspace>>;

let n = 0;
const nextPhone = () => `1415557${String(1000 + ++n)}`;
const WELCOME = { name: 'welcome', language: 'en' };
const VALUES = {
  body: [
    { from: 'contact', field: 'name', fallback: 'there' },
    { from: 'trait', key: 'company', fallback: 'Parley' },
  ],
};

/** Meta stops taking the number's token: every send is answered 190 until a new one is saved. */
const revokeToken = () => simControl(t.base, '/control', { failNext: 1_000, failNextCode: 190 });

/** The owner saves a new access token: Meta takes it, Parley stores it. */
async function saveNewToken(ws: Ws) {
  await simControl(t.base, '/control', { failNext: 0 });
  const sim = simState(t).numbers.get(ws.number.phoneNumberId)!;
  sim.accessToken = `fresh-${n}`;
  await connectNumber(t.ctx, ws.id, {
    phoneNumberId: ws.number.phoneNumberId,
    businessAccountId: ws.number.businessAccountId,
    displayPhone: ws.number.displayPhone,
    verifyToken: 'verify-me',
    graphBaseUrl: ws.number.graphBaseUrl,
    accessToken: sim.accessToken,
    appSecret: sim.appSecret,
  });
}

async function events(workspaceId: string, type: string) {
  const { rows } = await t.ctx.db.query<{ payload: { data: Record<string, unknown> } }>(
    'SELECT payload FROM webhook_deliveries WHERE workspace_id = $1 AND event_type = $2 ORDER BY created_at',
    [workspaceId, type],
  );
  return rows.map((r) => r.payload.data);
}

const broadcastIs = (ws: Ws, id: string, status: string) =>
  until(async () => {
    const b = await getBroadcast(t.ctx.db, ws.id, id);
    return b.status === status && b;
  }, 30_000);

const sentTo = (phones: string[]) => simState(t).messages.filter((m) => phones.includes(m.to));

describe('a number Meta refuses (190: its token expired or revoked)', () => {
  it('pauses its broadcast after one attempt, not one per recipient, and completes it once a new token is saved', async () => {
    // Two sends a second: the refusal is in before the next send's turn.
    const ws = await t.connectedWorkspace({ messagesPerSecond: 2 });
    await createEndpoint(t.ctx, ws.id, 'https://hooks.example.invalid/x', [
      'number.paused',
      'number.resumed',
    ]);
    const phones: string[] = [];
    for (let i = 0; i < 5; i++) {
      phones.push(nextPhone());
      const res = await t.api('POST', '/contacts', ws.key, { phone: `+${phones[i]}`, tags: ['sale'] });
      expect(res.statusCode).toBe(201);
    }
    await revokeToken();
    const created = await t.api('POST', '/broadcasts', ws.key, {
      name: 'Sale',
      template: WELCOME,
      values: VALUES,
      audience: { tags_all: ['sale'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().broadcast.id as string;

    const paused = await broadcastIs(ws, id, 'paused');
    expect(paused.paused_reason).toBe('number_paused');
    // Past the turns of two more sends: none of them reaches the network.
    await new Promise((r) => setTimeout(r, 1_500));
    const tried = simState(t).attempts.filter((a) => phones.includes(a.to));
    expect(tried.map((a) => a.code)).toEqual([190]);
    expect(sentTo(phones)).toHaveLength(0);
    const { rows: messages } = await t.ctx.db.query<{ status: string }>(
      'SELECT status FROM messages WHERE workspace_id = $1',
      [ws.id],
    );
    // The broadcast stopped at once: the recipients after the pause were not even stored.
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.length).toBeLessThan(5);
    expect(messages.every((m) => m.status === 'queued')).toBe(true);
    expect((await numberOfWorkspace(t.ctx, t.ctx.db, ws.id))!.paused).toMatchObject({ code: 190 });
    expect(await events(ws.id, 'number.paused')).toEqual([
      expect.objectContaining({
        number_id: ws.number.id,
        code: 190,
        what_to_do: expect.stringMatching(/new access token/),
      }),
    ]);

    // Resumed by hand while the number is still paused: it pauses again, and nothing is sent.
    expect((await t.api('POST', `/broadcasts/${id}/resume`, ws.key)).statusCode).toBe(200);
    await until(async () => (await getBroadcast(t.ctx.db, ws.id, id)).status === 'paused', 10_000);
    expect((await getBroadcast(t.ctx.db, ws.id, id)).paused_reason).toBe('number_paused');
    expect(simState(t).attempts.filter((a) => phones.includes(a.to))).toHaveLength(1);

    // A send through the API is refused before it is stored, with what to do.
    const direct = await t.api('POST', '/messages', ws.key, {
      to: '+14155557999',
      template: { name: 'hello', language: 'en_US' },
    });
    expect(direct.statusCode).toBe(409);
    expect(direct.json().error).toMatchObject({
      code: 'number_paused',
      message: expect.stringMatching(/190|token/),
    });

    await saveNewToken(ws);
    const done = await broadcastIs(ws, id, 'completed');
    expect(done.counts).toMatchObject({ audience: 5, failed: 0, skipped: 0, queued: 0 });
    expect(
      sentTo(phones)
        .map((m) => m.to)
        .sort(),
    ).toEqual([...phones].sort());
    expect(await events(ws.id, 'number.resumed')).toEqual([
      expect.objectContaining({ number_id: ws.number.id, code: 190 }),
    ]);
  }, 60_000);

  it('is not paused by a refusal that concerns the message alone', async () => {
    const ws = await t.connectedWorkspace();
    await simControl(t.base, '/control', { failNext: 1, failNextCode: 131026 });
    const res = await t.api('POST', '/messages', ws.key, {
      to: '+14155557998',
      template: { name: 'hello', language: 'en_US' },
    });
    expect(res.json()).toMatchObject({ status: 'failed' });
    expect((await numberOfWorkspace(t.ctx, t.ctx.db, ws.id))!.paused).toBeNull();
    const next = await t.api('POST', '/messages', ws.key, {
      to: '+14155557998',
      template: { name: 'hello', language: 'en_US' },
    });
    expect(next.json()).toMatchObject({ status: 'accepted' });
  });
});

describe('Settings › Connected number', () => {
  it('shows the pause and what to do; "check again" resumes it only once Meta reads the number', async () => {
    const owner = await workspaceWithOwner(t);
    const number = await connectSimulator(t, t.base, owner.workspaceId);
    await simControl(t.base, '/control', { failNext: 1, failNextCode: 131031 });
    const sent = await t.api('POST', '/messages', owner.apiKey, {
      to: '+14155557997',
      template: { name: 'hello', language: 'en_US' },
    });
    expect(sent.json()).toMatchObject({ status: 'queued' });
    const shown = (await owner.client.call('GET', '/number')).json().number;
    expect(shown).toMatchObject({
      status: 'paused',
      paused: { code: 131031, what_to_do: expect.stringMatching(/locked/) },
    });

    // Its send job's last try while the number is paused holds the message: not sent, not failed.
    await retrySend(t.ctx, { workspaceId: owner.workspaceId, messageId: sent.json().id }, true);
    const held = await t.ctx.db.query<{ status: string }>('SELECT status FROM messages WHERE id = $1', [
      sent.json().id,
    ]);
    expect(held.rows[0]!.status).toBe('queued');
    expect(simState(t).attempts.filter((a) => a.to === '14155557997')).toHaveLength(1);

    // Meta still refuses the number's token: it stays paused, and the answer says why.
    const sim = simState(t).numbers.get(number.phoneNumberId)!;
    const token = sim.accessToken;
    sim.accessToken = 'someone-else';
    const still = await owner.client.call('POST', '/number/check');
    expect(still.statusCode).toBe(409);
    expect(still.json().error.code).toBe('number_paused');
    expect((await owner.client.call('GET', '/number')).json().number.status).toBe('paused');

    sim.accessToken = token;
    const checked = await owner.client.call('POST', '/number/check');
    expect(checked.json()).toEqual({ result: true, resumed: true });
    expect((await owner.client.call('GET', '/number')).json().number).toMatchObject({
      status: 'connected',
      paused: null,
    });
    // The message it held goes out, once.
    await until(async () => sentTo(['14155557997']).length === 1, 15_000);
    const { rows } = await t.ctx.db.query<{ status: string }>('SELECT status FROM messages WHERE id = $1', [
      sent.json().id,
    ]);
    expect(rows[0]!.status).not.toBe('queued');
  }, 30_000);

  it('"check again" is for owners and admins', async () => {
    const member = await workspaceWithOwner(t, 'member');
    await connectSimulator(t, t.base, member.workspaceId);
    expect((await member.client.call('POST', '/number/check')).statusCode).toBe(403);
  });
});
