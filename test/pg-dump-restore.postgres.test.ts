import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { pendingMigrations } from '../src/db/migrate.js';
import { openPostgres } from '../src/db/postgres.js';
import { Queue } from '../src/jobs/queue.js';
import { testAppForTests } from './support/app.js';
import { tempDataDir } from './support/cli.js';

const t = testAppForTests();

/** The commands docs/operations.md gives for PostgreSQL, read from it: the test runs what the docs say. */
function documentedCommands(): string[] {
  const doc = readFileSync(join(import.meta.dirname, '../docs/operations.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### PostgreSQL (`DATABASE_URL`): `pg_dump` and `pg_restore`'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block.split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));
}

it('backs up and restores PostgreSQL with the documented pg_dump and pg_restore: the data and a queued job', async () => {
  const ws = await t.workspace();
  const created = await t.api('POST', '/contacts', ws.key, { phone: '+14155550100', name: 'Asha' });
  expect(created.statusCode).toBe(201);
  const queue = await Queue.start(t.ctx.db, { work: false, log: pino({ level: 'silent' }) });
  const jobId = await queue.send(
    'templates.sync',
    { numberId: 'nb_later' },
    { startAfter: new Date(Date.now() + 3_600_000) },
  );
  await queue.stop();

  const sourceUrl = t.ctx.config.databaseUrl!;
  const name = `parley_restored_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const restoreUrl = new URL(sourceUrl);
  restoreUrl.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: sourceUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const work = tempDataDir();
  try {
    const commands = documentedCommands();
    expect(commands.map((c) => c.split(' ')[0])).toEqual(['pg_dump', 'pg_restore']);
    for (const command of commands) {
      await promisify(execFile)('sh', ['-c', command], {
        cwd: work.dir,
        env: {
          PATH: `/usr/bin:${process.env.PATH}`,
          DATABASE_URL: sourceUrl,
          RESTORE_URL: restoreUrl.toString(),
        },
      });
    }
    const db = await openPostgres(restoreUrl.toString(), 2);
    try {
      expect(await pendingMigrations(db)).toEqual([]);
      const contacts = await db.query<{ name: string }>('SELECT name FROM contacts WHERE workspace_id = $1', [
        ws.id,
      ]);
      expect(contacts.rows).toEqual([{ name: 'Asha' }]);
      const jobs = await db.query<{ name: string; state: string; data: unknown }>(
        'SELECT name, state, data FROM pgboss.job WHERE id = $1',
        [jobId],
      );
      expect(jobs.rows).toEqual([
        { name: 'templates.sync', state: 'created', data: { numberId: 'nb_later' } },
      ]);
      // The job queue opens on the restored schema as it is (no reinstall that would drop the job).
      await (await Queue.start(db, { work: false, log: pino({ level: 'silent' }) })).stop();
      expect((await db.query('SELECT 1 FROM pgboss.job WHERE id = $1', [jobId])).rows).toHaveLength(1);
    } finally {
      await db.close();
    }
  } finally {
    work.remove();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}, 120_000);
