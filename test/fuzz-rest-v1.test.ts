import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../src/modules/rate-limit/memory-limiter.js';
import { createTestApp } from './support/app.js';
import {
  anyJson,
  type BodySchema,
  bodyOf,
  contentType,
  expectRestEnvelope,
  FUZZ_RUNS,
  fromSchema,
  fuzzParams,
  headers,
  headerValue,
  hostileString,
  percentEncode,
  rawBody,
  rowCounts,
} from './support/fuzz.js';
import { multipart } from './support/media-files.js';
import { connectedWorkspace, listen } from './support/messaging.js';
import { fillPath, pathParams, routeName, withRouteTable } from './support/route-table.js';

// Property-based tests over every REST v1 endpoint: for generated bodies, headers and queries the
// answer is never a 5xx, every refusal carries the envelope, and a refusal stores nothing.
// A limiter that never refuses, so thousands of requests on one key test the endpoints, not the limit.
// The routes come from the server itself, so a new PUT or PATCH is sent generated bodies too.
const { value: t, routes } = await withRouteTable(async () => {
  const app = await createTestApp({
    limiter: new MemoryRateLimiter(1_000_000_000, 60_000),
    // A route that checks a number with Meta (PUT /number) meets a refused connection at once, not the internet.
    env: { GRAPH_API_URL: 'http://127.0.0.1:9' },
  });
  const base = await listen(app);
  return { ...app, connectedWorkspace: () => connectedWorkspace(app, base) };
});
afterAll(async () => {
  await t.close();
});

// Every status a route answers here, to hold against the statuses its OpenAPI entry documents.
const answered = new Map<string, Set<number>>();
const v1Routes = routes.filter((r) => r.prefix === '/api/v1');
const patterns = v1Routes.map((r) => ({
  name: routeName(r),
  method: r.method,
  re: new RegExp(`^/api/v1${r.path.replace(/:\w+/g, '[^/]+')}$`),
}));
// Refused (400) before any route is chosen: broken percent-encoding, %00, or a path segment longer
// than the router's 100 characters.
const routable = (path: string) => {
  try {
    decodeURIComponent(path);
  } catch {
    return false;
  }
  return !/%00/i.test(path) && path.split('/').every((segment) => segment.length <= 100);
};
async function inject(options: InjectOptions) {
  const res = await t.app.inject(options);
  const path = String(options.url).split('?')[0]!;
  // The most specific pattern: /contacts/export before /contacts/:id.
  const route = patterns
    .filter((p) => p.method === options.method && p.re.test(path))
    .sort((a, b) => a.name.split(':').length - b.name.split(':').length)[0];
  if (route && routable(path))
    answered.set(route.name, (answered.get(route.name) ?? new Set()).add(res.statusCode));
  return res;
}
let ws: { id: string; key: string };
let doc: { paths: Record<string, Record<string, { responses: object }>> };
beforeAll(async () => {
  ws = await t.connectedWorkspace();
  doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
});
/** The statuses the OpenAPI entry of `GET /contacts/:id` (as routeName writes it) documents. */
const documented = (name: string) => {
  const [method, path] = name.split(' ') as [string, string];
  const op = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
  return Object.keys(op?.responses ?? {}).map(Number);
};

const phone = fc.oneof(
  fc.constantFrom('+14155552671', '98765 43210', '0091 98765 43210', '(415) 555-2671', '+1'),
  fc.stringMatching(/^\+?[0-9 ().-]{1,20}$/),
);
const stringList = fc.array(hostileString, { maxLength: 4 });
const traits = fc.dictionary(
  hostileString,
  fc.oneof(hostileString, fc.integer(), fc.boolean(), fc.constant(null)),
  {
    maxKeys: 4,
  },
);
const idempotencyKey = fc.option(headerValue, { nil: undefined });

const requestHeaders = headers({
  'content-type': contentType,
  'idempotency-key': idempotencyKey,
  'x-request-id': fc.option(headerValue, { nil: undefined }),
  accept: fc.option(fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml'), {
    nil: undefined,
  }),
});

/** Sends one generated POST and checks the envelope and that a refusal left no row behind. */
async function postChecked(path: string, payload: string | Buffer, h: Record<string, string>) {
  const before = await rowCounts(t.ctx.db, ws.id);
  const res = await inject({
    method: 'POST',
    url: `/api/v1${path}`,
    headers: { authorization: `Bearer ${ws.key}`, ...h },
    payload,
  });
  expectRestEnvelope(res);
  if (res.statusCode >= 400) expect(await rowCounts(t.ctx.db, ws.id)).toEqual(before);
  return res;
}

const TIMEOUT = 60_000 + FUZZ_RUNS * 200;

describe('REST v1 under generated input', () => {
  it(
    'POST /contacts',
    async () => {
      const body = bodyOf({ phone, name: hostileString, email: hostileString, tags: stringList, traits });
      await fc.assert(
        fc.asyncProperty(rawBody(body), requestHeaders, async (payload, h) => {
          await postChecked('/contacts', payload, h);
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'POST /templates/header-sample',
    async () => {
      const PNG = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
        'base64',
      );
      const bytes = fc.oneof(
        fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
        fc.nat({ max: PNG.length }).map((n) => PNG.subarray(0, n)),
        fc.constant(PNG),
      );
      const part = fc.record({
        name: fc.oneof(fc.constant('file'), hostileString),
        file: bytes,
        filename: hostileString,
        type: fc.option(fc.constantFrom('image/png', 'image/jpeg', 'text/plain', 'application/pdf'), {
          nil: undefined,
        }),
      });
      const body = fc.oneof(
        fc.array(part, { maxLength: 2 }).map((parts) => multipart(parts)),
        rawBody(bodyOf({ file: hostileString })).map((payload) => ({
          payload,
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
        })),
      );
      await fc.assert(
        fc.asyncProperty(body, async (form) => {
          await postChecked('/templates/header-sample', form.payload, form.headers);
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'POST /teams',
    async () => {
      const memberIds = fc.oneof(stringList, hostileString, fc.constant(null));
      const cap = fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.constant(null), hostileString);
      const body = bodyOf({ name: hostileString, max_open_per_member: cap, member_ids: memberIds });
      await fc.assert(
        fc.asyncProperty(rawBody(body), requestHeaders, async (payload, h) => {
          await postChecked('/teams', payload, h);
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'POST /quick-replies',
    async () => {
      const text = fc.oneof(hostileString, fc.constantFrom('Hi {{name}}', 'Hi {{nope}}', '{{ first_name }}'));
      const body = bodyOf({ title: hostileString, text });
      await fc.assert(
        fc.asyncProperty(rawBody(body), requestHeaders, async (payload, h) => {
          await postChecked('/quick-replies', payload, h);
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'POST /events',
    async () => {
      const properties = fc.dictionary(hostileString, fc.oneof(hostileString, anyJson), { maxKeys: 4 });
      const body = bodyOf({ phone, event: fc.oneof(fc.constant('signup'), hostileString), properties });
      await fc.assert(
        fc.asyncProperty(rawBody(body), requestHeaders, async (payload, h) => {
          await postChecked('/events', payload, h);
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'POST /messages',
    async () => {
      const template = bodyOf({
        name: fc.constantFrom('welcome', 'hello', 'draft', 'missing'),
        language: fc.constantFrom('en', 'en_US', 'xx'),
        body: stringList,
      });
      const body = bodyOf({
        to: phone,
        type: fc.constantFrom('template', 'text', 'image'),
        template,
        text: hostileString,
        callback_data: hostileString,
      });
      await fc.assert(
        fc.asyncProperty(rawBody(body), requestHeaders, async (payload, h) => {
          const res = await postChecked('/messages', payload, h);
          if (res.statusCode === 201)
            expect(res.json()).toMatchObject({ result: true, id: expect.any(String) });
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'POST /templates',
    async () => {
      const component = bodyOf({
        type: fc.constantFrom('BODY', 'HEADER', 'FOOTER', 'BUTTONS', 'body'),
        text: hostileString,
        format: fc.constantFrom('TEXT', 'IMAGE'),
      });
      const body = bodyOf({
        name: fc.oneof(fc.stringMatching(/^[a-z0-9_]{1,20}$/), hostileString),
        language: fc.constantFrom('en', 'en_US', 'pt_BR', 'x', 'EN'),
        category: fc.constantFrom('UTILITY', 'marketing', 'AUTHENTICATION', 'PROMO'),
        body: fc.oneof(fc.constantFrom('Hi {{1}}', 'Hello', 'Hi {{2}}'), hostileString),
        examples: stringList,
        components: fc.array(component, { maxLength: 5 }),
        parameter_format: fc.constantFrom('POSITIONAL', 'NAMED', 'OTHER'),
        otp_type: fc.constantFrom('COPY_CODE', 'ONE_TAP', 'X'),
        code_expiration_minutes: fc.integer({ min: -5, max: 200 }),
      });
      await fc.assert(
        fc.asyncProperty(rawBody(body), requestHeaders, async (payload, h) => {
          const res = await postChecked('/templates', payload, h);
          if (res.statusCode === 201) expect(res.json().template).toMatchObject({ status: 'PENDING' });
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'POST /webhooks',
    async () => {
      const body = bodyOf({
        // No host to look up: generated names would wait on DNS, which is not what is tested here.
        url: fc.oneof(
          fc.constantFrom('http://127.0.0.1/hook', 'ftp://x/y', 'javascript:alert(1)', 'https://', '//x'),
          hostileString,
        ),
        events: fc.array(fc.oneof(fc.constantFrom('lead.created', 'message.status'), hostileString), {
          maxLength: 4,
        }),
      });
      await fc.assert(
        fc.asyncProperty(rawBody(body), requestHeaders, async (payload, h) => {
          const res = await postChecked('/webhooks', payload, h);
          expect(res.body).not.toMatch(/whsec_/);
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'POST /broadcasts',
    async () => {
      const source = fc.oneof(
        bodyOf({ from: fc.constant('text'), text: hostileString }),
        bodyOf({
          from: fc.constant('contact'),
          field: fc.constantFrom('name', 'phone', 'email'),
          fallback: hostileString,
        }),
        bodyOf({ from: fc.constant('trait'), key: hostileString, fallback: hostileString }),
        anyJson,
      );
      const period = bodyOf({
        from: fc.oneof(
          hostileString,
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        ),
        to: hostileString,
      });
      const audience = bodyOf({
        tags_all: stringList,
        tags_any: stringList,
        tags_none: stringList,
        traits: fc.array(
          fc.oneof(
            bodyOf({
              key: hostileString,
              equals: fc.oneof(hostileString, fc.integer(), fc.boolean(), anyJson),
            }),
            bodyOf({ key: hostileString, exists: fc.boolean() }),
          ),
          { maxLength: 3 },
        ),
        created: period,
        last_inbound: period,
        import_id: hostileString,
      });
      const body = bodyOf({
        name: hostileString,
        template: bodyOf({
          name: fc.constantFrom('welcome', 'hello', 'missing'),
          language: fc.constantFrom('en', 'en_US'),
        }),
        audience,
        values: bodyOf({
          body: fc.oneof(fc.array(source, { maxLength: 3 }), fc.dictionary(hostileString, source)),
        }),
        send_at: fc.oneof(
          hostileString,
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.constant(null),
        ),
        draft: fc.constant(true),
      });
      const counted = bodyOf({
        audience,
        template: bodyOf({ name: fc.constant('welcome'), language: fc.constant('en') }),
      });
      await fc.assert(
        fc.asyncProperty(rawBody(body), rawBody(counted), requestHeaders, async (payload, asked, h) => {
          await postChecked('/broadcasts', payload, h);
          await postChecked('/broadcasts/audience', asked, h);
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  const query = fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom('limit', 'offset', 'limit[]', 'offset[0]', 'cursor', 'status', 'phone'),
          hostileString,
        ),
        fc.oneof(
          fc.integer({ min: -10, max: 300 }).map(String),
          fc.constantFrom(
            '1e3',
            '0x10',
            '',
            '50.5',
            'NaN',
            '99999999999999999999',
            '%ZZ',
            '-0',
            'draft',
            'WyIxIiwieCJd',
          ),
          hostileString,
        ),
      ),
      { maxLength: 4 },
    )
    .map((pairs) =>
      pairs
        .map(([k, v]) => (k.includes('%') ? `${k}=${v}` : `${percentEncode(k)}=${percentEncode(v)}`))
        .join('&'),
    );

  it.each(['/contacts', '/templates', '/automations', '/conversations', '/webhooks', '/usage'])(
    'GET %s',
    async (path) => {
      await fc.assert(
        fc.asyncProperty(query, requestHeaders, async (q, h) => {
          const res = await inject({
            method: 'GET',
            url: `/api/v1${path}?${q}`,
            headers: { authorization: `Bearer ${ws.key}`, ...h },
          });
          expectRestEnvelope(res);
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'PATCH /contacts/{id} and GET its timeline',
    async () => {
      const created = await t.api('POST', '/contacts', ws.key, { phone: '+14155552688', name: 'Fuzzed' });
      const id = created.json().id;
      const one = async () => (await t.api('GET', `/contacts/${id}`, ws.key)).json().contact;
      const change = bodyOf({
        name: fc.oneof(hostileString, fc.constant(null), anyJson),
        email: fc.oneof(hostileString, fc.constant(null)),
        tags: fc.oneof(bodyOf({ add: stringList, remove: stringList }), anyJson),
        traits,
        opted_out: fc.oneof(fc.boolean(), anyJson),
      });
      await fc.assert(
        fc.asyncProperty(rawBody(change), requestHeaders, query, async (payload, h, q) => {
          const before = await one();
          const res = await inject({
            method: 'PATCH',
            url: `/api/v1/contacts/${id}`,
            headers: { authorization: `Bearer ${ws.key}`, ...h },
            payload,
          });
          expectRestEnvelope(res);
          if (res.statusCode >= 400) expect(await one()).toEqual(before);
          else expect(res.json().contact).toEqual(await one());
          const timeline = await inject({
            method: 'GET',
            url: `/api/v1/contacts/${id}/timeline?${q}`,
            headers: { authorization: `Bearer ${ws.key}`, ...h },
          });
          expectRestEnvelope(timeline);
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'POST /conversations/{id}/assign and /notes',
    async () => {
      const sent = await t.api('POST', '/messages', ws.key, {
        to: '+14155552671',
        template: { name: 'hello', language: 'en_US' },
      });
      expect(sent.statusCode, sent.body).toBe(201);
      const { rows } = await t.ctx.db.query<{ contact_id: string }>(
        'SELECT contact_id FROM messages WHERE workspace_id = $1 AND id = $2',
        [ws.id, sent.json().id],
      );
      const id = rows[0]!.contact_id;
      const assign = bodyOf({
        member_id: fc.oneof(fc.constant(null), hostileString, anyJson),
        team_id: fc.oneof(hostileString, anyJson),
      });
      await fc.assert(
        fc.asyncProperty(
          rawBody(assign),
          rawBody(bodyOf({ text: hostileString })),
          requestHeaders,
          async (a, n, h) => {
            await postChecked(`/conversations/${id}/assign`, a, h);
            await postChecked(`/conversations/${id}/notes`, n, h);
          },
        ),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'POST /automations and PATCH /automations/{id}',
    async () => {
      const trigger = fc.oneof(
        bodyOf({ type: fc.constant('event'), event: hostileString }),
        bodyOf({
          type: fc.constantFrom('webhook', 'lead_created', 'form_submitted', 'message_received', 'cron'),
        }),
      );
      const step = bodyOf({
        id: fc.oneof(fc.constantFrom('a', 'b'), hostileString),
        type: fc.constantFrom('add_tag', 'send_text', 'wait', 'condition', 'http_request', 'ask', 'nuke'),
        tag: hostileString,
        text: hostileString,
        duration: fc.constantFrom('1h', '0m', '99999999d'),
        next: fc.oneof(fc.constantFrom('a', 'b', null), hostileString),
        url: hostileString,
      });
      const definition = {
        name: hostileString,
        trigger,
        steps: fc.array(step, { maxLength: 3 }),
        published: fc.oneof(fc.boolean(), anyJson),
        on_teammate_reply: fc.constantFrom('stop', 'continue', 'x'),
      };
      const created = await t.api('POST', '/automations', ws.key, {
        name: 'Fuzzed',
        trigger: { type: 'event', event: 'fuzz' },
        steps: [{ id: 'a', type: 'add_tag', tag: 't' }],
      });
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json();
      await fc.assert(
        fc.asyncProperty(
          rawBody(bodyOf(definition)),
          rawBody(bodyOf(definition)),
          requestHeaders,
          async (payload, patch, h) => {
            await postChecked('/automations', payload, h);
            const res = await inject({
              method: 'PATCH',
              url: `/api/v1/automations/${id}`,
              headers: { authorization: `Bearer ${ws.key}`, ...h },
              payload: patch,
            });
            expectRestEnvelope(res);
          },
        ),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'POST and PATCH /forms, PATCH /leads/{id} and POST /leads/{id}/notes',
    async () => {
      const field = bodyOf({
        name: fc.oneof(fc.constantFrom('email', 'size', 'token'), hostileString),
        label: hostileString,
        type: fc.oneof(fc.constantFrom('text', 'email', 'select', 'checkbox', 'file'), hostileString),
        required: fc.oneof(fc.boolean(), anyJson),
        options: fc.oneof(stringList, anyJson),
      });
      const form = {
        name: hostileString,
        fields: fc.oneof(fc.array(field, { maxLength: 3 }), anyJson),
        active: fc.oneof(fc.boolean(), anyJson),
        thank_you_message: fc.oneof(hostileString, fc.constant(null)),
        redirect_url: fc.oneof(
          fc.constantFrom('https://example.com/t', 'javascript:alert(1)', null),
          hostileString,
        ),
      };
      const lead = {
        status: fc.oneof(fc.constantFrom('new', 'won', 'lost'), hostileString, anyJson),
        owner_id: fc.oneof(fc.constant(null), hostileString, anyJson),
      };
      const created = await t.api('POST', '/forms', ws.key, { name: 'Fuzzed', active: true });
      expect(created.statusCode, created.body).toBe(201);
      const { id, token } = created.json().form;
      const submitted = await inject({
        method: 'POST',
        url: '/api/forms/submit',
        payload: { token, email: 'fuzz@example.com' },
      });
      expect(submitted.statusCode, submitted.body).toBe(201);
      const leadId = submitted.json().lead_id;
      const patch = (url: string, payload: string | Buffer, h: Record<string, string>) =>
        inject({
          method: 'PATCH',
          url: `/api/v1${url}`,
          headers: { authorization: `Bearer ${ws.key}`, ...h },
          payload,
        });
      await fc.assert(
        fc.asyncProperty(
          rawBody(bodyOf(form)),
          rawBody(bodyOf(lead)),
          rawBody(bodyOf({ text: hostileString })),
          requestHeaders,
          async (f, l, n, h) => {
            await postChecked('/forms', f, h);
            expectRestEnvelope(await patch(`/forms/${id}`, f, h));
            expectRestEnvelope(await patch(`/leads/${leadId}`, l, h));
            await postChecked(`/leads/${leadId}/notes`, n, h);
          },
        ),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'GET /messages/{id}, GET and DELETE /automations/{id}, the conversation routes by id',
    async () => {
      const id = fc.oneof(
        hostileString.map(percentEncode),
        fc.constantFrom(
          '%',
          '%ZZ',
          '%C0%AF',
          '..%2F..%2F',
          'msg_00000000000000000000',
          'x'.repeat(80),
          'x'.repeat(500),
        ),
      );
      await fc.assert(
        fc.asyncProperty(id, requestHeaders, async (segment, h) => {
          for (const [method, path, tail] of [
            ['GET', 'messages'],
            ['GET', 'automations'],
            ['DELETE', 'automations'],
            ['POST', 'automations', '/restore'],
            ['POST', 'automations', '/rotate-secret'],
            ['GET', 'conversations'],
            ['GET', 'conversations', '/messages'],
            ['POST', 'conversations', '/resolve'],
            ['POST', 'conversations', '/reopen'],
            ['GET', 'leads'],
            ['GET', 'leads', '/notes'],
            ['DELETE', 'leads'],
            ['POST', 'leads', '/restore'],
            ['GET', 'forms'],
            ['DELETE', 'forms'],
            ['POST', 'forms', '/restore'],
            ['GET', 'templates'],
            ['DELETE', 'templates'],
            ['GET', 'broadcasts'],
            ['GET', 'broadcasts', '/timeline'],
            ['POST', 'broadcasts', '/pause'],
            ['GET', 'runs'],
            ['GET', 'teams'],
            ['DELETE', 'teams'],
            ['DELETE', 'quick-replies'],
            ['DELETE', 'webhooks'],
            ['POST', 'webhooks', '/test'],
          ] as const) {
            const res = await inject({
              method,
              url: `/api/v1/${path}/${segment}${tail ?? ''}`,
              headers: { authorization: `Bearer ${ws.key}`, ...h },
            });
            expectRestEnvelope(res);
          }
        }),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  // One of the workspace's own rows per collection a PUT or PATCH names by id, so the bodies reach
  // the logic behind the validator; a collection not here gets an id that names nothing (a 404).
  const ownIds: Record<string, () => Promise<string>> = {
    contacts: async () =>
      (await t.api('POST', '/contacts', ws.key, { phone: '+14155552699', name: 'Generated' })).json().id,
    forms: async () =>
      (await t.api('POST', '/forms', ws.key, { name: 'Generated', active: true })).json().form.id,
    leads: async () => {
      const form = (await t.api('POST', '/forms', ws.key, { name: 'For a lead', active: true })).json().form;
      const lead = await inject({
        method: 'POST',
        url: '/api/forms/submit',
        payload: { token: form.token, email: 'generated@example.com' },
      });
      return lead.json().lead_id;
    },
    automations: async () =>
      (
        await t.api('POST', '/automations', ws.key, {
          name: 'Generated',
          trigger: { type: 'event', event: 'generated' },
          steps: [{ id: 'a', type: 'add_tag', tag: 't' }],
        })
      ).json().id,
    'quick-replies': async () =>
      (await t.api('POST', '/quick-replies', ws.key, { title: 'Generated', text: 'Hi' })).json().quick_reply
        .id,
    teams: async () => (await t.api('POST', '/teams', ws.key, { name: 'Generated' })).json().team.id,
  };
  const replacing = routes.filter(
    (r) => r.prefix === '/api/v1' && (r.method === 'PUT' || r.method === 'PATCH') && r.body,
  );

  it('finds the PUT and PATCH routes of REST v1 in the route table', () => {
    expect(replacing.map(routeName)).toEqual(
      expect.arrayContaining(['PATCH /contacts/:id', 'PUT /quick-replies/:id', 'PUT /routing']),
    );
  });

  it.each(replacing.map((r) => [routeName(r), r] as const))(
    '%s with bodies generated from its schema',
    async (_name, route) => {
      const params: Record<string, string> = {};
      for (const p of pathParams(route.path)) {
        const make = ownIds[route.path.split('/')[1]!];
        params[p] = make ? await make() : 'x1';
        expect(params[p], `no ${p} made for ${routeName(route)}`).toEqual(expect.any(String));
      }
      const url = `/api/v1${fillPath(route.path, params)}`;
      await fc.assert(
        fc.asyncProperty(
          rawBody(fromSchema(route.body as BodySchema)),
          requestHeaders,
          async (payload, h) => {
            const before = await rowCounts(t.ctx.db, ws.id);
            const res = await inject({
              method: route.method as 'PUT' | 'PATCH',
              url,
              headers: { authorization: `Bearer ${ws.key}`, ...h },
              payload,
            });
            // A service the route calls refusing (a documented 502 or 503) is not the body's fault.
            if (res.statusCode >= 500 && documented(routeName(route)).includes(res.statusCode)) return;
            expectRestEnvelope(res);
            if (res.statusCode >= 400) expect(await rowCounts(t.ctx.db, ws.id)).toEqual(before);
          },
        ),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it(
    'authentication headers of any shape',
    async () => {
      const auth = headers({
        authorization: fc.option(
          fc.oneof(
            headerValue,
            headerValue.map((v) => `Bearer ${v}`),
            fc.constant(`Bearer ${ws.key} `),
          ),
          { nil: undefined },
        ),
        'x-api-key': fc.option(headerValue, { nil: undefined }),
      });
      await fc.assert(
        fc.asyncProperty(
          auth,
          fc.constantFrom('/contacts', '/templates', '/messages/msg_x', '/nowhere'),
          async (h, path) => {
            const res = await inject({ method: 'GET', url: `/api/v1${path}`, headers: h });
            expectRestEnvelope(res);
          },
        ),
        fuzzParams,
      );
    },
    TIMEOUT,
  );

  it('answers only the statuses each route documents', async () => {
    const undocumented: string[] = [];
    for (const [name, statuses] of answered)
      for (const status of statuses)
        if (!documented(name).includes(status)) undocumented.push(`${name} answered ${status}`);
    expect(answered.size).toBeGreaterThan(10);
    expect(undocumented).toEqual([]);
  });
});
