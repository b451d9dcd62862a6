import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// Both sides are HMACed under a key of this process's own, so the comparison always runs over two
// 32-byte digests: no length check ends it early (timingSafeEqual throws on unequal lengths), and the
// time it takes says nothing about the expected value's digest either.
const KEY = randomBytes(32);

function digest(value: string | Buffer): Buffer {
  return createHmac('sha256', KEY).update(value).digest();
}

/** Compares two secrets in constant time, whatever their lengths. */
export function safeEqual(given: string | Buffer, expected: string | Buffer): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
