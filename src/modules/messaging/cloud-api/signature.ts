import { createHmac, timingSafeEqual } from 'node:crypto';

/** X-Hub-Signature-256: the HMAC-SHA256 of the raw request bytes under the app secret. */
export function hubSignature(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

export function verifyHubSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header) return false;
  const expected = Buffer.from(hubSignature(rawBody, appSecret));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
