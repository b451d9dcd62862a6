import { describe, expect, it } from 'vitest';
import { PASSWORD, signIn } from '../../../test/support/app-session.js';
import { simControl, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { addMember, createUser } from '../accounts/users.js';

const t = simulatorAppForTests();

describe('GET /api/app/conversations/:id', () => {
  it('gives each message what the page draws it from: content, the quoted message, a template’s parts', async () => {
    const ws = await t.connectedWorkspace();
    const email = `o-${Math.random().toString(36).slice(2)}@example.com`;
    await addMember(t.ctx.db, ws.id, await createUser(t.ctx.db, email, PASSWORD), 'owner');
    const client = await signIn(t, email);
    const from = '919812300011';
    const write = async (message: Record<string, unknown>) =>
      (await simControl<{ wamid: string }>(t.base, '/inbound', { from, message })).body.wamid;
    const send = async (body: Record<string, unknown>) => {
      const res = await t.api('POST', '/messages', ws.key, { to: `+${from}`, ...body });
      expect(res.statusCode).toBe(201);
      return res.json() as { id: string; wamid: string };
    };

    await write({ type: 'text', text: { body: 'Hi' }, referral: { source_type: 'ad', headline: 'Sale' } });
    const slots = await send({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Pick a slot' },
        action: { buttons: [{ type: 'reply', reply: { id: 'am', title: 'Morning' } }] },
      },
    });
    const welcome = await send({ template: { name: 'welcome', language: 'en', body: ['Asha', 'Acme'] } });
    await write({
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'am', title: 'Morning' } },
      context: { from: '15550100', id: slots.wamid, forwarded: true },
    });
    await write({ type: 'reaction', reaction: { message_id: welcome.wamid, emoji: '👍' } });

    const contactId = await until(async () => {
      const { rows } = await t.ctx.db.query<{ contact_id: string }>(
        `SELECT contact_id FROM messages WHERE workspace_id = $1 AND type = 'reaction'`,
        [ws.id],
      );
      return rows[0]?.contact_id;
    });
    const { messages } = (await client.call('GET', `/conversations/${contactId}`)).json();
    const byType = (type: string) => messages.find((m: { type: string }) => m.type === type);

    expect(byType('text')).toMatchObject({ text: 'Hi', referral: { headline: 'Sale' }, quoted: null });
    expect(messages.find((m: { id: string }) => m.id === slots.id)).toMatchObject({
      wamid: slots.wamid,
      content: { type: 'button', body: { text: 'Pick a slot' } },
    });
    const tap = messages.find(
      (m: { direction: string; type: string }) => m.direction === 'inbound' && m.type === 'interactive',
    );
    expect(tap).toMatchObject({
      content: { button_reply: { title: 'Morning' } },
      context: { forwarded: true },
      context_wamid: slots.wamid,
      reply_to: slots.id,
      quoted: {
        id: slots.id,
        direction: 'outbound',
        type: 'interactive',
        content: { body: { text: 'Pick a slot' } },
      },
    });
    // Customers' messages of one second (the network's precision) keep the order they came in.
    const inbound = messages.filter((m: { direction: string }) => m.direction === 'inbound');
    expect(inbound.map((m: { type: string }) => m.type)).toEqual(['text', 'interactive', 'reaction']);
    expect(byType('reaction')).toMatchObject({ context_wamid: welcome.wamid, content: { emoji: '👍' } });
    expect(byType('template')).toMatchObject({
      template_name: 'welcome',
      template_definition: [{ type: 'BODY', text: 'Hi {{1}}, welcome to {{2}}!' }],
      template_components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Asha' },
            { type: 'text', text: 'Acme' },
          ],
        },
      ],
    });
  });
});

describe("GET /api/app/conversations/:id: the contact's consent", () => {
  it('says when and how the contact opted out, and nothing of it once they opt back in', async () => {
    const ws = await t.connectedWorkspace();
    const email = `o-${Math.random().toString(36).slice(2)}@example.com`;
    await addMember(t.ctx.db, ws.id, await createUser(t.ctx.db, email, PASSWORD), 'owner');
    const client = await signIn(t, email);
    const from = '919812300012';
    const write = (body: string) =>
      simControl(t.base, '/inbound', {
        from,
        phone_number_id: ws.number.phoneNumberId,
        message: { type: 'text', text: { body } },
      });
    await write('Hello');
    const contactId = await until(async () => {
      const { rows } = await t.ctx.db.query<{ contact_id: string }>(
        'SELECT contact_id FROM messages WHERE workspace_id = $1',
        [ws.id],
      );
      return rows[0]?.contact_id;
    });
    const contact = async () => (await client.call('GET', `/conversations/${contactId}`)).json().contact;
    expect(await contact()).toMatchObject({ opted_out: false, opted_out_at: null, opt_out_source: null });

    await write('stop');
    const out = await until(async () => ((await contact()).opted_out ? contact() : undefined));
    expect(out).toMatchObject({ opted_out: true, opt_out_source: 'keyword', opt_out_keyword: 'STOP' });
    expect(Date.now() - Date.parse(out.opted_out_at)).toBeLessThan(60_000);

    const optIn = await client.call('PUT', `/contacts/${contactId}/opt-out`, { opted_out: false });
    expect(optIn.statusCode).toBe(200);
    expect(await contact()).toMatchObject({
      opted_out: false,
      opted_out_at: null,
      opt_out_source: null,
      opt_out_keyword: null,
    });
    await client.call('PUT', `/contacts/${contactId}/opt-out`, { opted_out: true });
    expect(await contact()).toMatchObject({ opted_out: true, opt_out_source: 'app', opt_out_keyword: null });
  });
});
