import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OutageLog } from './outage.js';
import { openPglite } from './pglite.js';

/** Written by `npm run build` beside the compiled code: absent when running from src/ (tests). */
export const SEED = fileURLToPath(new URL('../pglite-seed.tar', import.meta.url));

/**
 * A new embedded data directory would cost PGlite's initdb, every migration and pg-boss's schema: seconds
 * of CPU, and a WebAssembly memory grown on the way that is never given back. The build does that
 * once and dumps the result; a new directory starts from the dump, and migrate() then applies what
 * came after it. Without a seed (running from src/), or when it does not load, today's path: initdb.
 */
export async function openPgliteDir(dir: string, log?: OutageLog) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Only into an empty directory: what a failed load leaves is then ours to remove.
  if (readdirSync(dir).length > 0 || !existsSync(SEED)) return openPglite(dir);
  try {
    return await openPglite(dir, new Blob([readFileSync(SEED)]));
  } catch (err) {
    log?.warn({ err }, 'the prebuilt database did not load: creating one from the migrations instead');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return openPglite(dir);
  }
}
