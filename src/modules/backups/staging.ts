import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isAlive } from '../../runtime/data-dir-lock.js';

/** Where the database's files are copied for a backup by process `pid`, inside the data directory. */
export const stagingDir = (dataDir: string, pid: number): string => join(dataDir, `backup-staging-${pid}`);

export const partialFile = (out: string, pid: number): string => `${out}.partial-${pid}`;

export const restoreAside = (dataDir: string, pid: number): string => join(dataDir, `restore-${pid}`);

/** Removes what backups or restores killed before their end left: `<prefix><pid>` of a process gone. */
export function removeLeftovers(dir: string, prefix: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid))
      rmSync(join(dir, name), { recursive: true, force: true });
  }
}

export function removeStaleBackups(dataDir: string, out: string): void {
  removeLeftovers(dataDir, 'backup-staging-');
  removeLeftovers(dirname(out), `${basename(out)}.partial-`);
}
