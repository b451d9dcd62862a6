import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from './support/app.js';
import { workspaceWithOwner } from './support/app-session.js';
import { expectRestError } from './support/endpoint-security.js';
import { connectSimulator, listen } from './support/messaging.js';
import { routeName, withRouteTable } from './support/route-table.js';

// The routes come from the server itself: a route that starts reading multipart gets these tests.
const { value: t, routes } = await withRouteTable(() => createTestApp({ queue: true }));
const base = await listen(t);
afterAll(() => t.close());
const ws = await workspaceWithOwner(t);
// With a number connected the media upload reads the file instead of refusing the workspace first.
await connectSimulator(t, base, ws.workspaceId);

const multipartRoutes = routes.filter(
  (r) => r.multipart && r.method === 'POST' && r.prefix.startsWith('/api/'),
);

const disposition = 'Content-Disposition: form-data; name="file"; filename="a.csv"';
/** Broken forms, each answered in the envelope with the same 4xx by every route, never a 500. */
const MALFORMED: [name: string, contentType: string, body: string, status: number][] = [
  ['no boundary', 'multipart/form-data', `--x\r\n${disposition}\r\n\r\nphone\r\n--x--\r\n`, 400],
  ['a body that is not multipart', 'multipart/form-data; boundary=x', 'phone\n+14155550100\n', 400],
  [
    'a file cut off before its closing boundary',
    'multipart/form-data; boundary=x',
    `--x\r\n${disposition}\r\nContent-Type: text/csv\r\n\r\nphone\n+1415555`,
    400,
  ],
  ['part headers cut off', 'multipart/form-data; boundary=x', `--x\r\n${disposition}\r\nContent-Ty`, 400],
  // Busboy skips a part whose headers it cannot read, and finds no parts in an empty body: no file.
  [
    'a part header too long to read',
    'multipart/form-data; boundary=x',
    `--x\r\n${'X'.repeat(20_000)}\r\n\r\nphone\r\n--x--\r\n`,
    422,
  ],
  ['an empty body', 'multipart/form-data; boundary=x', '', 422],
];

const send = (route: (typeof routes)[number], contentType: string, payload: string) =>
  t.app.inject({
    method: route.method as 'POST',
    url: route.url,
    headers: {
      'content-type': contentType,
      ...(route.prefix === '/api/v1'
        ? { authorization: `Bearer ${ws.apiKey}` }
        : { cookie: ws.client.cookie, 'x-parley-csrf': ws.client.csrf }),
    },
    payload,
  });

it('finds every route that reads multipart', () => {
  expect(multipartRoutes.map((r) => `${r.prefix} ${routeName(r)}`).sort()).toEqual([
    '/api/app POST /contacts/import',
    '/api/app POST /media',
    '/api/app POST /templates/header-sample',
    '/api/v1 POST /contacts/import',
    '/api/v1 POST /media',
    '/api/v1 POST /templates/header-sample',
  ]);
});

describe.each(multipartRoutes.map((r) => [`${r.prefix} ${routeName(r)}`, r] as const))(
  '%s',
  (_name, route) => {
    it.each(MALFORMED)('answers %s with %i in the envelope', async (_body, contentType, payload, status) => {
      const res = await send(route, contentType, payload);
      expectRestError(res, status, status === 400 ? 'bad_request' : 'validation_error');
      if (status === 422)
        expect(res.json().error.details).toEqual([expect.objectContaining({ field: 'file' })]);
    });
  },
);
