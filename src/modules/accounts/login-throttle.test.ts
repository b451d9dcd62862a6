import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { secondInstance, testAppForTests } from '../../../test/support/app.js';
import { PASSWORD, workspaceWithOwner } from '../../../test/support/app-session.js';
import { TEST_DB } from '../../../test/support/database.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { sha256Hex } from '../../lib/hash.js';

const t = testAppForTests();

// Each test guesses from an address of its own, so one test's failures do not throttle another's.
let lastOctet = 0;
const newAddress = () => `198.51.100.${++lastOctet}`;

function login(app: FastifyInstance, address: string, email: string, password: string) {
  return app.inject({
    method: 'POST',
    url: '/api/app/login',
    remoteAddress: address,
    headers: { 'x-parley-csrf': '1' },
    payload: { email, password },
  });
}

type Answer = Awaited<ReturnType<typeof login>>;

/** 149 wrong guesses at once, then the right password, spread over the given instances. */
async function guessAll(apps: FastifyInstance[], address: string, email: string): Promise<Answer[]> {
  const attempts = Array.from({ length: 150 }, (_, i) => i);
  return Promise.all(
    attempts.map((i) =>
      login(apps[i % apps.length]!, address, email, i === 149 ? PASSWORD : `wrong guess ${i}`),
    ),
  );
}

function expectThrottled(answers: Answer[]): void {
  const statuses = answers.map((a) => a.statusCode);
  // Ten attempts per e-mail address reach the password check, however many arrive at once.
  expect(statuses.filter((s) => s === 401)).toHaveLength(10);
  expect(statuses.filter((s) => s === 429)).toHaveLength(140);
  const right = answers[149]!;
  expectRestError(right, 429, 'rate_limited');
  const retryAfter = Number(right.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
}

describe('sign-in throttle under concurrent guesses', () => {
  it('lets ten of 150 simultaneous attempts reach the password check, and not the right one last', async () => {
    const { client } = await workspaceWithOwner(t);
    expectThrottled(await guessAll([t.app], newAddress(), client.email));
  });

  it.runIf(TEST_DB === 'postgres')('counts the same across two instances on one database', async () => {
    const other = await secondInstance(t);
    try {
      const { client } = await workspaceWithOwner(t);
      expectThrottled(await guessAll([t.app, other.app], newAddress(), client.email));
    } finally {
      await other.close();
    }
  });

  it('counts attempts per client address across e-mail addresses', async () => {
    const address = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(t.app, address, `nobody${i}@example.com`, 'wrong guess')),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it('does not hold a successful sign-in against its address or e-mail address', async () => {
    const { client } = await workspaceWithOwner(t);
    const address = newAddress();
    for (let i = 0; i < 9; i++) {
      expect((await login(t.app, address, client.email, `wrong guess ${i}`)).statusCode).toBe(401);
    }
    expect((await login(t.app, address, client.email, PASSWORD)).statusCode).toBe(200);
    // The success cleared the e-mail address's failures: nine more wrong guesses still get 401.
    for (let i = 0; i < 9; i++) {
      expect((await login(t.app, address, client.email, `wrong guess ${i}`)).statusCode).toBe(401);
    }
    expect((await login(t.app, address, client.email, PASSWORD)).statusCode).toBe(200);
  });
});

describe('sign-in throttle against strangers', () => {
  it('does not lock the owner out of an address they signed in from, whatever strangers guess elsewhere', async () => {
    const { client } = await workspaceWithOwner(t);
    const home = newAddress();
    expect((await login(t.app, home, client.email, PASSWORD)).statusCode).toBe(200);
    // Four strangers, ten guesses each: past 30 for the e-mail address, unknown addresses are refused.
    const answers: number[] = [];
    for (let a = 0; a < 4; a++) {
      const stranger = newAddress();
      for (let i = 0; i < 10; i++)
        answers.push((await login(t.app, stranger, client.email, `guess ${i}`)).statusCode);
    }
    expect(answers.filter((s) => s === 401)).toHaveLength(30);
    expect(answers.filter((s) => s === 429)).toHaveLength(10);
    // An address that never signed in is refused by the e-mail address's count alone, right password or not.
    expectRestError(await login(t.app, newAddress(), client.email, PASSWORD), 429, 'rate_limited');
    // The owner at home is not.
    expect((await login(t.app, home, client.email, PASSWORD)).statusCode).toBe(200);
  });

  it('still holds a known address to ten attempts of its own for the e-mail address', async () => {
    const { client } = await workspaceWithOwner(t);
    const home = newAddress();
    expect((await login(t.app, home, client.email, PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) {
      expect((await login(t.app, home, client.email, `wrong guess ${i}`)).statusCode).toBe(401);
    }
    expectRestError(await login(t.app, home, client.email, PASSWORD), 429, 'rate_limited');
    // Another e-mail address from the same client address is counted apart.
    const other = await workspaceWithOwner(t);
    expect((await login(t.app, home, other.client.email, PASSWORD)).statusCode).toBe(200);
  });

  it('keeps the addresses signed in from as keyed hashes only', async () => {
    const { client } = await workspaceWithOwner(t);
    const home = newAddress();
    expect((await login(t.app, home, client.email, PASSWORD)).statusCode).toBe(200);
    const { rows } = await t.ctx.db.query<{ address_hash: string }>(
      'SELECT address_hash FROM known_sign_in_addresses WHERE user_id = $1',
      [client.userId],
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(home);
    expect(rows.map((r) => r.address_hash)).not.toContain(sha256Hex(home));
  });
});

describe('sessions started per account', () => {
  it('caps the sign-ins of one account at 20 in 15 minutes, from any address', async () => {
    const { client } = await workspaceWithOwner(t);
    const address = newAddress();
    // workspaceWithOwner signed in once.
    for (let i = 1; i < 20; i++) {
      expect((await login(t.app, i % 2 ? address : newAddress(), client.email, PASSWORD)).statusCode).toBe(
        200,
      );
    }
    const refused = await login(t.app, address, client.email, PASSWORD);
    expectRestError(refused, 429, 'rate_limited');
    expect(refused.json().error.message).toMatch(/signed in 20 times in 15 minutes/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['set-cookie']).toBeUndefined();
    // Another account is not held back.
    const other = await workspaceWithOwner(t);
    expect((await login(t.app, address, other.client.email, PASSWORD)).statusCode).toBe(200);
  });
});

describe('invitation throttle', () => {
  it('counts wrong passwords for an existing account on one invitation, though each rolls back', async () => {
    const a = await workspaceWithOwner(t);
    const b = await workspaceWithOwner(t);
    const inv = (
      await a.client.call('POST', '/invitations', { email: b.client.email, role: 'member' })
    ).json();
    const token = inv.url.split('/invite/')[1];
    const address = newAddress();
    const accept = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/app/invitations/accept',
        remoteAddress: address,
        headers: { 'x-parley-csrf': '1' },
        payload: { token, password },
      });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => accept(`wrong guess ${i}`)));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    expectRestError(await accept(PASSWORD), 429, 'rate_limited');
    const { rows } = await t.ctx.db.query<{ subject: string }>('SELECT subject FROM login_attempts');
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});
