import { afterAll, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { TEST_DB } from '../../../test/support/database.js';
import { until } from '../../../test/support/until.js';
import type { Db, Queryable } from '../../db/db.js';
import { sha256Hex } from '../../lib/hash.js';
import { updateWorkspace } from '../workspaces/update-workspace.js';
import { KeyVerifier } from './key-verifier.js';
import { revokeApiKey } from './revoke-api-key.js';

// Another instance's cache, as a second `serve --role api` keeps it: it hears revocations made through
// t.ctx.db only by notice, or by a poll run here by hand (NO_POLL keeps the timer out of the way).
const NO_POLL = 600_000;

const t = testAppForTests();
const verifiers: KeyVerifier[] = [];

afterAll(async () => {
  for (const v of verifiers) await v.stop();
});

async function instance(options: { db?: Queryable; listen?: Db['listen'] | null } = {}) {
  const verifier = new KeyVerifier(options.db ?? t.ctx.db, t.ctx.log);
  await verifier.start({
    everyMs: NO_POLL,
    listen: options.listen === null ? undefined : (options.listen ?? t.ctx.db.listen),
  });
  verifiers.push(verifier);
  return verifier;
}

async function keyOf(workspaceId: string) {
  const { rows } = await t.ctx.db.query<{ id: string; key_hash: string }>(
    'SELECT id, key_hash FROM api_keys WHERE workspace_id = $1',
    [workspaceId],
  );
  return rows[0]!;
}

/** A database whose key lookups read at once but answer only when released: a lookup held in flight. */
function holdingLookups() {
  let read!: () => void;
  let release!: () => void;
  const hasRead = new Promise<void>((r) => (read = r));
  const released = new Promise<void>((r) => (release = r));
  const db: Queryable = {
    query: async <R extends object>(text: string, params?: unknown[]) => {
      const result = await t.ctx.db.query<R>(text, params);
      if (text.includes('JOIN workspaces w')) {
        read();
        await released;
      }
      return result;
    },
  };
  return { db, hasRead, release };
}

it('drops a key revoked on another instance when the revocation commits, without its poll', async () => {
  const ws = await t.workspace();
  const elsewhere = await instance();
  expect(await elsewhere.verify(ws.key)).not.toBeNull();
  await revokeApiKey(t.ctx.db, (await keyOf(ws.id)).id);
  await until(async () => (await elsewhere.verify(ws.key)) === null, 5_000);
});

it('follows a new default country code when it commits, without its poll', async () => {
  const ws = await t.workspace({ defaultCountryCode: '91' });
  const elsewhere = await instance();
  expect((await elsewhere.verify(ws.key))?.defaultCountryCode).toBe('91');
  await updateWorkspace(t.ctx.db, ws.id, { default_country_code: '1' });
  await until(async () => (await elsewhere.verify(ws.key))?.defaultCountryCode === '1', 5_000);
});

it('does not cache a lookup that read the key before a revocation it heard of', async () => {
  const ws = await t.workspace();
  const hash = sha256Hex(ws.key);
  const heard: string[] = [];
  const lookups = holdingLookups();
  const elsewhere = await instance({
    db: lookups.db,
    listen: (channel, handlers) =>
      t.ctx.db.listen(channel, {
        ...handlers,
        notice: (payload) => {
          handlers.notice(payload);
          heard.push(payload);
        },
      }),
  });
  const inFlight = elsewhere.verify(ws.key);
  await lookups.hasRead;
  await revokeApiKey(t.ctx.db, (await keyOf(ws.id)).id);
  await until(() => heard.includes(`key:${hash}`), 5_000);
  lookups.release();
  // The request it was for ran alongside the revocation and is answered with what it read...
  expect(await inFlight).not.toBeNull();
  // ...but nothing after the revocation is.
  expect(await elsewhere.verify(ws.key)).toBeNull();
});

it('does not cache a lookup that read the key before a revocation its poll found', async () => {
  const ws = await t.workspace();
  const lookups = holdingLookups();
  const elsewhere = await instance({ db: lookups.db, listen: null });
  const inFlight = elsewhere.verify(ws.key);
  await lookups.hasRead;
  await revokeApiKey(t.ctx.db, (await keyOf(ws.id)).id);
  await elsewhere.sync();
  lookups.release();
  expect(await inFlight).not.toBeNull();
  expect(await elsewhere.verify(ws.key)).toBeNull();
});

it.runIf(TEST_DB === 'postgres')(
  'empties the cache when the listening connection drops, and hears notices again once it is back',
  async () => {
    const logged: string[] = [];
    const log = {
      warn: (...a: unknown[]) => void logged.push(`warn ${a.at(-1)}`),
      info: (...a: unknown[]) => void logged.push(`info ${a.at(-1)}`),
    };
    const a = await t.workspace();
    const b = await t.workspace();
    const elsewhere = new KeyVerifier(t.ctx.db, log);
    await elsewhere.start({ everyMs: NO_POLL, listen: t.ctx.db.listen });
    verifiers.push(elsewhere);
    expect(await elsewhere.verify(a.key)).not.toBeNull();
    expect(await elsewhere.verify(b.key)).not.toBeNull();

    const listeners = () =>
      t.ctx.db.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = 'parley-listen' AND datname = current_database()",
      );
    const before = (await listeners()).rows.map((r) => r.pid);
    expect(before.length).toBeGreaterThan(0);
    await t.ctx.db.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [before]);
    // A revocation whose notice nobody heard.
    await t.ctx.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [(await keyOf(a.id)).id]);
    await until(async () => (await elsewhere.verify(a.key)) === null, 5_000);

    await until(async () => (await listeners()).rows.some((r) => !before.includes(r.pid)), 10_000);
    await until(() => logged.includes('info API key revocation notices are heard again'), 10_000);
    expect(await elsewhere.verify(b.key)).not.toBeNull();
    await revokeApiKey(t.ctx.db, (await keyOf(b.id)).id);
    await until(async () => (await elsewhere.verify(b.key)) === null, 5_000);
    expect(logged.filter((l) => l.startsWith('warn'))).toEqual([
      'warn API key revocation notices are not heard: revoked keys are dropped by the poll until they are',
    ]);
  },
);
