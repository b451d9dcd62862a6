import { describe, expect, it } from 'vitest';
import { checkRichSend } from './rich-send-check.js';

const reply = (id: string, title: string) => ({ type: 'reply', reply: { id, title } });

describe("the simulator's checks on media, interactive, location and reaction sends", () => {
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
  ])('%s %j', (type, content, problem) => {
    const found = checkRichSend(type, { [type]: content });
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });

  it('does not know other types', () => {
    expect(checkRichSend('contacts', { contacts: [] })).toBeUndefined();
  });
});
