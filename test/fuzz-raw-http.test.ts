import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../src/modules/rate-limit/memory-limiter.js';
import { createTestApp, type TestApp } from './support/app.js';
import { FUZZ_RUNS, fuzzParams, hostileString, percentEncode, rowCounts } from './support/fuzz.js';
import { listen } from './support/messaging.js';

// What inject cannot send: bytes on a socket. Header values with CR, LF or NUL, folded lines,
// conflicting lengths (request smuggling). The server answers each with a 4xx or as a normal
// request, never reflects an injected header, and stores nothing for a refused request.
let t: TestApp;
let port: number;
let ws: { id: string; key: string };
beforeAll(async () => {
  t = await createTestApp({ limiter: new MemoryRateLimiter(1_000_000_000, 60_000) });
  port = Number(new URL(await listen(t)).port);
  ws = await t.workspace({ defaultCountryCode: '91' });
});
afterAll(async () => {
  await t?.close();
});

/** Writes raw bytes, reads until the server closes or goes quiet; returns the first response's head. */
function raw(bytes: Buffer | string): Promise<{ status: number; head: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const done = () => {
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, head: data.split('\r\n\r\n')[0] ?? '' });
    };
    // A server that neither answers nor closes on garbage is the outcome being read here, so two
    // quiet seconds end the read: there is no event to wait on instead.
    socket.setTimeout(2000, done);
    socket.on('data', (d) => {
      data += d.toString('latin1');
      if (/\r\n\r\n/.test(data) && /content-length: (\d+)/i.test(data)) {
        const len = Number(/content-length: (\d+)/i.exec(data)![1]);
        if (data.length >= data.indexOf('\r\n\r\n') + 4 + len) done();
      }
    });
    socket.on('end', done);
    socket.on('error', (err) => (data ? done() : reject(err)));
    socket.write(bytes);
  });
}

const body = '{"phone":"+14155552671","name":"raw"}';

function request(extraHeaders: string, payload = body, contentLength = true): string {
  return (
    'POST /api/v1/contacts HTTP/1.1\r\nHost: x\r\n' +
    `Authorization: Bearer ${ws.key}\r\nContent-Type: application/json\r\n` +
    (contentLength ? `Content-Length: ${Buffer.byteLength(payload)}\r\n` : '') +
    `${extraHeaders}Connection: close\r\n\r\n${payload}`
  );
}

const INJECTED = /^(set-cookie|x-injected):/im;

describe('raw HTTP requests', () => {
  it.each([
    ['CRLF in X-Request-Id', 'X-Request-Id: a\r\nX-Injected: 1\r\n'],
    ['a bare LF in a value', 'X-Request-Id: a\nSet-Cookie: s=1\r\n'],
    ['a bare CR in a value', 'Idempotency-Key: a\rSet-Cookie: s=1\r\n'],
    ['a NUL in a value', 'Idempotency-Key: a\u0000b\r\n'],
    ['an obsolete folded line', 'X-Request-Id: a\r\n Set-Cookie: s=1\r\n'],
    ['a space before the colon', 'X-Request-Id : a\r\n'],
    ['two Content-Length headers', 'Content-Length: 3\r\n'],
    ['Content-Length and chunked', 'Transfer-Encoding: chunked\r\n'],
    ['a header name with a slash', 'X/Y: 1\r\n'],
    ['a 20 kB header', `X-Big: ${'a'.repeat(20_000)}\r\n`],
  ])('%s: a 4xx or a normal answer, nothing reflected', async (_name, extra) => {
    const before = await rowCounts(t.ctx.db, ws.id);
    const res = await raw(request(extra));
    expect(res.status, res.head).toBeGreaterThanOrEqual(200);
    expect(res.status, res.head).toBeLessThan(500);
    expect(res.head).not.toMatch(INJECTED);
    if (res.status >= 400) expect(await rowCounts(t.ctx.db, ws.id)).toEqual(before);
  });

  it('generated header lines with control bytes never reach a 5xx or a reflected header', async () => {
    const byte = fc.constantFrom('\r', '\n', '\r\n', '\u0000', '\t', ' ', ':', '\u00ff', 'a', '\u007f');
    const value = fc.array(fc.oneof(byte, fc.constantFrom('X-Injected: 1', 'Set-Cookie: s=1')), {
      maxLength: 8,
    });
    const name = fc.constantFrom(
      'X-Request-Id',
      'Idempotency-Key',
      'Content-Type',
      'Accept',
      'X-Api-Key',
      'Origin',
    );
    await fc.assert(
      fc.asyncProperty(name, value, async (n, parts) => {
        const res = await raw(Buffer.from(request(`${n}: ${parts.join('')}\r\n`), 'latin1'));
        expect(res.status, res.head).toBeLessThan(500);
        expect(res.head).not.toMatch(INJECTED);
      }),
      { ...fuzzParams, numRuns: Math.max(20, Math.floor(FUZZ_RUNS / 4)) },
    );
  }, 120_000);

  it('still answers a normal request afterwards', async () => {
    const res = await raw(request(''));
    expect([200, 201]).toContain(res.status);
  });
});

describe('path segments of every public endpoint', () => {
  it('never answer a 5xx, whatever the segment holds', async () => {
    const segment = fc.oneof(
      hostileString.map(percentEncode),
      fc.constantFrom('%', '%00', '%ZZ', '%C0%AF', '%2F', 'x'.repeat(250)),
    );
    const route = fc.constantFrom(
      ['GET', '/api/v1/messages/'],
      ['GET', '/f/'],
      ['GET', '/f/{}/embed.js'],
      ['GET', '/api/webhooks/whatsapp/'],
      ['POST', '/api/webhooks/whatsapp/'],
      ['POST', '/api/automation/webhooks/'],
      ['POST', '/api/automation/webhooks/{}/secret'],
    );
    await fc.assert(
      fc.asyncProperty(route, segment, async ([method, path], s) => {
        const url = path.includes('{}') ? path.replace('{}', s) : `${path}${s}`;
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: { authorization: `Bearer ${ws.key}`, 'content-type': 'application/json' },
          ...(method === 'POST' ? { payload: '{}' } : {}),
        });
        expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
      }),
      fuzzParams,
    );
  }, 120_000);
});
