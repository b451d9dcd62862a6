import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../db/db.js';
import { knownMigrations, migrate } from '../../db/migrate.js';
import { openPglite } from '../../db/pglite.js';
import { openPostgres } from '../../db/postgres.js';
import { Queue } from '../../jobs/queue.js';
import { DataDirBusyError, lockDataDir } from '../../runtime/data-dir-lock.js';
import { createLogger } from '../../runtime/logger.js';
import { countUnfinished, jobTable, queueNames, unfinishedJobs } from './move-jobs.js';
import { withChecksSuspended } from './move-load.js';
import { copyMediaToPostgres, countMedia } from './move-media.js';
import { copyRows, copySequences, countRows, listTables, qualified, type TableShape } from './move-tables.js';

/** A move refused or failed for a reason the operator can fix: one sentence for the CLI. */
export class MoveError extends Error {}

export interface MoveOptions {
  /** A DATA_DIR layout: pg/ (PGlite), media/, secret.key, simulator.token. */
  dataDir: string;
  /** An empty PostgreSQL database. */
  databaseUrl: string;
  /** Check and count only; nothing is written to the target. */
  dryRun?: boolean;
  /** Where the new server keeps media: the files stay under DATA_DIR/media, or go into the database. */
  media?: 'filesystem' | 'postgres';
  /** Progress, one line at a time. */
  log?: (line: string) => void;
  /** Runs in the loading transaction after every row went in (tests break the copy here). */
  afterLoad?: (tx: Pick<Db, 'query'>) => Promise<void>;
}

export interface Count {
  name: string;
  source: number;
  /** null in a dry run. */
  target: number | null;
}

export interface MoveReport {
  dryRun: boolean;
  tables: Count[];
  /** Unfinished jobs per queue. */
  jobs: Count[];
  /** Unfinished jobs of queues this version no longer has (not moved), per queue. */
  droppedJobs: Record<string, number>;
  media: { store: 'filesystem' | 'postgres'; files: number; bytes: number; target: number | null };
  /** Numbers that send through the simulator mounted on the embedded server. */
  simulatorNumbers: number;
  /** Every count equal on both sides (a dry run: true). */
  ok: boolean;
  elapsedMs: number;
}

/** What `parley migrate` fills on a new database: compared, not copied. */
const FILLED_BY_MIGRATE = 'schema_migrations';

/**
 * Moves an embedded data directory into an empty PostgreSQL database: schema by this version's
 * migrations and pg-boss, then every table's rows and the queue's unfinished jobs in one transaction,
 * then media when they go into the database, then every count compared. `parley move` and
 * `parley restore` (an extracted backup is a data directory) call it.
 */
export async function moveDataDirToPostgres(options: MoveOptions): Promise<MoveReport> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const mediaStore = options.media ?? 'filesystem';
  const pgDir = join(options.dataDir, 'pg');
  if (!existsSync(join(pgDir, 'PG_VERSION'))) {
    throw new MoveError(
      `${options.dataDir} holds no embedded database (no pg/ directory): set DATA_DIR to the data directory to move`,
    );
  }
  let unlock: () => void;
  try {
    unlock = lockDataDir(options.dataDir);
  } catch (err) {
    if (!(err instanceof DataDirBusyError)) throw err;
    throw new MoveError(
      `a Parley server (process ${err.pid}) is running on ${options.dataDir}: stop it first, since nothing may be written to it after the move`,
    );
  }
  const closers: (() => Promise<void> | void)[] = [unlock];
  try {
    const target = await openTarget(options.databaseUrl);
    closers.push(() => target.close());
    await refuseNonEmpty(target, options.databaseUrl);
    const source = await openPglite(pgDir).catch((err: Error) => {
      throw new MoveError(`cannot open the embedded database in ${pgDir} (${err.message})`);
    });
    closers.push(() => source.close());
    await migrateWithQueue(source);
    // Fresh statistics let each page be a range of the primary key's index, not a scan and sort of
    // the table's rest (200,000 messages: 17 s without).
    await source.exec('ANALYZE');
    const unknown = await newerMigrations(source);
    if (unknown.length > 0) {
      throw new MoveError(
        `the data directory was written by a newer Parley (migrations ${unknown.join(', ')}): move it with that version`,
      );
    }

    const tables = (await listTables(source, 'public')).filter((t) => t.name !== FILLED_BY_MIGRATE);
    const sourceCounts = new Map<string, number>();
    for (const t of tables) sourceCounts.set(t.name, await countRows(source, t));
    const sourceQueues = await queueNames(source);
    const sourceJobs = await countUnfinished(source);
    const media = await countMedia(join(options.dataDir, 'media'));
    const simulatorNumbers = await countSimulatorNumbers(source);
    const report: MoveReport = {
      dryRun: !!options.dryRun,
      tables: tables.map((t) => ({ name: t.name, source: sourceCounts.get(t.name)!, target: null })),
      jobs: Object.entries(sourceJobs)
        .filter(([queue]) => sourceQueues.includes(queue))
        .map(([name, source]) => ({ name, source, target: null })),
      droppedJobs: {},
      media: { store: mediaStore, ...media, target: null },
      simulatorNumbers,
      ok: true,
      elapsedMs: 0,
    };
    if (options.dryRun) return { ...report, elapsedMs: Date.now() - started };

    log('creating the schema and the job queue on the target');
    await writeTarget(source, target, tables, sourceJobs, report, options).catch((err: Error) => {
      if (err instanceof MoveError) throw err;
      throw new MoveError(
        `the move into ${shown(options.databaseUrl)} stopped (${err.message}): fix that, drop and create the database again, and run the move again`,
      );
    });
    report.ok =
      [...report.tables, ...report.jobs].every((c) => c.source === c.target) &&
      report.media.target === media.files;
    return { ...report, elapsedMs: Date.now() - started };
  } finally {
    for (let close = closers.pop(); close; close = closers.pop()) await close();
  }
}

/** Schema, then rows and unfinished jobs in one transaction, then media; fills in the target's counts. */
async function writeTarget(
  source: Db,
  target: Db,
  tables: TableShape[],
  sourceJobs: Record<string, number>,
  report: MoveReport,
  options: MoveOptions,
): Promise<void> {
  const log = options.log ?? (() => {});
  const media = report.media;
  await migrateWithQueue(target);
  await compareMigrations(source, target);
  const queues = await queueNames(target);
  report.jobs = report.jobs.filter((j) => queues.includes(j.name));
  report.droppedJobs = Object.fromEntries(
    Object.entries(sourceJobs).filter(([queue]) => !queues.includes(queue)),
  );
  const jobs = await jobTable(source);

  await target.transaction(async (tx) => {
    await withChecksSuspended(tx, 'public', async () => {
      for (const t of tables) {
        // Rows the migrations seeded (plans) give way to the data directory's own.
        await tx.query(`DELETE FROM ${qualified(t)}`);
        const copied = await copyRows(source, tx, t);
        log(`${t.name}: ${copied} rows`);
      }
      await copySequences(source, tx, 'public');
    });
    const copied = await copyRows(source, tx, jobs, unfinishedJobs(queues));
    log(`job queue: ${copied} unfinished jobs`);
    await options.afterLoad?.(tx);
  });

  for (const row of report.tables) row.target = await countRows(target, tableNamed(tables, row.name));
  const targetJobs = await countUnfinished(target, queues);
  for (const row of report.jobs) row.target = targetJobs[row.name] ?? 0;
  if (media.store === 'postgres') {
    log(`media: copying ${media.files} files into the database`);
    const before = await countMediaObjects(target);
    await copyMediaToPostgres(join(options.dataDir, 'media'), target, (done) =>
      log(`media: ${done} of ${media.files} files`),
    );
    report.media.target = (await countMediaObjects(target)) - before;
  } else {
    report.media.target = (await countMedia(join(options.dataDir, 'media'))).files;
  }
}

function tableNamed(tables: TableShape[], name: string): TableShape {
  return tables.find((t) => t.name === name)!;
}

/** The password stays out of every message. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return `${u.host}${u.pathname}`;
  } catch {
    return 'the given URL';
  }
}

async function openTarget(url: string): Promise<Db> {
  try {
    new URL(url);
  } catch {
    throw new MoveError('--to is not a URL: give it as postgres://USER:PASSWORD@HOST:PORT/DATABASE');
  }
  if (!/^postgres(ql)?:$/.test(new URL(url).protocol)) {
    throw new MoveError('--to must start with postgres:// or postgresql://');
  }
  try {
    return await openPostgres(url, 2, { statementTimeouts: false });
  } catch (err) {
    throw new MoveError(
      `cannot reach the PostgreSQL database ${shown(url)} (${(err as Error).message}): check the URL and that the server runs`,
    );
  }
}

/** A move goes into a database made for it: anything there could clash with or be taken for moved data. */
async function refuseNonEmpty(target: Db, url: string): Promise<void> {
  const { rows } = await target.query<{ tables: number; queue: boolean }>(
    `SELECT (SELECT count(*)::int FROM pg_tables WHERE schemaname = 'public') AS tables,
       to_regclass('pgboss.job') IS NOT NULL AS queue`,
  );
  const jobs = rows[0]!.queue
    ? (await target.query<{ n: number }>('SELECT count(*)::int AS n FROM pgboss.job')).rows[0]!.n
    : 0;
  if (rows[0]!.tables > 0 || jobs > 0) {
    throw new MoveError(
      `the database ${shown(url)} is not empty (${rows[0]!.tables} tables, ${jobs} queued jobs): move into a new database (CREATE DATABASE) so nothing in it is overwritten`,
    );
  }
}

/** What `parley migrate` does: this version's tables, then pg-boss's schema and queues. */
async function migrateWithQueue(db: Db): Promise<void> {
  await migrate(db);
  await (await Queue.start(db, { work: false, log: createLogger('warn') })).stop();
}

async function newerMigrations(source: Db): Promise<string[]> {
  const known = new Set(knownMigrations());
  const { rows } = await source.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
  return rows.map((r) => r.name).filter((name) => !known.has(name));
}

async function compareMigrations(source: Db, target: Db): Promise<void> {
  const names = async (db: Db) =>
    (await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).rows
      .map((r) => r.name)
      .join(',');
  if ((await names(source)) !== (await names(target))) {
    throw new MoveError(
      'the data directory and the target have different migrations applied: move it with the same Parley version that wrote it',
    );
  }
}

async function countSimulatorNumbers(db: Db): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM connected_numbers WHERE graph_base_url LIKE '%/\\_sim'",
  );
  return rows[0]!.n;
}

async function countMediaObjects(db: Db): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM media_objects');
  return rows[0]!.n;
}
