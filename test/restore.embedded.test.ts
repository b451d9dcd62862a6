import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { create, extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownMigrations } from '../src/db/migrate.js';
import { openPglite, PGLITE_POSTGRES_MAJOR } from '../src/db/pglite.js';
import { freePort, type RunningServer, runCli, runCliJson, startServer, tempDataDir } from './support/cli.js';

describe('parley restore: what it restores, and what it refuses with a sentence', () => {
  const source = tempDataDir();
  const work = tempDataDir();
  const targets: { remove(): void }[] = [];
  const good = join(work.dir, 'good.tar.gz');
  let server: RunningServer | undefined;

  beforeAll(async () => {
    const env = { DATA_DIR: source.dir, LOG_LEVEL: 'warn' };
    await runCliJson(['workspace', 'create', '--name', 'Acme'], env);
    // No server runs: the CLI opens the database itself, under the data directory's lock.
    const r = await runCli(['backup', '--out', good], env);
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    for (const t of [source, work, ...targets]) t.remove();
  });

  function emptyTarget(): string {
    const t = tempDataDir();
    targets.push(t);
    return t.dir;
  }

  /** The good backup with `change` applied to its extracted files, packed again. */
  function altered(name: string, change: (dir: string) => void): string {
    const dir = join(work.dir, name);
    mkdirSync(dir);
    extract({ file: good, cwd: dir, sync: true });
    change(dir);
    const file = join(work.dir, `${name}.tar.gz`);
    create({ file, gzip: true, cwd: dir, sync: true }, readdirSync(dir));
    return file;
  }

  const extractManifest = (file: string) => {
    const dir = join(work.dir, `manifest-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    extract({ file, cwd: dir, sync: true }, ['parley-backup.json']);
    return readFileSync(join(dir, 'parley-backup.json'), 'utf8');
  };

  const editManifest = (dir: string, edit: (m: Record<string, unknown>) => void) => {
    const path = join(dir, 'parley-backup.json');
    const manifest = JSON.parse(readFileSync(path, 'utf8'));
    edit(manifest);
    writeFileSync(path, JSON.stringify(manifest));
  };

  async function expectRefused(
    file: string,
    dataDir: string,
    message: RegExp,
    env: Record<string, string> = {},
  ) {
    const r = await runCli(['restore', '--in', file], { DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // Nothing half-made: no database, no media, nothing left aside.
    expect(readdirSync(dataDir).filter((f) => !['secret.key', 'simulator.token'].includes(f))).toEqual([]);
  }

  it('restores the good backup into an empty directory (the control case)', async () => {
    const target = emptyTarget();
    const r = await runCliJson(['restore', '--in', good], { DATA_DIR: target, LOG_LEVEL: 'warn' });
    expect(r).toMatchObject({ data_dir: target, migrations_to_apply: 0, media_files: 0 });
    expect(readdirSync(target).sort()).toEqual(['pg', 'secret.key', 'simulator.token']);
  });

  it('refuses a data directory that holds a database', async () => {
    const r = await runCli(['restore', '--in', good], { DATA_DIR: source.dir, LOG_LEVEL: 'warn' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already holds a database \(pg\/\); restore into an empty DATA_DIR/);
  });

  it('refuses a data directory that holds media files', async () => {
    const target = emptyTarget();
    mkdirSync(join(target, 'media', 'ws_1'), { recursive: true });
    writeFileSync(join(target, 'media', 'ws_1', 'med_1'), 'a picture');
    const r = await runCli(['restore', '--in', good], { DATA_DIR: target, LOG_LEVEL: 'warn' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already holds media files \(media\/\)/);
    expect(readdirSync(target)).not.toContain('pg');
  });

  it('refuses a backup made by a newer Parley', async () => {
    const file = altered('newer', (dir) =>
      editManifest(dir, (m) => {
        m.parley_version = '9.0.0';
        (m.migrations as string[]).push('9999_from_the_future.sql');
      }),
    );
    await expectRefused(
      file,
      emptyTarget(),
      /made by a newer Parley \(9\.0\.0, migration 9999_from_the_future\.sql\)/,
    );
  });

  it('refuses a database of a PostgreSQL this PGlite cannot open', async () => {
    const file = altered('pg17', (dir) => {
      writeFileSync(join(dir, 'pg', 'PG_VERSION'), '17\n');
      editManifest(dir, (m) => {
        m.postgres_major = 17;
      });
    });
    await expectRefused(
      file,
      emptyTarget(),
      /holds a PostgreSQL 17 database, which this Parley's embedded PostgreSQL 18 cannot open/,
    );
  });

  it('refuses a file that is not a Parley backup', async () => {
    const random = join(work.dir, 'random.bin');
    writeFileSync(random, Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256)));
    await expectRefused(random, emptyTarget(), /is not a complete Parley backup/);
    const other = altered('other', (dir) => {
      for (const f of readdirSync(dir)) if (f !== 'secret.key') writeFileSync(join(dir, `${f}.bak`), 'x');
      editManifest(dir, (m) => {
        m.format = 2;
      });
    });
    await expectRefused(other, emptyTarget(), /is not a Parley backup/);
    await expectRefused(join(work.dir, 'missing.tar.gz'), emptyTarget(), /cannot read .*missing\.tar\.gz/);
  });

  it('refuses a truncated or corrupted backup', async () => {
    const bytes = readFileSync(good);
    for (const cut of [100, bytes.length >> 1, bytes.length - 8]) {
      const file = join(work.dir, `cut-${cut}.tar.gz`);
      writeFileSync(file, bytes.subarray(0, cut));
      await expectRefused(file, emptyTarget(), /is not a complete Parley backup/);
    }
    const flipped = Buffer.from(bytes);
    for (let i = bytes.length >> 1; i < (bytes.length >> 1) + 64; i++) flipped[i] = flipped[i]! ^ 0xff;
    const file = join(work.dir, 'flipped.tar.gz');
    writeFileSync(file, flipped);
    await expectRefused(file, emptyTarget(), /is not a complete Parley backup/);
    // Whole files missing from an archive that is otherwise sound: the manifest's counts tell.
    const noKey = altered('no-key', (dir) => rmSync(join(dir, 'secret.key')));
    await expectRefused(noKey, emptyTarget(), /is not a complete Parley backup/);
    const noMedia = altered('no-media', (dir) =>
      editManifest(dir, (m) => {
        m.media = { files: 2, bytes: 100 };
      }),
    );
    await expectRefused(noMedia, emptyTarget(), /is not a complete Parley backup/);
  }, 60_000);

  it('refuses a data directory a running server owns', async () => {
    const target = emptyTarget();
    server = await startServer([], { DATA_DIR: target, PORT: String(await freePort()), LOG_LEVEL: 'warn' });
    const r = await runCli(['restore', '--in', good], { DATA_DIR: target, LOG_LEVEL: 'warn' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /a Parley server \(process \d+\) is running on .*; stop it, or restore into another DATA_DIR/,
    );
  }, 90_000);

  it('on PostgreSQL (DATABASE_URL): restore names a key other than the backup’s, backup points to pg_dump', async () => {
    const env = {
      DATA_DIR: emptyTarget(),
      DATABASE_URL: 'postgres://parley@127.0.0.1:1/parley',
      PARLEY_SECRET_KEY: '1'.repeat(64),
      LOG_LEVEL: 'warn',
    };
    const r = await runCli(['restore', '--in', good], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/PARLEY_SECRET_KEY is not the key this backup's secrets were encrypted with/);
    const b = await runCli(['backup', '--out', join(work.dir, 'pg.tar.gz')], env);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/back up PostgreSQL with pg_dump \(docs\/operations\.md, "Backups"\)/);
  });

  it('backs up an older data directory as it is, and serve migrates the restored copy forward', async () => {
    // A data directory as the release before the newest migration left it.
    const older = emptyTarget();
    const all = knownMigrations();
    const db = await openPglite(join(older, 'pg'));
    await db.exec(
      'CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const name of all.slice(0, -1)) {
      await db.exec(readFileSync(join(import.meta.dirname, '../migrations', name), 'utf8'));
      await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
    }
    await db.close();
    const file = join(work.dir, 'older.tar.gz');
    const made = await runCli(['backup', '--out', file], { DATA_DIR: older, LOG_LEVEL: 'warn' });
    expect(made.code, made.stderr).toBe(0);
    // With no server running the CLI copied the database without migrating it.
    expect(JSON.parse(extractManifest(file)).migrations).toEqual(all.slice(0, -1));

    const target = emptyTarget();
    const restored = await runCliJson(['restore', '--in', file], { DATA_DIR: target, LOG_LEVEL: 'warn' });
    expect(restored).toMatchObject({ migrations_to_apply: 1 });
    const served = await startServer([], {
      DATA_DIR: target,
      PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
    });
    await served.stop();
    const after = await openPglite(join(target, 'pg'));
    try {
      const { rows } = await after.query<{ name: string }>(
        'SELECT name FROM schema_migrations ORDER BY name',
      );
      expect(rows.map((r) => r.name)).toEqual(all);
    } finally {
      await after.close();
    }
  }, 180_000);

  it("knows this PGlite's PostgreSQL major version", async () => {
    const db = await openPglite(undefined);
    try {
      const { rows } = await db.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
      expect(Math.floor(Number(rows[0]!.v) / 10_000)).toBe(PGLITE_POSTGRES_MAJOR);
    } finally {
      await db.close();
    }
  });
});
