import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { buildServer } from '../../http/server.js';
import { createApiKey } from '../api-keys/create-api-key.js';
import { createApiRateLimiter } from './create-limiter.js';
import { RedisRateLimiter } from './redis-limiter.js';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
});

async function exhaust(send: () => Promise<{ statusCode: number }>, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await send()).statusCode);
  return statuses;
}

describe('rate limit through HTTP (300 per minute per key)', () => {
  it('sets the IETF fields on every response and refuses the 301st request with 429 and Retry-After', async () => {
    const t = await createTestApp();
    apps.push(t);
    const { key } = await t.workspace();
    const other = await t.workspace();
    const started = Date.now();
    const first = await t.api('GET', '/templates', key);
    expect(first.headers['ratelimit-policy']).toBe('"key";q=300;w=60');
    expect(first.headers.ratelimit).toBe('"key";r=299;t=60');
    const statuses = await exhaust(() => t.api('GET', '/templates', key), 299);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await t.api('POST', '/contacts', key, { phone: '+14155552671' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    // The first request leaves the window 60 s after it was made: no earlier retry can succeed.
    const elapsed = Math.ceil((Date.now() - started) / 1000);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(60 - elapsed);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers.ratelimit).toMatch(/^"key";r=0;t=\d+$/);
    // Refused work was not done.
    expect((await t.ctx.db.query('SELECT count(*)::int AS n FROM contacts')).rows[0]).toEqual({ n: 0 });
    // Another key, even of another workspace, has its own budget.
    expect((await t.api('GET', '/templates', other.key)).statusCode).toBe(200);
  });
});

// The test app uses this process's memory unless given a limiter; with REDIS_URL set, the same rule
// is checked on the Redis store the server picks in production.
const stores = [
  { store: 'memory', redisUrl: undefined },
  ...(process.env.REDIS_URL ? [{ store: 'redis', redisUrl: process.env.REDIS_URL }] : []),
];

describe.each(stores)('rate limit per key, not per workspace ($store)', ({ redisUrl }) => {
  it('gives each key of one workspace its own 300 per minute', async () => {
    const t = await createTestApp({ limiter: createApiRateLimiter(redisUrl) });
    apps.push(t);
    const { id, key: first } = await t.workspace();
    const { key: second } = await createApiKey(t.ctx.db, id);
    const statuses = await exhaust(() => t.api('GET', '/templates', first), 300);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect((await t.api('GET', '/templates', first)).statusCode).toBe(429);
    // The second key of the same workspace has spent nothing yet.
    const other = await t.api('GET', '/templates', second);
    expect(other.statusCode).toBe(200);
    expect(other.headers.ratelimit).toBe('"key";r=299;t=60');
    expect((await t.api('GET', '/templates', first)).statusCode).toBe(429);
  });
});

describe.runIf(process.env.REDIS_URL)('rate limit shared through Redis', () => {
  it('holds 300 per minute for one key across two server instances', async () => {
    const redisUrl = process.env.REDIS_URL!;
    const t = await createTestApp({ limiter: new RedisRateLimiter(redisUrl, 300, 60_000) });
    apps.push(t);
    const second = await buildServer({ ...t.ctx, limiter: new RedisRateLimiter(redisUrl, 300, 60_000) });
    const { key } = await t.workspace();
    const viaSecond = () =>
      second.inject({ method: 'GET', url: '/api/v1/templates', headers: { 'x-api-key': key } });
    const a = await exhaust(() => t.api('GET', '/templates', key), 150);
    const b = await exhaust(viaSecond, 150);
    expect([...a, ...b].every((s) => s === 200)).toBe(true);
    expect((await viaSecond()).statusCode).toBe(429);
    const refused = await t.api('GET', '/templates', key);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await second.close();
    await second.ctx.limiter.close();
  });
});
