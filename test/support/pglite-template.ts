import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/db/migrate.js';
import { PGLITE_EXTENSIONS, pgliteDb } from '../../src/db/pglite.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (a tar file) that each PGlite test database starts from. */
    pgliteTemplate: string;
  }
}

/**
 * Vitest global setup: initialising a PGlite database (its initdb) and migrating it takes seconds, and
 * every test file needs one. Done once per change of the migrations, dumped under node_modules/.cache;
 * each file loads the dump. The migrations still run from empty here, and per file on PostgreSQL.
 */
export default async function pgliteTemplate(project: TestProject): Promise<void> {
  const hash = createHash('sha256');
  hash.update(readFileSync('node_modules/@electric-sql/pglite/package.json'));
  hash.update(readFileSync('src/db/migrate.ts'));
  for (const file of readdirSync('migrations').sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join('migrations', file)));
  }
  const dir = 'node_modules/.cache/parley';
  const path = join(dir, `pglite-${hash.digest('hex').slice(0, 16)}.tar`);
  if (!existsSync(path)) {
    const pg = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    await migrate(pgliteDb(pg));
    const dump = await pg.dumpDataDir('none');
    await pg.close();
    mkdirSync(dir, { recursive: true });
    // Written aside and renamed, so a run stopped half way leaves no truncated template.
    writeFileSync(`${path}.${process.pid}`, Buffer.from(await dump.arrayBuffer()));
    renameSync(`${path}.${process.pid}`, path);
  }
  project.provide('pgliteTemplate', path);
}
