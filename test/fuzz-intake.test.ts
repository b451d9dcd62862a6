import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAutomation } from '../src/modules/automation/save-automation.js';
import { createForm } from '../src/modules/forms/create-form.js';
import { testAppForTests } from './support/app.js';
import {
  anyJson,
  bodyOf,
  contentType,
  expectIntakeEnvelope,
  FUZZ_RUNS,
  fuzzParams,
  headers,
  headerValue,
  hostileString,
  percentEncode,
  rawBody,
  rowCounts,
} from './support/fuzz.js';
import { freshAddress } from './support/intake.js';

// Property-based tests over the lead-intake endpoints: never a 5xx, every refusal in the
// `{"success": false, "error"}` envelope, and a refusal stores no lead, contact or run.
const t = testAppForTests({ queue: true });
let ws: { id: string; key: string };
let form: { token: string };
let seq: { id: string; secret: string };
beforeAll(async () => {
  ws = await t.workspace({ defaultCountryCode: '91', plan: 'scale' });
  form = await createForm(t.ctx.db, ws.id, {});
  const created = await createAutomation(
    t.ctx,
    ws.id,
    {
      name: 'Fuzzed',
      trigger: { type: 'webhook' },
      steps: [{ id: 'wait', type: 'wait', duration: '1d' }],
    },
    { publish: true },
  );
  seq = { id: created.id, secret: created.secret! };
});

const TIMEOUT = 60_000 + FUZZ_RUNS * 200;
const phone = fc.constantFrom('+14155552671', '98765 43210', '12', '+', '0091 98765 43210');
const email = fc.constantFrom('asha@example.com', 'not-an-email', 'a@b', '@');
const leadFields = {
  name: hostileString,
  email,
  phone,
  company: hostileString,
  budget: fc.oneof(fc.integer(), fc.double()),
  interests: fc.array(hostileString, { maxLength: 3 }),
};

/** A checked intake call: envelope on refusal (JSON answers), and no row added by a refusal. */
async function checked(send: () => Promise<LightMyRequestResponse>) {
  const before = await rowCounts(t.ctx.db, ws.id);
  const res = await send();
  if ((res.headers['content-type'] ?? '').toString().startsWith('text/html')) {
    expect(res.statusCode).toBeLessThan(500);
  } else {
    expectIntakeEnvelope(res);
  }
  if (res.statusCode >= 400) expect(await rowCounts(t.ctx.db, ws.id)).toEqual(before);
  return res;
}

describe('POST /api/forms/submit under generated input', () => {
  const token = fc.oneof(
    { arbitrary: fc.constant('valid'), weight: 4 },
    { arbitrary: hostileString, weight: 1 },
  );

  it(
    'as JSON (and as whatever content type is claimed)',
    async () => {
      const body = fc
        .tuple(bodyOf(leadFields), token)
        .map(([b, tk]) => (tk === 'valid' ? { token: form.token, ...b } : { token: tk, ...b }));
      const h = headers({
        'content-type': contentType,
        origin: fc.option(headerValue, { nil: undefined }),
        'x-forwarded-for': fc.option(headerValue, { nil: undefined }),
      });
      await fc.assert(
        fc.asyncProperty(rawBody(body), h, async (payload, hs) => {
          await checked(() =>
            t.app.inject({
              method: 'POST',
              url: '/api/forms/submit',
              remoteAddress: freshAddress(),
              headers: hs,
              payload,
            }),
          );
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'urlencoded, with repeated names and broken percent-encoding',
    async () => {
      const pair = fc.tuple(
        fc.oneof(fc.constantFrom('token', 'name', 'email', 'phone', 'company', ''), hostileString),
        fc.oneof(phone, email, hostileString),
      );
      const encoded = fc
        .tuple(
          fc.array(pair, { maxLength: 8 }),
          fc.boolean(),
          fc.constantFrom('', '%', '%ZZ', '&&', '=', '%C0%AF'),
        )
        .map(
          ([pairs, withToken, junk]) =>
            `${withToken ? `token=${form.token}&` : ''}${pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&')}${junk}`,
        );
      const accept = fc.constantFrom(undefined, 'application/json', 'text/html');
      await fc.assert(
        fc.asyncProperty(encoded, accept, async (payload, acc) => {
          await checked(() =>
            t.app.inject({
              method: 'POST',
              url: '/api/forms/submit',
              remoteAddress: freshAddress(),
              headers: {
                'content-type': 'application/x-www-form-urlencoded',
                ...(acc ? { accept: acc } : {}),
              },
              payload,
            }),
          );
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );
});

describe('POST /api/automation/webhooks/... under generated input', () => {
  const sign = (raw: string | Buffer, secret: string) =>
    `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  const body = bodyOf({
    ...leadFields,
    full_name: hostileString,
    mobile: phone,
    leadId: fc.oneof(hostileString, fc.constant('ld_00000000000000000000')),
    nested: anyJson,
  });
  // Mostly authenticated, so the body is parsed; some with a wrong or hostile secret.
  const how = fc.constantFrom(
    'path',
    'path',
    'header',
    'signed',
    'signed',
    'wrong-path',
    'wrong-signature',
    'none',
  );

  it(
    '/{sequenceId}/{secret} and /{sequenceId} with x-api-key or X-Webhook-Signature',
    async () => {
      const extra = headers({
        'content-type': contentType,
        'x-api-key': fc.option(headerValue, { nil: undefined }),
      });
      await fc.assert(
        fc.asyncProperty(rawBody(body), how, extra, hostileString, async (payload, mode, hs, junk) => {
          const h: Record<string, string> = { ...hs };
          let url = `/api/automation/webhooks/${seq.id}`;
          if (mode === 'path') url += `/${seq.secret}`;
          if (mode === 'wrong-path') url += `/${percentEncode(junk) || 'x'}`;
          if (mode === 'header') h['x-api-key'] = seq.secret;
          if (mode === 'signed') h['x-webhook-signature'] = sign(payload, seq.secret);
          if (mode === 'wrong-signature') h['x-webhook-signature'] = sign(payload, 'not-the-secret');
          // Each from its own address, so the per-address limits leave the input to be tested.
          await checked(() =>
            t.app.inject({ method: 'POST', url, headers: h, payload, remoteAddress: freshAddress() }),
          );
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'unknown and hostile sequence ids',
    async () => {
      // Not "." or "..": clients resolve those segments before sending, so the path names another endpoint.
      const id = fc
        .oneof(hostileString.map(percentEncode), fc.constantFrom('%', 'sq_0', '%2F', 'x'.repeat(300)))
        .filter((s) => s !== '' && !/^(\.|%2e)+$/i.test(s));
      await fc.assert(
        fc.asyncProperty(id, fc.boolean(), async (segment, withSecret) => {
          const url = `/api/automation/webhooks/${segment}${withSecret ? `/${seq.secret}` : ''}`;
          await checked(() =>
            t.app.inject({
              method: 'POST',
              url,
              remoteAddress: freshAddress(),
              headers: { 'content-type': 'application/json' },
              payload: '{}',
            }),
          );
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );
});
