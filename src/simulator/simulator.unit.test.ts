import { createServer, type Server } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath, type RegisteredRoute, routeName, withRouteTable } from '../../test/support/route-table.js';
import { simulator } from './plugin.js';
import { SimState } from './state.js';
import { simAppId } from './uploads.js';

const OPERATOR = 'operator-token-0123456789';

/** A loopback HTTP server that answers 200 and counts what it is sent. */
async function counter(): Promise<{ url: string; hits: string[]; server: Server }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits, server };
}

const numberOf = (id: string, receiver: string) => ({
  phoneNumberId: id,
  businessAccountId: `waba${id}`,
  displayPhone: '+1 555 0100',
  accessToken: `token-of-${id}`,
  appSecret: `secret-of-${id}`,
  webhookUrl: `${receiver}/api/webhooks/whatsapp/pn_${id}`,
});

describe('the simulator is closed to anyone without a token', () => {
  let app: FastifyInstance;
  let routes: RegisteredRoute[];
  let parley: Awaited<ReturnType<typeof counter>>;
  let elsewhere: Awaited<ReturnType<typeof counter>>;
  const state = new SimState();

  beforeAll(async () => {
    parley = await counter();
    elsewhere = await counter();
    ({ value: app, routes } = await withRouteTable(async () => {
      const server = Fastify();
      await server.register(simulator, {
        prefix: '/_sim',
        state,
        operatorToken: OPERATOR,
        receiverBase: parley.url,
      });
      await server.ready();
      return server;
    }));
    state.media.set('999', {
      id: '999',
      phoneNumberId: '111',
      mimeType: 'image/png',
      bytes: Buffer.from('png'),
      sha256: '',
    });
    state.uploads.set('upload:of-111', {
      id: 'upload:of-111',
      appId: simAppId({ businessAccountId: 'waba111' }),
      fileName: 'a.png',
      fileType: 'image/png',
      fileLength: 10,
      chunks: [],
      received: 0,
      handle: null,
    });
    for (const id of ['111', '222']) {
      const res = await app.inject({
        method: 'POST',
        url: '/_sim/numbers',
        headers: { authorization: `Bearer ${OPERATOR}` },
        payload: { ...numberOf(id, parley.url), templates: [] },
      });
      expect(res.statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await app.close();
    parley.server.close();
    elsewhere.server.close();
  });

  // Graph routes name a number, a business account or a media file (its download URL, 111's own);
  // every other route is a control route.
  const isGraph = (r: RegisteredRoute) =>
    r.path.startsWith('/:version/') || r.path.startsWith('/media-download/');
  const params = {
    version: 'v21.0',
    phoneNumberId: '111',
    wabaId: 'waba111',
    name: 'x',
    language: 'en',
    verdict: 'approve',
    mediaId: '999',
    appId: simAppId({ businessAccountId: 'waba111' }),
    uploadId: 'upload:of-111',
  };
  const call = (r: RegisteredRoute, authorization?: string) =>
    app.inject({
      method: r.method as 'GET',
      url: fillPath(r.url, params),
      headers: authorization ? { authorization } : {},
      ...(r.method === 'GET' ? {} : { payload: {} }),
    });

  it('registers both kinds of route', () => {
    expect(routes.filter(isGraph).length).toBeGreaterThanOrEqual(3);
    expect(routes.filter((r) => !isGraph(r)).length).toBeGreaterThanOrEqual(6);
  });

  it('answers every Graph route without, or with another number’s, access token as Meta does (190)', async () => {
    for (const r of routes.filter(isGraph)) {
      for (const authorization of [undefined, 'Bearer token-of-222', `Bearer ${OPERATOR}`, 'token-of-111']) {
        // GET /app names no object: any number's token is asked which app it belongs to.
        if (r.path === '/:version/app' && authorization === 'Bearer token-of-222') continue;
        const res = await call(r, authorization);
        expect({ route: routeName(r), authorization, status: res.statusCode }).toEqual({
          route: routeName(r),
          authorization,
          status: 401,
        });
        expect(res.json()).toEqual({
          error: {
            message: 'Invalid OAuth access token - Cannot parse access token',
            type: 'OAuthException',
            code: 190,
            fbtrace_id: expect.any(String),
          },
        });
      }
    }
    const own = await app.inject({
      method: 'GET',
      url: '/_sim/v21.0/waba111/message_templates',
      headers: { authorization: 'Bearer token-of-111' },
    });
    expect(own.statusCode).toBe(200);
  });

  it('refuses every control route without the operator token (401)', async () => {
    for (const r of routes.filter((x) => !isGraph(x))) {
      for (const authorization of [undefined, 'Bearer token-of-111', `Bearer ${OPERATOR}x`, OPERATOR]) {
        const res = await call(r, authorization);
        expect({ route: routeName(r), authorization, status: res.statusCode }).toEqual({
          route: routeName(r),
          authorization,
          status: 401,
        });
        expect(res.json()).toMatchObject({ error: 'unauthorized', message: expect.stringMatching(/token/) });
      }
    }
    const listed = await app.inject({
      method: 'GET',
      url: '/_sim/messages',
      headers: { authorization: `Bearer ${OPERATOR}` },
    });
    expect(listed.statusCode).toBe(200);
  });

  it('delivers no spoofed inbound message to a number’s webhook', async () => {
    const inbound = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/_sim/inbound',
        headers,
        payload: { from: '14155550123', text: 'spoofed', phone_number_id: '222' },
      });
    const before = parley.hits.length;
    expect((await inbound({ authorization: 'Bearer token-of-111' })).statusCode).toBe(401);
    expect(parley.hits.length).toBe(before);
    const real = await inbound({ authorization: `Bearer ${OPERATOR}` });
    expect(real.json()).toMatchObject({ delivered_status: 200 });
    expect(parley.hits.slice(before)).toEqual(['/api/webhooks/whatsapp/pn_222']);
  });

  it('posts webhooks only to Parley’s own receiver, never to a URL the caller chooses', async () => {
    const urls = [
      `${elsewhere.url}/api/webhooks/whatsapp/pn_333`,
      `${elsewhere.url}/anything`,
      `${parley.url}/api/webhooks/whatsapp/../../../admin`,
      `${parley.url}/api/webhooks/whatsapp/pn_333?next=${elsewhere.url}`,
      `${parley.url}@127.0.0.1:${new URL(elsewhere.url).port}/api/webhooks/whatsapp/pn_333`,
    ];
    const operator = { authorization: `Bearer ${OPERATOR}` };
    for (const [i, webhookUrl] of urls.entries()) {
      const res = await app.inject({
        method: 'POST',
        url: '/_sim/numbers',
        headers: operator,
        payload: { ...numberOf(`33${i}`, parley.url), webhookUrl },
      });
      expect({ webhookUrl, status: res.statusCode }).toEqual({ webhookUrl, status: 400 });
      expect(res.json().error).toMatch(/webhookUrl must be Parley's webhook receiver/);
    }
    const inbound = await Promise.all(
      urls.map((_, i) =>
        app.inject({
          method: 'POST',
          url: '/_sim/inbound',
          headers: operator,
          payload: { from: '14155550123', text: 'hi', phone_number_id: `33${i}` },
        }),
      ),
    );
    expect(elsewhere.hits).toEqual([]);
    expect(inbound.map((r) => r.statusCode)).toEqual(urls.map(() => 404));
  });
});
