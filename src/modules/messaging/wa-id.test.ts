import { describe, expect, it } from 'vitest';
import { simControl, simState, simulatorAppForTests } from '../../../test/support/messaging.js';

const t = simulatorAppForTests({ statusDelaysMs: [-1, -1, -1] });

describe("the network's wa_id", () => {
  it('finds the contact when a Brazilian customer replies without the ninth digit, so no duplicate is made', async () => {
    const ws = await t.connectedWorkspace();
    const sent = await t.api('POST', '/messages', ws.key, {
      to: '+55 11 91234-5678',
      template: { name: 'hello', language: 'en_US' },
    });
    expect(sent.json().status).toBe('accepted');
    // The network answers for 55 11 9 1234-5678 with the WhatsApp user 55 11 1234-5678.
    const [received] = simState(t).messages.filter((m) => m.wamid === sent.json().wamid);
    expect(received).toMatchObject({ to: '5511912345678', waId: '551112345678' });

    const reply = await simControl<{ delivered_status: number }>(t.base, '/inbound', {
      from: '551112345678',
      text: 'Obrigado!',
      phone_number_id: ws.number.phoneNumberId,
    });
    expect(reply.body.delivered_status).toBe(200);

    const contacts = (await t.api('GET', '/contacts', ws.key)).json().contacts;
    expect(contacts).toHaveLength(1);
    expect(contacts[0].phone).toBe('5511912345678');
    const { rows } = await t.ctx.db.query(
      "SELECT contact_id FROM messages WHERE workspace_id = $1 AND direction = 'inbound'",
      [ws.id],
    );
    expect(rows).toEqual([{ contact_id: contacts[0].id }]);

    // The reply opened the window for the number as the business writes it.
    const text = await t.api('POST', '/messages', ws.key, {
      to: '+5511912345678',
      type: 'text',
      text: 'De nada',
    });
    expect(text.statusCode).toBe(201);
    expect(text.json().status).toBe('accepted');
  });
});
