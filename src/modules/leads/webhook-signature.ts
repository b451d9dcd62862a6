import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/constant-time.js';

/** Checks `X-Webhook-Signature: sha256=<hex>`, an HMAC-SHA256 of the raw body under the secret. */
export function validSignature(header: string, raw: Buffer, secret: string): boolean {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  const expected = createHmac('sha256', secret).update(raw).digest('hex');
  // A malformed header is still compared, so it takes the same time as a wrong one.
  return safeEqual(match ? match[1]!.toLowerCase() : header, expected) && match !== null;
}
