import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from './support/app.js';
import { type AppClient, newSession } from './support/app-session.js';
import { freshAddress } from './support/intake.js';
import { listen } from './support/messaging.js';
import {
  fillPath,
  pathParams,
  type RegisteredRoute,
  routeName,
  withRouteTable,
} from './support/route-table.js';
import { Tenant } from './support/tenant.js';

// The routes come from the server itself, so a route added to the web app's API or to lead intake
// is sent these bodies too: what people read is never the validator's own wording.
const { value: t, routes } = await withRouteTable(() => createTestApp({ queue: true, role: 'api' }));
const tenant = new Tenant(t, await listen(t));
afterAll(async () => {
  await t.close();
});

const VALIDATOR_WORDING = /must |schema|anyOf|NOT have|should /;
const INTAKE = ['/api/forms', '/api/automation/webhooks'];
const takesBody = (r: RegisteredRoute) => ['POST', 'PUT', 'PATCH'].includes(r.method);
const checked = routes.filter((r) => takesBody(r) && (r.prefix === '/api/app' || INTAKE.includes(r.prefix)));

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  maxLength?: number;
  minLength?: number;
  format?: string;
  const?: unknown;
  enum?: unknown[];
}

/** A value of the wrong kind, and values of the right kind that break a limit, for one schema. */
function breaking(s: Schema): unknown[] {
  const out: unknown[] = [];
  const types = [s.type ?? s.anyOf?.map((b) => b.type) ?? []].flat();
  out.push(types.includes('string') ? { not: 'text' } : 'not-this-kind');
  if (s.maxLength !== undefined) out.push('x'.repeat(s.maxLength + 1));
  if (s.minLength) out.push('');
  if (s.format) out.push('not a well-formed value');
  if (s.const !== undefined || s.enum || s.anyOf) out.push('no-such-choice');
  if (s.items) out.push(...breaking(s.items).map((v) => [v]));
  if (s.properties) out.push(...propertyBodies(s));
  for (const branch of s.anyOf ?? []) if (branch.properties) out.push(...propertyBodies(branch));
  return out;
}

function propertyBodies(s: Schema): Record<string, unknown>[] {
  return Object.entries(s.properties ?? {}).flatMap(([name, p]) => breaking(p).map((v) => ({ [name]: v })));
}

/** Bodies that no schema takes (not an object, missing what is required, unknown fields), then per field. */
function bodiesFor(route: RegisteredRoute): unknown[] {
  return [[], 'text', 12, {}, { zz_unknown_field: { a: [] } }, ...breaking((route.body ?? {}) as Schema)];
}

async function pathFor(route: RegisteredRoute): Promise<string> {
  const values: Record<string, string> = {};
  for (const p of pathParams(route.path)) values[p] = 'x1';
  if (route.prefix === '/api/automation/webhooks') {
    const sequence = await tenant.sequence();
    Object.assign(values, { sequenceId: sequence.id, secret: sequence.secret });
  }
  return `${route.prefix}${fillPath(route.path, values)}`;
}

async function send(route: RegisteredRoute, client: AppClient, body: unknown) {
  const url = await pathFor(route);
  const payload = JSON.stringify(
    route.url === '/api/forms/submit' && body && typeof body === 'object' && !Array.isArray(body)
      ? { token: (await tenant.form()).token, ...body }
      : body,
  );
  return t.app.inject({
    method: route.method as 'POST',
    url,
    remoteAddress: freshAddress(),
    headers: { cookie: client.cookie, 'x-parley-csrf': client.csrf, 'content-type': 'application/json' },
    payload,
  });
}

describe('the route table', () => {
  it('holds the web app API and intake routes that take a body', () => {
    const names = checked.map((r) => `${r.prefix}${routeName(r)}`);
    expect(names).toContain('/api/appPOST /forms');
    expect(names).toContain('/api/formsPOST /submit');
    expect(names.some((n) => n.startsWith('/api/automation/webhooks'))).toBe(true);
  });
});

describe.each(checked.map((r) => [`${r.prefix} ${routeName(r)}`, r] as const))('%s', (_name, route) => {
  it('answers bodies its schema refuses in plain words, field by field', async () => {
    // A session of its own: POST /logout ends the one it is sent with. Started in the database, as
    // sign-in starts at most 20 sessions of one user in 15 minutes.
    const client = await newSession(t, (await tenant.owner()).client.email);
    const statuses = new Set<number>();
    for (const body of bodiesFor(route)) {
      const res = await send(route, client, body);
      statuses.add(res.statusCode);
      const what = `${JSON.stringify(body).slice(0, 80)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
      // A 503 is a service this one needs not answering (POST /templates/sync with no number), not the body.
      expect(res.statusCode, what).not.toBe(500);
      if (res.statusCode < 400) continue;
      expect(res.body, what).not.toMatch(VALIDATOR_WORDING);
      if (res.statusCode !== 422) continue;
      const json = res.json();
      const details: { field: string; message: string }[] = json.details ?? json.error?.details ?? [];
      for (const d of details) {
        expect(d.field, what).toEqual(expect.any(String));
        expect(d.message, what).toMatch(/^[A-Z"+].*\.$/s);
      }
    }
    // A route with a body schema is reached by the bodies, not stopped before them (by a sign-in, say).
    if (route.body) expect([...statuses]).toContain(422);
  });
});
