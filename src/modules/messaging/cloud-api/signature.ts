import { createHmac } from 'node:crypto';
import { safeEqual } from '../../../lib/constant-time.js';

/** X-Hub-Signature-256: the HMAC-SHA256 of the raw request bytes under the app secret. */
export function hubSignature(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

export function verifyHubSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header) return false;
  return safeEqual(header, hubSignature(rawBody, appSecret));
}
