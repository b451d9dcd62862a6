import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

it('round-trips, never shows the plaintext, and refuses tampering or another key', () => {
  const box = new SecretBox(randomBytes(32));
  const sealed = box.seal('EAAG-access-token');
  expect(sealed).not.toContain('EAAG');
  expect(box.seal('EAAG-access-token')).not.toBe(sealed);
  expect(box.open(sealed)).toBe('EAAG-access-token');
  const parts = sealed.split('.');
  const flipped = [...parts.slice(0, 3), `${parts[3]!.slice(0, -2)}AA`].join('.');
  expect(() => box.open(flipped)).toThrow();
  expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
});
