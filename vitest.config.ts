import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Test files are told apart by name (docs/ARCHITECTURE.md, Tests):
//   *.unit.test.ts      touch no database: run once, in project `unit` (opening one there throws);
//   *.embedded.test.ts  about the embedded mode: PGlite only;
//   *.postgres.test.ts  about a server: PostgreSQL only, one file at a time after all others;
//   *.test.ts           everything else: on PGlite, and again on PostgreSQL when DATABASE_URL is set
//                       (a fresh database per file).
const databases = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
const everywhere = ['src/**/*.test.ts', 'test/**/*.test.ts'];
const unit = ['src/**/*.unit.test.ts', 'test/**/*.unit.test.ts', 'web/src/**/*.unit.test.ts'];

export default defineConfig({
  test: {
    globalSetup: [
      'test/support/build.ts',
      'test/support/pglite-template.ts',
      'test/support/postgres-template.ts',
    ],
    reporters: ['default', './test/support/file-times.ts'],
    // Vitest's default is cores - 1 files at a time: one on a 2-core machine, which leaves a core idle
    // while a file waits on timers, the simulator or PostgreSQL (six messaging files on a quiet 2-core
    // machine: 79 s one at a time, 47 s two at a time, the same CPU time). VITEST_MAX_WORKERS overrides.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for what must come to hold (a page that re-renders, a job that ends): its
    // default of 1 s failed such tests on a loaded machine without anything being wrong.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      { extends: true, test: { name: 'unit', include: unit, env: { PARLEY_TEST_DB: 'none' } } },
      ...databases.map((db) => ({
        extends: true as const,
        test: {
          name: db,
          include: everywhere,
          exclude: [
            ...unit,
            '**/*.postgres.test.ts',
            ...(db === 'postgres' ? ['**/*.embedded.test.ts'] : []),
          ],
          env: { PARLEY_TEST_DB: db },
          // A worker runs its files one after another in one process instead of a process each: a
          // file no longer pays importing the server's modules again (1.4 to 2 s of CPU). The files
          // keep no module state of their own (no vi.mock, fake timers or environment writes; what a
          // test lowers, it restores), and the server's caches are keyed by ids no two files share.
          isolate: false,
        },
      })),
      // A server's own tests start several Parley processes on one PostgreSQL, each with its pool:
      // two such files at once, or one beside the rest, pass its 100 connections. They run last,
      // one at a time.
      ...(process.env.DATABASE_URL
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres-alone',
                include: ['src/**/*.postgres.test.ts', 'test/**/*.postgres.test.ts'],
                env: { PARLEY_TEST_DB: 'postgres' },
                fileParallelism: false,
                sequence: { groupOrder: 1 },
              },
            },
          ]
        : []),
    ],
    sequence: { groupOrder: 0 },
  },
});
