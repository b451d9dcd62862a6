import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Compares a given secret with the expected one in constant time: both are hashed first, so the
 * comparison always runs over two 32-byte digests whatever the lengths (timingSafeEqual refuses
 * buffers of different lengths, and an early length check would tell the length away).
 */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Checks `X-Webhook-Signature: sha256=<hex>`, an HMAC-SHA256 of the raw body under the secret. */
export function validSignature(header: string, raw: Buffer, secret: string): boolean {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  const expected = createHmac('sha256', secret).update(raw).digest('hex');
  // A malformed header is still compared, so it takes the same time as a wrong one.
  return safeEqual(match ? match[1]!.toLowerCase() : header, expected) && match !== null;
}
