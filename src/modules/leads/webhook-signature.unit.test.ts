import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../api/redact-url.js';
import { AccessLog } from '../../http/access-log.js';
import { validSignature } from './webhook-signature.js';

describe("validSignature: the workflow webhook's X-Webhook-Signature", () => {
  const secret = 'whsec_abcdefghijklmnopqrstuvwxyz012345';

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
