import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { openPglite } from '../../src/db/pglite.js';
import { openPostgres } from '../../src/db/postgres.js';

/** The database a test file runs on: PGlite in memory, or a fresh PostgreSQL database per file. */
export const TEST_DB = process.env.PARLEY_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export interface TestDatabase {
  db: Db;
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * A fresh database for a test file. On PGlite it is always migrated (a copy of one migrated data
 * directory: test/support/pglite-template.ts). On PostgreSQL it is empty unless `migrated` is asked
 * for: then a copy of this run's migrated database (test/support/postgres-template.ts), which
 * CREATE DATABASE ... TEMPLATE makes in a fraction of the time the migrations take.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  if (process.env.PARLEY_TEST_DB === 'none') {
    throw new Error('a *.unit.test.ts file runs once, without a database: name it *.test.ts to get one');
  }
  if (TEST_DB === 'pglite') {
    const db = await openPglite(undefined, new Blob([readFileSync(inject('pgliteTemplate'))]));
    return { db, url: undefined, drop: () => db.close() };
  }
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('PARLEY_TEST_DB=postgres needs DATABASE_URL');
  const name = `parley_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(
    options.migrated
      ? `CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`
      : `CREATE DATABASE ${name}`,
  );
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), 10);
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
