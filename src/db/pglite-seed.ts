import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.js';
import type { OutageLog } from './outage.js';
import { openPglite } from './pglite.js';

/** Written by `npm run build` beside the compiled code: absent when running from src/ (tests). */
export const SEED_DIR = fileURLToPath(new URL('../pglite-seed/', import.meta.url));

/**
 * A new embedded data directory would cost PGlite's initdb, every migration and pg-boss's schema:
 * seconds of CPU, and a WebAssembly memory grown on the way that is never given back. The build does
 * that once into SEED_DIR (shut down cleanly); a new directory is a copy of it, made aside and renamed
 * so a start cut short leaves nothing half-copied, and migrate() then applies what came after it.
 * Without a seed, or when the copy does not open (a PGlite of another format), PGlite's initdb as before.
 */
export async function openPgliteDir(dir: string, log?: OutageLog, seed = SEED_DIR): Promise<Db> {
  if (isNewDir(dir) && existsSync(join(seed, 'PG_VERSION'))) {
    const aside = `${dir}.new-${process.pid}`;
    mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
    rmSync(aside, { recursive: true, force: true });
    cpSync(seed, aside, { recursive: true });
    chmodSync(aside, 0o700);
    rmSync(dir, { recursive: true, force: true });
    renameSync(aside, dir);
    try {
      return await openPglite(dir);
    } catch (err) {
      log?.warn({ err }, 'the prebuilt database did not open: creating one from the migrations instead');
      rmSync(dir, { recursive: true, force: true });
    }
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return openPglite(dir);
}

function isNewDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}
