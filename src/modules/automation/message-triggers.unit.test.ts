import { describe, expect, it } from 'vitest';
import type { ReceivedMessage } from './message-event.js';
import { claimRank, keywordWords, type MessageTrigger } from './message-triggers.js';

const said = (text: string | null, button_payload: string | null = null): ReceivedMessage => ({
  message_id: 'msg_1',
  type: button_payload ? 'button' : 'text',
  text,
  button_payload,
  reply_to: null,
});
const at = new Date('2026-11-28T10:00:00Z');
const rank = (
  trigger: Omit<MessageTrigger, 'type'>,
  message: ReceivedMessage,
  previousAt: Date | null = at,
  inside = true,
) => claimRank({ type: 'message_received', ...trigger }, { message, at, previousAt, inside });

describe('message triggers', () => {
  it('compare keywords without case, accents, surrounding spaces and punctuation', () => {
    expect(keywordWords(' Menú! ')).toBe('menu');
    expect(keywordWords('¿Ayuda?')).toBe('ayuda');
    expect(rank({ keywords: ['menu'] }, said(' Menu! '))).toBe(2);
    expect(rank({ keywords: ['MENÚ'] }, said('menu'))).toBe(2);
    expect(rank({ keywords: ['order status'] }, said('Order   status.'))).toBe(2);
  });

  it('match the whole text by default, and a word inside it with match: contains', () => {
    expect(rank({ keywords: ['menu'] }, said('show me the menu please'))).toBeNull();
    expect(rank({ keywords: ['menu'], match: 'contains' }, said('show me the menu please'))).toBe(2);
    // A word, not a piece of one.
    expect(rank({ keywords: ['menu'], match: 'contains' }, said('menus'))).toBeNull();
    expect(rank({ keywords: ['order status'], match: 'contains' }, said('what is my order status?'))).toBe(2);
  });

  it('claim a tapped payload above a keyword, and a keyword above any message', () => {
    const tap = said('Menu', 'MENU_OPEN');
    expect(rank({ payloads: ['MENU_OPEN'] }, tap)).toBe(3);
    expect(rank({ keywords: ['menu'] }, tap)).toBe(2);
    expect(rank({}, tap)).toBe(1);
    // Payloads compare exactly: they are ids.
    expect(rank({ payloads: ['menu_open'] }, tap)).toBeNull();
    expect(rank({ payloads: ['MENU_OPEN'] }, said('MENU_OPEN'))).toBeNull();
  });

  it('limit any message to the first ever, or to the first after a silence', () => {
    expect(rank({ first_message: true }, said('hi'), null)).toBe(1.5);
    expect(rank({ first_message: true }, said('hi'), new Date(at.getTime() - 1000))).toBeNull();
    const dayAgo = new Date(at.getTime() - 86_400_000);
    expect(rank({ after_silence: '24h' }, said('hi'), dayAgo)).toBe(1.5);
    expect(rank({ after_silence: '24h' }, said('hi'), new Date(dayAgo.getTime() + 1000))).toBeNull();
    expect(rank({ after_silence: '1d' }, said('hi'), null)).toBe(1.5);
    expect(rank({ keywords: ['menu'], first_message: true }, said('menu'), null)).toBe(2.5);
  });

  it('claim by business hours only inside (or outside) them, above the same trigger without hours', () => {
    const hi = said('hi');
    expect(rank({ hours: 'inside' }, hi, at, true)).toBe(1.25);
    expect(rank({ hours: 'inside' }, hi, at, false)).toBeNull();
    expect(rank({ hours: 'outside' }, hi, at, false)).toBe(1.25);
    expect(rank({ hours: 'outside' }, hi, at, true)).toBeNull();
    expect(rank({}, hi, at, false)).toBe(1);
    expect(rank({ keywords: ['hi'], hours: 'outside' }, hi, at, false)).toBe(2.25);
    expect(rank({ first_message: true, hours: 'outside' }, hi, null, false)).toBe(1.75);
  });
});
