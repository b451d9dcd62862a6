import { describe, expect, it } from 'vitest';
import { checkRichSend } from './rich-send-check.js';

const reply = (id: string, title: string) => ({ type: 'reply', reply: { id, title } });
const cta = (parameters: Record<string, string>) => ({
  type: 'cta_url',
  body: { text: 'Hi' },
  action: { name: 'cta_url', parameters },
});

describe("the simulator's checks on media, interactive, location, reaction and contacts sends", () => {
  it.each([
    ['image', { link: 'https://a.example/x.jpg', caption: 'Hi' }, null],
    ['image', { link: 'https://a.example/x.jpg', id: '1' }, 'exactly one of link or id'],
    ['audio', { id: '1', caption: 'no' }, 'caption'],
    ['sticker', { id: '1', filename: 'x.webp' }, 'filename'],
    ['location', { latitude: 1, longitude: 2 }, null],
    ['location', { latitude: '1', longitude: 2 }, 'latitude'],
    ['reaction', { message_id: 'wamid.x', emoji: '👍' }, null],
    ['interactive', { type: 'button', body: { text: 'Hi' }, action: { buttons: [reply('a', 'A')] } }, null],
    [
      'interactive',
      {
        type: 'button',
        body: { text: 'Hi' },
        action: { buttons: [1, 2, 3, 4].map((i) => reply(`${i}`, 'A')) },
      },
      '1 to 3',
    ],
    [
      'interactive',
      {
        type: 'button',
        body: { text: 'Hi' },
        action: { buttons: [reply('a', 'A title over twenty chars')] },
      },
      'up to 20',
    ],
    [
      'interactive',
      {
        type: 'list',
        body: { text: 'Hi' },
        action: {
          button: 'Pick',
          sections: [{ rows: Array.from({ length: 11 }, (_, i) => ({ id: `${i}`, title: 'T' })) }],
        },
      },
      'at most 10 rows',
    ],
    ['interactive', cta({ display_text: 'See dates', url: 'https://a.example/d' }), null],
    [
      'interactive',
      cta({ display_text: 'A label over twenty c', url: 'https://a.example/d' }),
      'display_text',
    ],
    ['interactive', cta({ display_text: 'Go', url: 'a.example/d' }), 'url'],
    [
      'interactive',
      { ...cta({ display_text: 'Go', url: 'https://a.example' }), body: { text: 'x'.repeat(1025) } },
      'body',
    ],
    ['interactive', { type: 'cta_url', body: { text: 'Hi' }, action: { buttons: [] } }, 'name cta_url'],
    ['contacts', [{ name: { formatted_name: 'Asha' }, phones: [{ phone: '+1 415' }] }], null],
    ['contacts', [], 'at least one'],
    ['contacts', [{ name: { first_name: 'Asha' } }], 'contacts[0].name.formatted_name'],
    ['contacts', [{ name: { formatted_name: 'Asha' }, emails: 'a@b.example' }], 'contacts[0].emails'],
  ])('%s %j', (type, content, problem) => {
    const found = checkRichSend(type, { [type]: content });
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });

  it('does not know other types', () => {
    expect(checkRichSend('poll', { poll: {} })).toBeUndefined();
  });
});
