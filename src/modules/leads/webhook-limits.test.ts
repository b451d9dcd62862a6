import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp, testAppForTests } from '../../../test/support/app.js';
import { expectIntakeError, freshAddress, leadsOf } from '../../../test/support/intake.js';
import { buildServer } from '../../http/server.js';
import { createAutomation } from '../automation/save-automation.js';
import { WEBHOOK_LIMITS } from '../rate-limit/create-limiter.js';

const t = testAppForTests({ queue: true });

async function webhookSequence(on: TestApp = t) {
  const ws = await on.workspace();
  const seq = await createAutomation(
    on.ctx,
    ws.id,
    { name: 'From n8n', trigger: { type: 'webhook' }, steps: [{ id: 'wait', type: 'wait', duration: '1d' }] },
    { publish: true },
  );
  return { ws, id: seq.id, secret: seq.secret!, url: `/api/automation/webhooks/${seq.id}/${seq.secret}` };
}

function post(
  url: string,
  body: unknown,
  remoteAddress: string,
  app = t.app,
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url, remoteAddress, payload: body as object });
}

// An authenticated body that makes no lead: answered 422 after the lookup, stores nothing, and is
// no failure of the caller's secret, so only the address and sequence budgets are spent.
const NO_LEAD = { note: 'no way to reach anyone' };

async function statuses(n: number, send: (i: number) => Promise<LightMyRequestResponse>) {
  const out = new Set<number>();
  for (let i = 0; i < n; i++) out.add((await send(i)).statusCode);
  return [...out];
}

function expectRetryAfter(res: LightMyRequestResponse, started: number) {
  const elapsed = Math.ceil((Date.now() - started) / 1000);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(60 - elapsed);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
}

describe('workflow webhook rate limits', () => {
  it(`refuses the request past ${WEBHOOK_LIMITS.perAddress} a minute from one address, whichever sequence, with 429 and Retry-After`, async () => {
    const [a, b] = [await webhookSequence(), await webhookSequence()];
    const client = freshAddress();
    const started = Date.now();
    const first = await post(a.url, NO_LEAD, client);
    expect(first.headers['ratelimit-policy']).toBe('"address";q=120;w=60, "sequence";q=600;w=60');
    expect(first.headers.ratelimit).toBe('"address";r=119;t=60, "sequence";r=599;t=60');
    const spent = await statuses(WEBHOOK_LIMITS.perAddress - 1, (i) =>
      post(i % 2 ? a.url : b.url, NO_LEAD, client),
    );
    expect(spent).toEqual([422]);
    const refused = await post(b.url, { email: 'late@example.com' }, client);
    expectIntakeError(
      refused,
      429,
      /^Too many requests from this address \(at most 120 a minute\); retry after \d+ seconds$/,
    );
    expectRetryAfter(refused, started);
    expect(await leadsOf(t, b.ws.id)).toEqual([]);
    // The same client written as IPv4-mapped IPv6 is the same client; another address has its own budget.
    expectIntakeError(await post(b.url, { email: 'late@example.com' }, `::ffff:${client}`), 429);
    expect((await post(b.url, { email: 'other@example.com' }, freshAddress())).statusCode).toBe(202);
  });

  it(`refuses the request past ${WEBHOOK_LIMITS.perSequence} a minute for one sequence, across addresses; another workspace's sequence is untouched`, async () => {
    const flooded = await webhookSequence();
    const other = await webhookSequence();
    const started = Date.now();
    expect(
      await statuses(WEBHOOK_LIMITS.perSequence, () => post(flooded.url, NO_LEAD, freshAddress())),
    ).toEqual([422]);
    const refused = await post(flooded.url, { email: 'late@example.com' }, freshAddress());
    expectIntakeError(refused, 429, /^Too many requests for this workflow \(at most 600 a minute\)/);
    expectRetryAfter(refused, started);
    expect(await leadsOf(t, flooded.ws.id)).toEqual([]);
    // The path secret and the header secret name the same sequence, so the same budget.
    const viaHeader = await t.app.inject({
      method: 'POST',
      url: `/api/automation/webhooks/${flooded.id}`,
      remoteAddress: freshAddress(),
      headers: { 'x-api-key': flooded.secret },
      payload: { email: 'late@example.com' },
    });
    expectIntakeError(viaHeader, 429);
    expect((await post(other.url, { email: 'fine@example.com' }, freshAddress())).statusCode).toBe(202);
  });

  it(`takes at most ${WEBHOOK_LIMITS.failuresPerAddress} wrong secrets or unknown sequences a minute from one address, then refuses even the right secret`, async () => {
    const s = await webhookSequence();
    const client = freshAddress();
    const started = Date.now();
    const wrong = await statuses(WEBHOOK_LIMITS.failuresPerAddress, (i) =>
      i % 2
        ? post(`/api/automation/webhooks/${s.id}/whsec_guess${i}`, NO_LEAD, client)
        : post(`/api/automation/webhooks/sq_guess${i}/whsec_guess`, NO_LEAD, client),
    );
    expect(wrong.sort()).toEqual([401, 404]);
    const refused = await post(s.url, { email: 'real@example.com' }, client);
    expectIntakeError(
      refused,
      429,
      /^Too many refused requests .* at most 10 a minute; retry after \d+ seconds$/,
    );
    expectRetryAfter(refused, started);
    expect(await leadsOf(t, s.ws.id)).toEqual([]);
    // The sequence's sender at another address is not held back by the guesser.
    expect((await post(s.url, { email: 'real@example.com' }, freshAddress())).statusCode).toBe(202);
  });

  it('spends no sequence budget on wrong secrets: strangers from many addresses cannot lock its sender out', async () => {
    const s = await webhookSequence();
    const wrong = `/api/automation/webhooks/${s.id}/whsec_wrong`;
    // More wrong guesses than the sequence's whole budget, each address to its own limit of refusals.
    const addresses = Math.ceil(WEBHOOK_LIMITS.perSequence / WEBHOOK_LIMITS.failuresPerAddress) + 1;
    for (let a = 0; a < addresses; a++) {
      const client = freshAddress();
      const answers = await statuses(WEBHOOK_LIMITS.failuresPerAddress, () => post(wrong, NO_LEAD, client));
      expect(answers).toEqual([401]);
      expectIntakeError(await post(wrong, NO_LEAD, client), 429, /^Too many refused requests/);
    }
    const real = await post(s.url, { email: 'real@example.com' }, freshAddress());
    expect(real.statusCode, real.body).toBe(202);
    expect(real.headers.ratelimit).toBe('"address";r=119;t=60, "sequence";r=599;t=60');
  });

  it(`answers ${WEBHOOK_LIMITS.failuresPerAddress} of many wrong posts arriving together 401 and 404, the rest 429`, async () => {
    const s = await webhookSequence();
    const client = freshAddress();
    const answers = await Promise.all(
      Array.from({ length: 3 * WEBHOOK_LIMITS.failuresPerAddress }, (_, i) =>
        i % 2
          ? post(`/api/automation/webhooks/${s.id}/whsec_guess${i}`, NO_LEAD, client)
          : post(`/api/automation/webhooks/sq_guess${i}/whsec_guess`, NO_LEAD, client),
      ),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401 || c === 404)).toHaveLength(WEBHOOK_LIMITS.failuresPerAddress);
    expect(codes.filter((c) => c === 429)).toHaveLength(2 * WEBHOOK_LIMITS.failuresPerAddress);
    for (const r of answers.filter((a) => a.statusCode === 429)) {
      expectIntakeError(r, 429, /^Too many refused requests/);
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('counts an unknown sequence id like any other, and refuses a limited request without asking the database', async () => {
    const client = freshAddress();
    const unknown = '/api/automation/webhooks/sq_00000000000000000000/whsec_x';
    // Spend the address's requests where nothing fails its secret: an unknown id is counted too.
    const s = await webhookSequence();
    await statuses(WEBHOOK_LIMITS.perAddress - 1, () => post(s.url, NO_LEAD, client));
    expectIntakeError(await post(unknown, NO_LEAD, client), 404);
    expectIntakeError(await post(unknown, NO_LEAD, client), 429);

    const query = vi.spyOn(t.ctx.db, 'query').mockRejectedValue(new Error('the database is down'));
    try {
      const limited = await post(s.url, { email: 'a@example.com' }, client);
      expectIntakeError(limited, 429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(query).not.toHaveBeenCalled();
      // Not limited, the same request does reach the failing database.
      expect(
        (await post(s.url, { email: 'a@example.com' }, freshAddress())).statusCode,
      ).toBeGreaterThanOrEqual(500);
      expect(query).toHaveBeenCalled();
    } finally {
      query.mockRestore();
    }
  });
});

describe.runIf(process.env.REDIS_URL)('workflow webhook rate limits shared through Redis', () => {
  it('hold the failure budget of an address across two server instances, exactly for posts arriving together', async () => {
    const a = await createTestApp({ env: { REDIS_URL: process.env.REDIS_URL! } });
    const b = await buildServer(a.ctx);
    try {
      const s = await webhookSequence(a);
      // An address no earlier run used: the counters live in Redis for a minute.
      const client = `10.252.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const wrong = `/api/automation/webhooks/${s.id}/whsec_wrong`;
      const answers = [];
      for (let i = 0; i < WEBHOOK_LIMITS.failuresPerAddress; i++) {
        answers.push((await post(wrong, NO_LEAD, client, i % 2 ? b : a.app)).statusCode);
      }
      expect(new Set(answers)).toEqual(new Set([401]));
      expectIntakeError(await post(s.url, { email: 'r@example.com' }, client, b), 429);
      expectIntakeError(await post(s.url, { email: 'r@example.com' }, client, a.app), 429);

      // Arriving together on both instances, the refusals are still counted exactly.
      const together = `10.253.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const codes = (
        await Promise.all(
          Array.from({ length: 3 * WEBHOOK_LIMITS.failuresPerAddress }, (_, i) =>
            post(wrong, NO_LEAD, together, i % 2 ? b : a.app),
          ),
        )
      ).map((r) => r.statusCode);
      expect(codes.filter((c) => c === 401)).toHaveLength(WEBHOOK_LIMITS.failuresPerAddress);
      expect(codes.filter((c) => c === 429)).toHaveLength(2 * WEBHOOK_LIMITS.failuresPerAddress);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
