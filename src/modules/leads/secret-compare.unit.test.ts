import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AccessLog, redactUrl } from '../../http/access-log.js';
import { safeEqual, validSignature } from './secret-compare.js';

describe('safeEqual: a constant-time comparison of secrets', () => {
  const secret = 'whsec_abcdefghijklmnopqrstuvwxyz012345';

  it('is true only for the same string', () => {
    expect(safeEqual(secret, secret)).toBe(true);
    expect(safeEqual(`${secret}`.slice(0), secret)).toBe(true);
    expect(safeEqual(secret.toUpperCase(), secret)).toBe(false);
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

  it('checks sha256=<hex> signatures over the raw bytes, in either case', () => {
    const raw = Buffer.from('{"a": 1}');
    const hex = createHmac('sha256', secret).update(raw).digest('hex');
    expect(validSignature(`sha256=${hex}`, raw, secret)).toBe(true);
    expect(validSignature(`sha256=${hex.toUpperCase()}`, raw, secret)).toBe(true);
    expect(validSignature(` sha256=${hex} `, raw, secret)).toBe(true);
    expect(validSignature(`sha256=${hex}`, Buffer.from('{"a":1}'), secret)).toBe(false);
    expect(validSignature(hex, raw, secret)).toBe(false);
    expect(validSignature(`sha256=${hex.slice(1)}`, raw, secret)).toBe(false);
    expect(validSignature('', raw, secret)).toBe(false);
  });
});

describe('the workflow webhook secret never reaches the access log', () => {
  it('redacts the secret path segment and nothing else', () => {
    expect(redactUrl('/api/automation/webhooks/sq_1/whsec_TOPSECRET')).toBe(
      '/api/automation/webhooks/sq_1/[redacted]',
    );
    expect(redactUrl('/api/automation/webhooks/sq_1/whsec_TOPSECRET/?a=1')).toBe(
      '/api/automation/webhooks/sq_1/[redacted]?a=1',
    );
    expect(redactUrl('/api/automation/webhooks/sq_1')).toBe('/api/automation/webhooks/sq_1');
    expect(redactUrl('/api/v1/contacts?limit=5')).toBe('/api/v1/contacts?limit=5');
  });

  it('logs the redacted URL, for successes and failures alike', () => {
    const lines: unknown[] = [];
    const log = { debug: (line: unknown) => lines.push(line), error: (line: unknown) => lines.push(line) };
    const request = { method: 'POST', url: '/api/automation/webhooks/sq_1/whsec_TOPSECRET' };
    for (const statusCode of [202, 401, 500]) {
      new AccessLog().requestCompleted(null, request as never, { statusCode, elapsedTime: 1, log } as never);
    }
    expect(JSON.stringify(lines)).not.toContain('TOPSECRET');
    expect(lines).toHaveLength(3);
  });
});
