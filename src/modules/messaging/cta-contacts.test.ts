import { describe, expect, it } from 'vitest';
import { simHeaders, simState, simulatorAppForTests } from '../../../test/support/messaging.js';

// POST /messages: a call-to-action URL button and contact cards, in Meta's shapes, inside the window.

const t = simulatorAppForTests({ statusDelaysMs: [-1, -1, -1] });

const TO = '14155552681';
const CTA = {
  type: 'cta_url',
  header: { type: 'text', text: 'Your booking' },
  body: { text: 'See the dates still free this month.' },
  footer: { text: 'Dates change daily' },
  action: {
    name: 'cta_url',
    parameters: { display_text: 'See dates', url: 'https://shop.example/dates?ref=wa' },
  },
};
const CARD = {
  name: { formatted_name: 'Asha Rao', first_name: 'Asha', last_name: 'Rao' },
  phones: [{ phone: '+1 (415) 555-0100', type: 'WORK', wa_id: '14155550100' }],
  emails: [{ email: 'asha@shop.example', type: 'WORK' }],
  urls: [{ url: 'https://shop.example', type: 'WORK' }],
  addresses: [{ street: '1 Main St', city: 'Oakland', country_code: 'us', type: 'WORK' }],
  org: { company: 'Shop', department: 'Bookings', title: 'Manager' },
  birthday: '1990-04-01',
};

async function openWindow(ws: { number: { phoneNumberId: string } }) {
  await fetch(`${t.base}/_sim/inbound`, {
    method: 'POST',
    headers: simHeaders,
    body: JSON.stringify({ from: TO, text: 'Hi', phone_number_id: ws.number.phoneNumberId }),
  });
}

const send = (ws: { key: string }, body: Record<string, unknown>) =>
  t.api('POST', '/messages', ws.key, { to: `+${TO}`, ...body });

const fieldsOf = (res: { json: () => { error: { details: { field: string }[] } } }) =>
  res.json().error.details.map((d) => d.field);

describe('call-to-action URL and contacts messages', () => {
  it("are refused outside the window, then reach the network in Meta's exact shapes and are stored", async () => {
    const ws = await t.connectedWorkspace();
    const cta = { type: 'interactive', interactive: CTA };
    const contacts = { type: 'contacts', contacts: [CARD, { name: { formatted_name: 'Front desk' } }] };
    for (const body of [cta, contacts]) {
      const closed = await send(ws, body);
      expect(closed.statusCode).toBe(409);
      expect(closed.json().error.code).toBe('outside_window');
    }
    await openWindow(ws);

    const sentCta = await send(ws, cta);
    expect(sentCta.statusCode).toBe(201);
    expect(sentCta.json().status).toBe('accepted');
    expect(simState(t).messages.find((m) => m.wamid === sentCta.json().wamid)!.payload).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: TO,
      type: 'interactive',
      interactive: CTA,
      biz_opaque_callback_data: sentCta.json().id,
    });

    const sentCards = await send(ws, contacts);
    expect(sentCards.statusCode).toBe(201);
    expect(sentCards.json().status).toBe('accepted');
    expect(simState(t).messages.find((m) => m.wamid === sentCards.json().wamid)!.payload).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: TO,
      type: 'contacts',
      contacts: contacts.contacts,
      biz_opaque_callback_data: sentCards.json().id,
    });

    const stored = await t.ctx.db.query('SELECT type, content FROM messages WHERE id = ANY($1) ORDER BY id', [
      [sentCta.json().id, sentCards.json().id],
    ]);
    expect(stored.rows).toEqual(
      expect.arrayContaining([
        { type: 'interactive', content: CTA },
        { type: 'contacts', content: { contacts: contacts.contacts } },
      ]),
    );
  });

  it('answers 422 naming the field for each limit, on input only that limit refuses', async () => {
    const ws = await t.connectedWorkspace();
    await openWindow(ws);
    const cta = (change: (c: typeof CTA) => unknown) => ({
      type: 'interactive',
      interactive: change(structuredClone(CTA)),
    });
    const card = (change: (c: Record<string, unknown>) => unknown) => ({
      type: 'contacts',
      contacts: [change(structuredClone(CARD) as Record<string, unknown>)],
    });
    const at = (n: number) => 'x'.repeat(n);
    // Each limit at its edge is accepted...
    const edges = [
      cta((c) => ({ ...c, body: { text: at(1024) } })),
      cta((c) => ({ ...c, header: { type: 'text', text: at(60) }, footer: { text: at(60) } })),
      cta((c) => ({
        ...c,
        action: { ...c.action, parameters: { display_text: at(20), url: 'http://a.example' } },
      })),
      { type: 'contacts', contacts: Array.from({ length: 20 }, () => ({ name: { formatted_name: 'A' } })) },
    ];
    for (const body of edges)
      expect((await send(ws, body)).statusCode, JSON.stringify(body).slice(0, 80)).toBe(201);
    // ...and one past it is refused, naming the field.
    const cases: [Record<string, unknown>, string][] = [
      [cta((c) => ({ ...c, body: { text: at(1025) } })), 'interactive.body.text'],
      [cta((c) => ({ ...c, header: { type: 'text', text: at(61) } })), 'interactive.header.text'],
      [cta((c) => ({ ...c, footer: { text: at(61) } })), 'interactive.footer.text'],
      [
        cta((c) => ({
          ...c,
          action: { ...c.action, parameters: { ...c.action.parameters, display_text: at(21) } },
        })),
        'interactive.action.parameters.display_text',
      ],
      [
        cta((c) => ({
          ...c,
          action: { ...c.action, parameters: { ...c.action.parameters, display_text: '' } },
        })),
        'interactive.action.parameters.display_text',
      ],
      [
        cta((c) => ({
          ...c,
          action: { ...c.action, parameters: { ...c.action.parameters, url: 'javascript:alert(1)' } },
        })),
        'interactive.action.parameters.url',
      ],
      [
        cta((c) => ({
          ...c,
          action: { ...c.action, parameters: { ...c.action.parameters, url: 'https://' } },
        })),
        'interactive.action.parameters.url',
      ],
      [cta((c) => ({ ...c, action: { parameters: c.action.parameters } })), 'interactive.action'],
      [
        cta((c) => ({
          ...c,
          action: { ...c.action, buttons: [{ type: 'reply', reply: { id: 'a', title: 'A' } }] },
        })),
        'interactive.action',
      ],
      [cta((c) => ({ ...c, action: { name: 'cta_url' } })), 'interactive.action'],
      [cta((c) => ({ ...c, action: { ...c.action, name: 'flow' } })), 'interactive.action.name'],
      [
        {
          type: 'interactive',
          interactive: {
            type: 'button',
            body: { text: 'Pick' },
            action: { name: 'cta_url', buttons: [{ type: 'reply', reply: { id: 'a', title: 'A' } }] },
          },
        },
        'interactive.action',
      ],
      [{ type: 'contacts' }, 'contacts'],
      [{ type: 'contacts', contacts: [] }, 'contacts'],
      [card(({ name, ...rest }) => rest), 'contacts.0.name'],
      [card((c) => ({ ...c, name: { first_name: 'Asha' } })), 'contacts.0.name.formatted_name'],
      [card((c) => ({ ...c, name: { formatted_name: '' } })), 'contacts.0.name.formatted_name'],
      [card((c) => ({ ...c, birthday: '01/04/1990' })), 'contacts.0.birthday'],
      [card((c) => ({ ...c, phones: [{ phone: '1', wa_id: '+1415' }] })), 'contacts.0.phones.0.wa_id'],
      [card((c) => ({ ...c, emails: [{ type: 'WORK' }] })), 'contacts.0.emails.0.email'],
      [card((c) => ({ ...c, nickname: 'A' })), 'contacts.0.nickname'],
      [
        { type: 'contacts', contacts: Array.from({ length: 21 }, () => ({ name: { formatted_name: 'A' } })) },
        'contacts',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await send(ws, body);
      expect(res.statusCode, field).toBe(422);
      expect(fieldsOf(res), field).toContain(field);
    }
  });

  it('refuses hostile input with a 422, never a crash', async () => {
    const ws = await t.connectedWorkspace();
    await openWindow(ws);
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'contacts', contacts: { name: { formatted_name: 'A' } } }, 'contacts'],
      [{ type: 'contacts', contacts: ['Asha'] }, 'contacts.0'],
      [{ type: 'contacts', contacts: [{ name: { formatted_name: 42 } }] }, 'contacts.0.name.formatted_name'],
      [
        { type: 'contacts', contacts: [{ name: { formatted_name: 'x'.repeat(100_000) } }] },
        'contacts.0.name.formatted_name',
      ],
      [{ type: 'contacts', contacts: [{ name: { formatted_name: 'A' }, phones: 'x' }] }, 'contacts.0.phones'],
      [
        {
          type: 'contacts',
          contacts: [{ name: { formatted_name: 'A' }, phones: Array(21).fill({ phone: '1' }) }],
        },
        'contacts.0.phones',
      ],
      [
        { type: 'interactive', interactive: { ...CTA, action: { name: 'cta_url', parameters: 'x' } } },
        'interactive.action.parameters',
      ],
      [
        {
          type: 'interactive',
          interactive: { ...CTA, action: { ...CTA.action, parameters: { display_text: 'Go', url: 7 } } },
        },
        'interactive.action.parameters.url',
      ],
      [
        {
          type: 'interactive',
          interactive: {
            ...CTA,
            action: {
              ...CTA.action,
              parameters: { display_text: 'Go', url: `https://a.example/${'x'.repeat(5000)}` },
            },
          },
        },
        'interactive.action.parameters.url',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await send(ws, body);
      expect(res.statusCode, field).toBe(422);
      expect(fieldsOf(res), field).toContain(field);
    }
  });
});
