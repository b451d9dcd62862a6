import { beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { connectSimulator, simulatorAppForTests } from '../../../test/support/messaging.js';
import { normalizePhone } from '../../lib/phone.js';
import { addMember, createUser } from '../accounts/users.js';
import { connectNumber } from './connected-numbers.js';

const t = simulatorAppForTests();
beforeAll(() => {
  // The simulator mounted here is the one at APP_URL: this server's own address in the test.
  (t.ctx.config as { appUrl: string }).appUrl = t.base;
});

type Message = { direction: string; type: string; text: string | null; phone: string; content: unknown };
const conversation = async (client: Awaited<ReturnType<typeof signIn>>, id: string) =>
  (await client.call('GET', `/conversations/${id}`)).json().messages as Message[];

describe('the test customer of "try it"', () => {
  it('writes to the workspace’s simulated number as a customer: received and stored as any inbound message', async () => {
    const { workspaceId, client } = await workspaceWithOwner(t);
    const before = (await client.call('GET', '/number/simulator/customer')).json();
    expect(before).toMatchObject({ result: true, contact_id: null, available: false });
    expect(before.phone).toMatch(/^1\d{3}555\d{4}$/);
    // A number the app can answer: a reply to it is checked as any other `to`.
    expect(normalizePhone(`+${before.phone}`, null)).toEqual({ ok: true, digits: before.phone });
    expectRestError(
      await client.call('POST', '/number/simulator/customer/messages', { text: 'hi' }),
      409,
      'no_connected_number',
    );

    await connectSimulator(t, t.base, workspaceId);
    const sent = await client.call('POST', '/number/simulator/customer/messages', { text: 'menu' });
    expect(sent.statusCode, sent.body).toBe(201);
    const { contact_id, phone } = sent.json();
    expect(phone).toBe(before.phone);
    expect(contact_id).toMatch(/^ct_/);
    expect((await client.call('GET', '/number/simulator/customer')).json()).toMatchObject({
      phone,
      contact_id,
      available: true,
    });

    const tapped = await client.call('POST', '/number/simulator/customer/messages', {
      button_reply: { id: 'track', title: 'Track order' },
    });
    expect(tapped.statusCode, tapped.body).toBe(201);
    const messages = await conversation(client, contact_id);
    expect(messages.map((m) => [m.direction, m.type, m.phone])).toEqual([
      ['inbound', 'text', phone],
      ['inbound', 'interactive', phone],
    ]);
    expect(messages[0]!.text).toBe('menu');
    expect(messages[1]!.content).toMatchObject({ type: 'button_reply', button_reply: { id: 'track' } });
  });

  it('gives each teammate a test customer of their own', async () => {
    const { workspaceId, client } = await workspaceWithOwner(t);
    const email = `mate-${Date.now()}@example.com`;
    await addMember(t.ctx.db, workspaceId, await createUser(t.ctx.db, email, PASSWORD), 'member');
    const mate = await signIn(t, email);
    const mine = (await client.call('GET', '/number/simulator/customer')).json().phone;
    const theirs = (await mate.call('GET', '/number/simulator/customer')).json().phone;
    expect(theirs).toMatch(/^1\d{3}555\d{4}$/);
    expect(theirs).not.toBe(mine);
  });

  it('takes exactly one of a text, a button reply or a list reply, and names the field', async () => {
    const { workspaceId, client } = await workspaceWithOwner(t);
    await connectSimulator(t, t.base, workspaceId);
    for (const body of [{}, { text: 'a', button_reply: { id: 'x', title: 'X' } }]) {
      const res = await client.call('POST', '/number/simulator/customer/messages', body);
      expectRestError(res, 422, 'validation_error');
      expect(res.json().error.details[0].field).toBe('text');
    }
    const long = await client.call('POST', '/number/simulator/customer/messages', {
      button_reply: { id: 'x', title: 'A title far past twenty-four' },
    });
    expectRestError(long, 422, 'validation_error');
  });

  it('refuses a workspace whose number is a real WhatsApp number', async () => {
    const { workspaceId, client } = await workspaceWithOwner(t);
    await connectNumber(t.ctx, workspaceId, {
      phoneNumberId: '123456789012345',
      businessAccountId: '223456789012345',
      displayPhone: '+1 555 0123',
      accessToken: 'EAAreal',
      appSecret: 'secret',
      verifyToken: 'verify',
      graphBaseUrl: 'https://graph.facebook.com',
    });
    const res = await client.call('POST', '/number/simulator/customer/messages', { text: 'hi' });
    expectRestError(res, 409, 'conflict');
    expect(res.json().error.message).toContain('real WhatsApp number');
    expect((await client.call('GET', '/number/simulator/customer')).json().available).toBe(false);
  });

  it('takes at most 30 messages a minute from one person, then 429 with Retry-After', async () => {
    const { workspaceId, client } = await workspaceWithOwner(t);
    await connectSimulator(t, t.base, workspaceId);
    for (let i = 0; i < 30; i++) {
      const res = await client.call('POST', '/number/simulator/customer/messages', { text: `m${i}` });
      expect(res.statusCode, res.body).toBe(201);
    }
    const refused = await client.call('POST', '/number/simulator/customer/messages', { text: 'one more' });
    expectRestError(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
