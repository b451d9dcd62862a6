import { afterAll, describe, expect, it } from 'vitest';
import { hubSignature } from '../src/modules/messaging/cloud-api/signature.js';
import { connectNumber, numberOfWorkspace } from '../src/modules/messaging/connected-numbers.js';
import { createTestApp } from './support/app.js';
import { workspaceWithOwner } from './support/app-session.js';
import { fillPath, pathParams, routeName, withRouteTable } from './support/route-table.js';

// Whatever the database says when it fails stays in the log: no route, in any part of the API,
// answers with the driver's words. The routes come from the server itself, so a new one is covered.
const { value: t, routes } = await withRouteTable(() => createTestApp());
afterAll(async () => {
  await t.close();
});

const ws = await t.workspace();
await connectNumber(t.ctx, ws.id, {
  phoneNumberId: '555000111',
  businessAccountId: 'waba555000111',
  displayPhone: '+1 555 0100',
  verifyToken: 'verify-me',
  graphBaseUrl: 'http://127.0.0.1:9',
  accessToken: 'token',
  appSecret: 'app-secret',
});
const number = (await numberOfWorkspace(t.ctx, t.ctx.db, ws.id))!;
// The key is verified (and cached) while the database answers, so REST handlers run past it; the
// web app's calls carry a signed-in session, so they reach its lookup.
expect((await t.api('GET', '/contacts', ws.key)).statusCode).toBe(200);
const { client } = await workspaceWithOwner(t);

const DRIVER_ERRORS = {
  'a constraint violation': Object.assign(
    new Error('null value in column "phone" of relation "contacts" violates not-null constraint'),
    { code: '23502', detail: 'Failing row contains (ws_1, ct_1, null).', table: 'contacts' },
  ),
  'a refused connection': Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), {
    code: 'ECONNREFUSED',
    address: '10.0.0.5',
  }),
};
const DRIVER_WORDS = /violates not-null|Failing row contains|ECONNREFUSED|10\.0\.0\.5/;

function breakDatabase(err: Error): () => void {
  const db = t.ctx.db;
  const saved = { query: db.query, transaction: db.transaction, exec: db.exec };
  const fail = () => Promise.reject(err);
  Object.assign(db, { query: fail, transaction: fail, exec: fail });
  return () => Object.assign(db, saved);
}

describe.each(Object.entries(DRIVER_ERRORS))('with the database failing with %s', (_name, err) => {
  it.each(routes.map((r) => [routeName(r), r] as const))(
    '%s answers without its words',
    async (_r, route) => {
      const params = Object.fromEntries(
        pathParams(route.url).map((p) => [p, p === 'numberId' ? number.id : 'x1']),
      );
      const url = fillPath(route.url, params);
      const body =
        route.method === 'GET' || route.method === 'DELETE' ? undefined : '{"object":"x","entry":[]}';
      const restore = breakDatabase(err);
      try {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: {
            authorization: `Bearer ${ws.key}`,
            cookie: client.cookie,
            'x-parley-csrf': client.csrf,
            ...(body
              ? {
                  'content-type': 'application/json',
                  'x-hub-signature-256': hubSignature(body, 'app-secret'),
                }
              : {}),
          },
          ...(body ? { payload: body } : {}),
        });
        expect(res.body).not.toMatch(DRIVER_WORDS);
      } finally {
        restore();
      }
    },
  );
});
