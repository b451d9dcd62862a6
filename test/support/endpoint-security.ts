import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/modules/api-keys/create-api-key.js';
import { revokeApiKey } from '../../src/modules/api-keys/revoke-api-key.js';
import type { TestApp } from './app.js';
import { fillPath, pathParams, routeName } from './route-table.js';

/** A REST v1 route, its path under /api/v1 with parameters written `:id`. */
export interface Endpoint {
  method: string;
  path: string;
}

/** Asserts the REST error envelope, and that its request id is the response header's. */
export function expectRestError(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
  code?: string,
): void {
  expect(res.statusCode).toBe(status);
  const body = res.json() as { result: boolean; error: Record<string, unknown> };
  expect(body.result).toBe(false);
  expect(body.error).toMatchObject({ message: expect.any(String), request_id: res.headers['x-request-id'] });
  if (code) expect(body.error.code).toBe(code);
  if (status === 422) expect(body.error.details).toEqual(expect.any(Array));
  else expect(body.error).not.toHaveProperty('details');
}

/**
 * The authentication cases every REST endpoint must pass, generated so that no endpoint forgets
 * one: a request without a valid, live key is a 401 with the envelope, and never reaches the handler.
 */
export function describeAuthentication(getApp: () => TestApp, endpoints: Endpoint[]): void {
  describe.each(endpoints.map((e) => [routeName(e), e] as const))('%s authentication', (_name, endpoint) => {
    // Authentication comes before the body and the parameters are read: any id will do.
    const url = `/api/v1${fillPath(endpoint.path, Object.fromEntries(pathParams(endpoint.path).map((p) => [p, 'x1'])))}`;
    const call = (headers: Record<string, string>) =>
      getApp().app.inject({ method: endpoint.method as 'GET', url, headers });

    it.each([
      ['no credential', {}],
      ['an unknown Bearer key', { authorization: 'Bearer pk_live_00000000000000000000000000000000' }],
      ['an unknown X-API-Key', { 'x-api-key': 'pk_live_00000000000000000000000000000000' }],
      ['Basic authentication', { authorization: 'Basic dXNlcjpwYXNz' }],
      ['Bearer with no key', { authorization: 'Bearer' }],
      ['Bearer with two words', { authorization: 'Bearer a b' }],
      ['a 10 kB key', { authorization: `Bearer ${'k'.repeat(10_000)}` }],
      ['an SQL fragment as key', { 'x-api-key': "' OR 1=1 --" }],
    ])('refuses %s with 401', async (_name, headers) => {
      expectRestError(await call(headers as Record<string, string>), 401, 'unauthorized');
    });

    it('refuses a revoked key with 401', async () => {
      const t = getApp();
      const ws = await t.workspace();
      const key = await createApiKey(t.ctx.db, ws.id);
      expect((await call({ authorization: `Bearer ${key.key}` })).statusCode).not.toBe(401);
      t.ctx.keys.forget((await revokeApiKey(t.ctx.db, key.id))!);
      expectRestError(await call({ authorization: `Bearer ${key.key}` }), 401, 'unauthorized');
    });
  });
}
