import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../../src/db/db.js';

/**
 * Runs per property: a few hundred by default so CI stays quick; `FUZZ_RUNS=5000 npx vitest run
 * test/fuzz-*` for the long form. `FUZZ_SEED` replays a failure fast-check reported.
 */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 200);
export const fuzzParams: fc.Parameters<unknown> = {
  numRuns: FUZZ_RUNS,
  ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
};

/** Text a hostile caller would send: any code point (lone surrogates too), NUL, CRLF, SQL, markup. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00y',
    '\r\nX-Injected: 1',
    "'; DROP TABLE contacts; --",
    '<script>alert(1)</script>',
    '{{contact.name}}',
    '__proto__',
    'constructor',
    '💬👩‍👩‍👧',
    'e\u0301',
    '\u202e',
    '%00',
    '../../etc/passwd',
    '+14155552671',
    '98765 43210',
    '0091 98765 43210',
    'asha@example.com',
  ),
  fc.nat({ max: 5000 }).map((n) => 'x'.repeat(n)),
);

/** A JSON value of any shape, hostile strings included, nested a few levels. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** An object of the given fields (each given a likely or a hostile value, or left out), plus stray keys. */
export function bodyOf(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const shaped = fc.record(
    Object.fromEntries(Object.entries(fields).map(([k, a]) => [k, fc.oneof(a, anyJson)])),
    { requiredKeys: [] },
  );
  return fc
    .tuple(shaped, fc.option(fc.dictionary(hostileString, anyJson, { maxKeys: 3 }), { nil: undefined }))
    .map(([body, extra]) => ({ ...(extra ?? {}), ...body }));
}

/** Ways to mangle a body's bytes: as sent, truncated, invalid UTF-8, a duplicate key, deep, huge. */
export function rawBody(body: fc.Arbitrary<unknown>): fc.Arbitrary<string | Buffer> {
  const json = body.map((b) => JSON.stringify(b) ?? 'null');
  return fc.oneof(
    { arbitrary: json, weight: 6 },
    { arbitrary: fc.tuple(json, fc.nat()).map(([s, n]) => s.slice(0, n % (s.length + 1))), weight: 1 },
    {
      arbitrary: fc
        .tuple(json, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 }))
        .map(([s, n, bytes]) => {
          const b = Buffer.from(s);
          const at = n % (b.length + 1);
          // Bytes 0x80-0xFF alone are never valid UTF-8.
          const bad = Buffer.from([...bytes].map((x) => x | 0x80));
          return Buffer.concat([b.subarray(0, at), bad, b.subarray(at)]);
        }),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(json, hostileString, anyJson)
        .filter(([s]) => s.startsWith('{') && s.length > 2)
        .map(([s, k, v]) => `{${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'},${s.slice(1)}`),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(fc.integer({ min: 30, max: 20_000 }), fc.boolean())
        .map(([n, arr]) =>
          arr ? `${'['.repeat(n)}1${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`,
        ),
      weight: 1,
    },
    {
      arbitrary: fc.constantFrom(`{"x":"${'y'.repeat(300 * 1024)}"}`, '', ' ', 'null', '[]', '"a"', '1e999'),
      weight: 1,
    },
  );
}

/** Percent-encodes every UTF-8 byte (lone surrogates become U+FFFD, where encodeURIComponent throws). */
export function percentEncode(s: string): string {
  return [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

/** Content types a hostile or careless caller sends. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 6 },
  {
    arbitrary: fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=latin1',
      'application/json;;;',
      'text/plain',
      'text/html',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/octet-stream',
      'application/vnd.api+json',
      '*/*',
      'application/json, text/plain',
      'garbage',
    ),
    weight: 3,
  },
);

/** Header values that can legally travel (no CR, LF or NUL; those are tried on raw sockets). */
export const headerValue: fc.Arbitrary<string> = fc
  .oneof(fc.string({ unit: 'grapheme-ascii', maxLength: 300 }), hostileString)
  .map((s) => s.replace(/[^\t\x20-\x7e]/g, ''));

export function headers(
  pairs: Record<string, fc.Arbitrary<string | undefined>>,
): fc.Arbitrary<Record<string, string>> {
  return fc
    .record(pairs, { requiredKeys: [] })
    .map(
      (h) =>
        Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>,
    );
}

/** Never a 5xx; a refusal carries the REST envelope with the request id of the response header. */
export function expectRestEnvelope(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body.slice(0, 500)).toBeLessThan(500);
  if (res.statusCode < 400) return;
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(body.result).toBe(false);
  // A replay (same Idempotency-Key) is the first answer, with the first request's id in its body.
  const replayed = res.headers['idempotent-replayed'] === 'true';
  expect(body.error).toMatchObject({
    code: expect.stringMatching(/^[a-z_]+$/),
    message: expect.any(String),
    request_id: replayed ? expect.any(String) : res.headers['x-request-id'],
  });
}

/** Never a 5xx; a refusal is `{"success": false, "error": "..."}` (JSON callers only). */
export function expectIntakeEnvelope(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body.slice(0, 500)).toBeLessThan(500);
  if (res.statusCode < 400) return;
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(
    res.statusCode === 422 && body.details ? ['details', 'error', 'success'] : ['error', 'success'],
  );
  expect(body.success).toBe(false);
  expect(body.error).toEqual(expect.any(String));
}

// Not idempotency_keys: a refusal sent with an Idempotency-Key is kept so that a retry replays it.
const TABLES = [
  'contacts',
  'messages',
  'events',
  'runs',
  'leads',
  'automations',
  'forms',
  'lead_notes',
  'templates',
  'webhook_endpoints',
] as const;

/** Rows a workspace holds in every table a public endpoint writes, to compare before and after. */
export async function rowCounts(db: Db, workspaceId: string): Promise<Record<string, number>> {
  const sql = `SELECT ${TABLES.map((t) => `(SELECT count(*)::int FROM ${t} WHERE workspace_id = $1) AS ${t}`).join(', ')}`;
  const { rows } = await db.query<Record<string, number>>(sql, [workspaceId]);
  return rows[0]!;
}

/** The parts of a JSON schema (as TypeBox writes them) that `fromSchema` reads. */
export interface BodySchema {
  type?: string | string[];
  properties?: Record<string, BodySchema>;
  required?: string[];
  items?: BodySchema;
  anyOf?: BodySchema[];
  oneOf?: BodySchema[];
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  maxLength?: number;
  examples?: unknown[];
}

/**
 * Values for a route's body schema: its examples, values of its shape (each field likely, at a
 * limit's edge or hostile, or left out, plus stray keys) and JSON of any shape. Read from the route
 * table, so a new PUT or PATCH is fuzzed without a line here.
 */
export function fromSchema(s: BodySchema, depth = 0): fc.Arbitrary<unknown> {
  const shaped = { arbitrary: shapedBy(s, depth), weight: 4 };
  const examples = s.examples?.length ? [{ arbitrary: fc.constantFrom(...s.examples), weight: 1 }] : [];
  return depth > 4
    ? fc.oneof(shaped, anyJson)
    : fc.oneof(...examples, shaped, { arbitrary: anyJson, weight: 1 });
}

function shapedBy(s: BodySchema, depth: number): fc.Arbitrary<unknown> {
  const branches = s.anyOf ?? s.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((b) => fromSchema(b, depth + 1)));
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum?.length) return fc.oneof(fc.constantFrom(...s.enum), hostileString);
  const types = [s.type ?? []].flat();
  if (types.includes('object') || s.properties) {
    const props = Object.entries(s.properties ?? {});
    const loose = bodyOf(Object.fromEntries(props.map(([k, p]) => [k, fromSchema(p, depth + 1)])));
    // Every required field there and of its kind, no stray key: what reaches the logic behind the validator.
    const wellFormed = fc.record(Object.fromEntries(props.map(([k, p]) => [k, shapedBy(p, depth + 1)])), {
      requiredKeys: (s.required ?? []).filter((k) => s.properties?.[k]),
    });
    return fc.oneof(loose, { arbitrary: wellFormed, weight: 2 });
  }
  if (types.includes('array')) {
    const max = Math.min((s.maxItems ?? 4) + 1, 6);
    return fc.array(s.items ? fromSchema(s.items, depth + 1) : anyJson, { maxLength: max });
  }
  if (types.includes('integer') || types.includes('number')) {
    const min = Math.max(s.minimum ?? -1000, -(2 ** 31));
    const max = Math.min(s.maximum ?? 1_000_000, 2 ** 31 - 1);
    const edges = fc.constantFrom(min - 1, min, max, max + 1, 0.5, -0, 2 ** 53);
    return min > max ? edges : fc.oneof(fc.integer({ min: Math.ceil(min), max: Math.floor(max) }), edges);
  }
  if (types.includes('boolean')) return fc.boolean();
  if (types.includes('null')) return fc.constant(null);
  if (s.maxLength !== undefined) return fc.oneof(hostileString, fc.constant('x'.repeat(s.maxLength + 1)));
  return hostileString;
}
