import { describe, expect, it } from 'vitest';
import { normalizePhone } from './phone.js';

describe('normalizePhone', () => {
  it.each([
    ['+91 98765-43210', null, '919876543210'],
    ['0091 (98765) 43210', null, '919876543210'],
    ['+1.415.555.2671', '91', '14155552671'],
    ['98765 43210', '91', '919876543210'],
    ['098765 43210', '91', '919876543210'],
    ['(415) 555-2671', '1', '14155552671'],
    // Not valid nationally for the default, but a valid international number as written.
    ['14155552671', '91', '14155552671'],
    ['919876543210', null, '919876543210'],
  ])('%s with default %s is %s', (raw, cc, digits) => {
    expect(normalizePhone(raw, cc)).toEqual({ ok: true, digits });
  });

  it('asks for a country code when the number has none and the workspace has no default', () => {
    const r = normalizePhone('98765 43210', null);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/add the country code, or set a default country code in Settings/);
  });

  it.each(['+12', '+999123456789', 'abc', '+91 98765 4321x', '', '++919876543210', '0'.repeat(25)])(
    'refuses %j',
    (raw) => {
      expect(normalizePhone(raw, '91').ok).toBe(false);
    },
  );
});
