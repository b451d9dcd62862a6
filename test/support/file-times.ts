import { mkdirSync, writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/** Where each run leaves its files' durations; `node scripts/slowest-tests.mjs` prints the slowest. */
export const FILE_TIMES = 'test-artifacts/file-times.json';

/**
 * A Vitest reporter writing every test file's wall time with its project. Vitest's JSON report names
 * the file only (a file run on PGlite and on PostgreSQL appears twice, alike) and counts from the
 * first test, leaving out imports and beforeAll, where a slow file often spends its time.
 */
export default class FileTimes implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const times = modules.map((module) => {
      const d = module.diagnostic();
      const ms =
        d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
      return {
        file: module.relativeModuleId,
        project: module.project.name,
        seconds: Math.round(ms) / 1000,
        state: module.state(),
      };
    });
    mkdirSync('test-artifacts', { recursive: true });
    writeFileSync(FILE_TIMES, `${JSON.stringify(times, null, 2)}\n`);
  }
}
