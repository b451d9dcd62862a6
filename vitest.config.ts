import { defineConfig } from 'vitest/config';

// Every test file runs on embedded PGlite; with DATABASE_URL set, the whole suite runs again on
// PostgreSQL (a fresh database per file).
const databases = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/build.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: databases.map((db) => ({
      extends: true,
      test: {
        name: db,
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        // Files named *.embedded.test.ts are about the embedded mode only, *.postgres.test.ts about a server.
        exclude: [db === 'pglite' ? '**/*.postgres.test.ts' : '**/*.embedded.test.ts', '**/node_modules/**'],
        env: { PARLEY_TEST_DB: db },
      },
    })),
  },
});
