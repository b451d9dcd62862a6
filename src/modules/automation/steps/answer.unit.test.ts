import { describe, expect, it } from 'vitest';
import type { AskStep } from '../definition.js';
import { checkAnswer, readDate } from './answer.js';

const ask = (over: Partial<AskStep> = {}): AskStep => ({ id: 'q', type: 'ask', text: 'Well?', ...over });
const text = (body: string) => ({ type: 'text', text: body, button_payload: null });

describe('an answer to an ask', () => {
  it('takes any non-empty text for a text question, and nothing from a photo or a blank', () => {
    expect(checkAnswer(ask(), text('  Pune '), null)).toMatchObject({ valid: true, value: 'Pune' });
    expect(checkAnswer(ask(), text('   '), null).valid).toBe(false);
    expect(checkAnswer(ask(), { type: 'image', text: 'a caption', button_payload: null }, null).valid).toBe(
      false,
    );
  });

  it('reads numbers, e-mails and phones as people type them', () => {
    const number = ask({ expect: 'number' });
    expect(checkAnswer(number, text('42'), null)).toMatchObject({ valid: true, value: '42' });
    expect(checkAnswer(number, text('3,5'), null)).toMatchObject({ valid: true, value: '3.5' });
    expect(checkAnswer(number, text('1 000'), null)).toMatchObject({ valid: true, value: '1000' });
    expect(checkAnswer(number, text('12a'), null).valid).toBe(false);
    const email = ask({ expect: 'email' });
    expect(checkAnswer(email, text('Ravi@Example.com'), null)).toMatchObject({
      valid: true,
      value: 'ravi@example.com',
    });
    expect(checkAnswer(email, text('ravi@example'), null).valid).toBe(false);
    const phone = ask({ expect: 'phone' });
    expect(checkAnswer(phone, text('098765 43210'), '91')).toMatchObject({
      valid: true,
      value: '+919876543210',
    });
    expect(checkAnswer(phone, text('+1 415 555 2671'), '91')).toMatchObject({
      valid: true,
      value: '+14155552671',
    });
    expect(checkAnswer(phone, text('12345'), '91').valid).toBe(false);
  });

  it('reads ISO dates and day-first dates, and refuses days that do not exist', () => {
    expect(readDate('2026-12-01')).toBe('2026-12-01');
    expect(readDate('1/12/2026')).toBe('2026-12-01');
    expect(readDate('01.12.26')).toBe('2026-12-01');
    expect(readDate('31-01-2027')).toBe('2027-01-31');
    expect(readDate('31/02/2026')).toBeNull();
    expect(readDate('tomorrow')).toBeNull();
    expect(checkAnswer(ask({ expect: 'date' }), text('29/02/2028'), null)).toMatchObject({
      valid: true,
      value: '2028-02-29',
    });
  });

  it('takes an option by the button tapped, its title (case, accents, punctuation aside) or its number', () => {
    const menu = ask({
      buttons: [
        { id: 'track', title: 'Track order', next: 'lookup' },
        { id: 'cafe', title: 'Café' },
      ],
    });
    const tap = { type: 'interactive', text: 'Track order', button_payload: 'track' };
    expect(checkAnswer(menu, tap, null)).toMatchObject({
      valid: true,
      answer: 'Track order',
      option: { id: 'track', next: 'lookup' },
    });
    expect(checkAnswer(menu, text('track ORDER!'), null)).toMatchObject({ option: { id: 'track' } });
    expect(checkAnswer(menu, text('cafe'), null)).toMatchObject({ option: { id: 'cafe' } });
    expect(checkAnswer(menu, text(' 2. '), null)).toMatchObject({ option: { id: 'cafe' } });
    expect(checkAnswer(menu, text('3'), null)).toMatchObject({ valid: false, answer: '3' });
    expect(checkAnswer(menu, text('something else'), null).valid).toBe(false);
    const list = ask({
      list: {
        button: 'Choose',
        sections: [
          { title: 'A', rows: [{ id: 'r1', title: 'One' }] },
          { rows: [{ id: 'r2', title: 'Two' }] },
        ],
      },
    });
    const row = { type: 'interactive', text: 'Two', button_payload: 'r2' };
    expect(checkAnswer(list, row, null)).toMatchObject({ option: { id: 'r2' } });
    expect(checkAnswer(list, text('1'), null)).toMatchObject({ option: { id: 'r1' } });
  });
});
