import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it, vi } from 'vitest';
import { tempDataDir } from '../../test/support/cli.js';
import { openPglite } from './pglite.js';
import { openPgliteDir } from './pglite-seed.js';

const tmp = tempDataDir();
const seed = join(tmp.dir, 'seed');
const migrations = (db: { query: (t: string) => Promise<{ rows: object[] }> }) =>
  db.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'schema_migrations'");

beforeAll(async () => {
  // A seed as the build writes one: a migrated data directory, shut down.
  const db = await openPglite(seed, new Blob([readFileSync(inject('pgliteTemplate'))]));
  await db.close();
});
afterAll(() => tmp.remove());

it('starts a new data directory as a copy of the seed, owner-only, and leaves the seed as it was', async () => {
  const dir = join(tmp.dir, 'new', 'pg');
  const db = await openPgliteDir(dir, undefined, seed);
  expect((await migrations(db)).rows).toEqual([{ n: 1 }]);
  await db.query('CREATE TABLE only_here (x int)');
  await db.close();
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(readdirSync(join(tmp.dir, 'new'))).toEqual(['pg']);
  const again = await openPglite(seed);
  expect((await again.query("SELECT to_regclass('only_here') AS t")).rows).toEqual([{ t: null }]);
  await again.close();
});

it('opens a directory that already holds a database as it is: its data stay', async () => {
  const dir = join(tmp.dir, 'kept', 'pg');
  const first = await openPgliteDir(dir, undefined, join(tmp.dir, 'no-seed-here'));
  await first.query('CREATE TABLE mine (x int)');
  await first.close();
  const db = await openPgliteDir(dir, undefined, seed);
  expect((await db.query("SELECT to_regclass('mine')::text AS t")).rows).toEqual([{ t: 'mine' }]);
  expect((await migrations(db)).rows).toEqual([{ n: 0 }]);
  await db.close();
}, 120_000);

it('falls back to creating the database when the seed does not open, and says so', async () => {
  const broken = join(tmp.dir, 'broken');
  const db0 = await openPglite(broken, new Blob([readFileSync(inject('pgliteTemplate'))]));
  await db0.close();
  writeFileSync(join(broken, 'PG_VERSION'), '9\n');
  const warn = vi.fn();
  const dir = join(tmp.dir, 'fallback', 'pg');
  const db = await openPgliteDir(dir, { warn, info: vi.fn() }, broken);
  expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  expect((await migrations(db)).rows).toEqual([{ n: 0 }]);
  await db.close();
  expect(warn).toHaveBeenCalledWith(expect.anything(), expect.stringMatching(/did not open/));
}, 120_000);
