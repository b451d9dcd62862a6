import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { testAppForTests } from '../../test/support/app.js';

const t = testAppForTests();

const get = (url: string, method: 'GET' | 'POST' = 'GET') => t.app.inject({ method, url });

it('serves the web app at / and for its own routes, with a strict content security policy', async () => {
  for (const url of ['/', '/contacts', '/flows/fl_123', '/settings/developer?x=1', '/invite/abc']) {
    const res = await get(url);
    expect(res.statusCode, url).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
    expect(res.headers['cache-control']).toBe('no-cache');
  }
});

it("never shadows the server's own paths", async () => {
  const api = await get('/api/nope');
  expect(api.statusCode).toBe(404);
  expect(api.json()).toMatchObject({ result: false, error: { code: 'not_found' } });
  // Under /api/v1 and /api/app authentication answers first.
  expect((await get('/api/v1/nope')).statusCode).toBe(401);
  expect((await get('/api/app/nope')).statusCode).toBe(401);
  expect((await get('/healthz')).json()).toEqual({ status: 'ok' });
  expect((await get('/f/ft_unknown')).body).not.toContain('<div id="root">');
  expect((await get('/assets/missing.js')).statusCode).toBe(404);
  expect((await get('/_sim/nope')).body).not.toContain('<div id="root">');
  const post = await get('/contacts', 'POST');
  expect(post.statusCode).toBe(404);
});

it('serves the built assets with a long cache lifetime', async () => {
  const index = (await get('/')).body;
  const asset = /src="(\/assets\/[^"]+\.js)"/.exec(index)?.[1];
  expect(asset).toBeDefined();
  const res = await get(asset!);
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
});

it('serves each asset brotli- or gzip-compressed as the browser accepts, the same bytes once decoded', async () => {
  const index = (await get('/')).body;
  const asset = /src="(\/assets\/[^"]+\.js)"/.exec(index)![1]!;
  const plain = await t.app.inject({ url: asset, headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers['content-encoding']).toBeUndefined();
  const decoders = { br: brotliDecompressSync, gzip: gunzipSync };
  for (const [encoding, decode] of Object.entries(decoders)) {
    const res = await t.app.inject({ url: asset, headers: { 'accept-encoding': encoding } });
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(decode(res.rawPayload).equals(plain.rawPayload)).toBe(true);
  }
});

it("loads a page's code when the page is opened, not with the shell", async () => {
  const index = (await get('/')).body;
  const entry = (await get(/src="(\/assets\/[^"]+\.js)"/.exec(index)![1]!)).body;
  expect(entry).toContain('Skip to content');
  expect(entry).not.toContain('Publish & embed');
  const form = /assets\/FormPage-[\w-]+\.js/.exec(entry)?.[0];
  expect(form).toBeDefined();
  expect((await get(`/${form}`)).body).toContain('Publish & embed');
});
