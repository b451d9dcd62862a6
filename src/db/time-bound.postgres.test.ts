import { afterEach, beforeAll, expect, it } from 'vitest';
import { testAppForTests } from '../../test/support/app.js';
import { workspaceWithOwner } from '../../test/support/app-session.js';
import { expectRestError } from '../../test/support/endpoint-security.js';
import { EXPENSIVE_READ } from './time-bound.js';

const t = testAppForTests();
const saved = { ...EXPENSIVE_READ };
afterEach(() => Object.assign(EXPENSIVE_READ, saved));
let ws: Awaited<ReturnType<typeof workspaceWithOwner>>;
beforeAll(async () => {
  ws = await workspaceWithOwner(t);
});
// Without the bound a read waits for the pool's own 30-second statement limit, past this.
const WITHIN = 15_000;

/** Runs `during` while another transaction holds `table` locked, so every read of it waits. */
async function whileLocked<T>(table: string, during: () => Promise<T>): Promise<T> {
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const holder = t.ctx.db.transaction(async (tx) => {
    await tx.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    locked();
    await released;
  });
  await isLocked;
  try {
    return await during();
  } finally {
    release();
    await holder;
  }
}

it(
  'answers the dashboard 503 when its counts run past the bound, and normally once they do not',
  async () => {
    const { client } = ws;
    EXPENSIVE_READ.ms = 300;
    const slow = await whileLocked('messages', () => client.call('GET', '/dashboard?days=7'));
    expectRestError(slow, 503, 'unavailable');
    expect(slow.json().error.message).toMatch(/took longer than 0.3 seconds/);
    expect((await client.call('GET', '/dashboard?days=7')).statusCode).toBe(200);
  },
  WITHIN,
);

it(
  "answers an audience's count 503 past the bound",
  async () => {
    const { apiKey } = ws;
    EXPENSIVE_READ.ms = 300;
    const body = { audience: { tags_all: ['vip'] } };
    const slow = await whileLocked('contacts', () => t.api('POST', '/broadcasts/audience', apiKey, body));
    expectRestError(slow, 503, 'unavailable');
    const res = await t.api('POST', '/broadcasts/audience', apiKey, body);
    expect(res.json()).toMatchObject({ result: true, count: 0 });
  },
  WITHIN,
);
