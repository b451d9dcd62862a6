import { describe, expect, it } from 'vitest';
import { simControl, simHeaders, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { retrySend } from './retry-send.js';

const t = simulatorAppForTests({ statusDelaysMs: [-1, -1, -1] });

const TO = '14155552671';
const BUTTONS = {
  type: 'button',
  body: { text: 'Keep your booking for Friday?' },
  action: {
    buttons: [
      { type: 'reply', reply: { id: 'keep', title: 'Keep it' } },
      { type: 'reply', reply: { id: 'move', title: 'Move it' } },
    ],
  },
};
const LIST = {
  type: 'list',
  header: { type: 'text', text: 'Menu' },
  body: { text: 'Pick a size' },
  action: {
    button: 'Sizes',
    sections: [
      { title: 'Small', rows: [{ id: 's', title: 'Small', description: '250 ml' }] },
      { title: 'Large', rows: [{ id: 'l', title: 'Large' }] },
    ],
  },
};

async function openWindow(ws: { number: { phoneNumberId: string } }) {
  await fetch(`${t.base}/_sim/inbound`, {
    method: 'POST',
    headers: simHeaders,
    body: JSON.stringify({ from: TO, text: 'Hi', phone_number_id: ws.number.phoneNumberId }),
  });
}

describe('media, interactive, location and reaction messages', () => {
  it("are refused outside the window, sent inside it in Meta's shapes, and stored with their content", async () => {
    const ws = await t.connectedWorkspace();
    const image = {
      to: `+${TO}`,
      type: 'image',
      image: { link: 'https://cdn.example/a.jpg', caption: 'Hi' },
    };
    expect((await t.api('POST', '/messages', ws.key, image)).statusCode).toBe(409);
    await openWindow(ws);
    const { rows } = await t.ctx.db.query<{ wamid: string }>(
      "SELECT wamid FROM messages WHERE workspace_id = $1 AND direction = 'inbound'",
      [ws.id],
    );
    const sends: Record<string, unknown>[] = [
      image,
      {
        to: `+${TO}`,
        type: 'document',
        document: { id: '1234567890', filename: 'menu.pdf', caption: 'Menu' },
      },
      { to: `+${TO}`, type: 'audio', audio: { link: 'https://cdn.example/a.ogg' } },
      { to: `+${TO}`, type: 'sticker', sticker: { id: '987' } },
      { to: `+${TO}`, type: 'interactive', interactive: BUTTONS },
      { to: `+${TO}`, type: 'interactive', interactive: LIST },
      { to: `+${TO}`, type: 'location', location: { latitude: 37.48, longitude: -122.15, name: 'Shop' } },
      { to: `+${TO}`, type: 'reaction', reaction: { message_id: rows[0]!.wamid, emoji: '👍' } },
    ];
    for (const send of sends) {
      const res = await t.api('POST', '/messages', ws.key, send);
      expect(res.statusCode, JSON.stringify(send)).toBe(201);
      expect(res.json().status).toBe('accepted');
      const type = send.type as string;
      const received = simState(t).messages.find((m) => m.wamid === res.json().wamid)!;
      expect(received.payload).toEqual({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: TO,
        type,
        [type]: send[type],
        biz_opaque_callback_data: res.json().id,
      });
      const stored = await t.ctx.db.query('SELECT type, content FROM messages WHERE id = $1', [
        res.json().id,
      ]);
      expect(stored.rows[0]).toEqual({ type, content: send[type] });
    }

    // A send the network refused for a while goes out again the same.
    await simControl(t.base, '/control', { failNext: 1, failNextCode: 130429 });
    const later = await t.api('POST', '/messages', ws.key, sends[4]!);
    expect(later.json().status).toBe('queued');
    await retrySend(t.ctx, { workspaceId: ws.id, messageId: later.json().id }, false);
    const resent = simState(t).messages.find((m) => m.callbackData === later.json().id)!;
    expect((resent.payload as { interactive: unknown }).interactive).toEqual(BUTTONS);
  });

  it('answers 422 naming the field for what Meta would refuse', async () => {
    const ws = await t.connectedWorkspace();
    await openWindow(ws);
    const buttons = (n: number, title = (i: number) => `B${i}`) =>
      Array.from({ length: n }, (_, i) => ({ type: 'reply', reply: { id: `b${i}`, title: title(i) } }));
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'image' }, 'image'],
      [{ type: 'image', image: { link: 'https://a.example/x.jpg', id: '1' } }, 'image'],
      [{ type: 'image', image: { link: 'ftp://a.example/x.jpg' } }, 'image.link'],
      [{ type: 'audio', audio: { id: '1', caption: 'no' } }, 'audio.caption'],
      [
        { type: 'interactive', interactive: { ...BUTTONS, action: { buttons: buttons(4) } } },
        'interactive.action.buttons',
      ],
      [
        {
          type: 'interactive',
          interactive: { ...BUTTONS, action: { buttons: buttons(2, () => 'A title that is too long') } },
        },
        'interactive.action.buttons.0.reply.title',
      ],
      [
        { type: 'interactive', interactive: { ...BUTTONS, action: { buttons: buttons(2, () => 'Same') } } },
        'interactive.action.buttons',
      ],
      [
        { type: 'interactive', interactive: { ...LIST, header: { type: 'image', image: { id: '1' } } } },
        'interactive.header',
      ],
      [
        {
          type: 'interactive',
          interactive: {
            ...LIST,
            action: {
              button: 'Sizes',
              sections: [LIST.action.sections[0], { rows: [{ id: 'x', title: 'X' }] }],
            },
          },
        },
        'interactive.action.sections[1].title',
      ],
      [{ type: 'location', location: { latitude: 91, longitude: 0 } }, 'location.latitude'],
      [{ type: 'reaction', reaction: { message_id: 'wamid.nothere', emoji: '👍' } }, 'reaction.message_id'],
    ];
    for (const [body, field] of cases) {
      const res = await t.api('POST', '/messages', ws.key, { to: `+${TO}`, ...body });
      expect(res.statusCode, field).toBe(422);
      expect(
        res.json().error.details.map((d: { field: string }) => d.field),
        field,
      ).toContain(field);
    }
  });
});
