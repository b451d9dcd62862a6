import { describe, expect, it } from 'vitest';
import { safeEqual } from './constant-time.js';

describe('safeEqual: a constant-time comparison of secrets', () => {
  const secret = 'whsec_abcdefghijklmnopqrstuvwxyz012345';

  it('is true only for the same value', () => {
    expect(safeEqual(secret, secret)).toBe(true);
    expect(safeEqual(`${secret}`.slice(0), secret)).toBe(true);
    expect(safeEqual(Buffer.from(secret), Buffer.from(secret))).toBe(true);
    expect(safeEqual(secret.toUpperCase(), secret)).toBe(false);
    expect(safeEqual(`${secret.slice(0, -1)}6`, secret)).toBe(false);
  });

  // timingSafeEqual throws on buffers of different lengths; comparing digests never does, and no
  // length check ends the comparison early.
  it.each([
    ['empty', ''],
    ['one character', 'w'],
    ['a prefix', secret.slice(0, -1)],
    ['one character longer', `${secret}x`],
    ['much longer', secret.repeat(100)],
    ['multi-byte characters', 'é'.repeat(secret.length)],
  ])('is false, without throwing, for a secret of another length: %s', (_name, given) => {
    expect(() => safeEqual(given, secret)).not.toThrow();
    expect(safeEqual(given, secret)).toBe(false);
  });
});
