import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PostgreSQL database of this run that each migrated test database is created from. */
    postgresTemplate: string;
  }
}

/**
 * Vitest global setup: with DATABASE_URL set, one PostgreSQL database migrated for this run, that
 * createTestDatabase({ migrated: true }) copies (CREATE DATABASE ... TEMPLATE) instead of running the
 * 45 migrations in every file's fresh database. Named for this run and dropped after it: other
 * checkouts on the same server may be running other migrations.
 */
export default async function postgresTemplate(
  project: TestProject,
): Promise<(() => Promise<void>) | undefined> {
  const base = process.env.DATABASE_URL;
  // Global setups run once, for the root project: made only when a PostgreSQL project is to run.
  const onPostgres = project.vitest.projects.some((p) => p.config.env?.PARLEY_TEST_DB === 'postgres');
  if (!base || !onPostgres) return undefined;
  const name = `parley_tpl_${process.pid}_${Date.now().toString(36)}`;
  await admin(base, `CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), 1, { statementTimeouts: false });
  try {
    await migrate(db);
  } finally {
    // No session may stay connected to a template: CREATE DATABASE would refuse to copy it.
    await db.close();
  }
  project.provide('postgresTemplate', name);
  return () => admin(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

async function admin(base: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}
