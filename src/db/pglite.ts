import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db } from './db.js';

/**
 * PGlite sizes its shared memory for a server of 100 connections with 128 MB of buffers, all of it
 * inside one WebAssembly memory that never shrinks (RSS). It runs one session here, and the pages
 * it does not hold are a read from the OS's file cache away: a small buffer pool and
 * maintenance_work_mem keep the memory near PGlite's least (128 MiB, fixed by its module).
 */
const START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...['shared_buffers=16MB', 'max_connections=8', 'maintenance_work_mem=16MB'].flatMap((s) => ['-c', s]),
];

/** The PostgreSQL major version of this PGlite: the data directories it can open (pg/PG_VERSION). */
export const PGLITE_POSTGRES_MAJOR = 18;

/** The extensions the migrations create (pg_trgm: the inbox's search); PGlite loads each one named. */
export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * PGlite is a single connection owned by this process. Its own mutexes serialise queries and hold
 * other queries back while a transaction runs, so no pool or socket is put in front of it.
 */
export async function openPglite(dataDir: string | undefined, from?: Blob): Promise<Db> {
  // `from`: a data directory PGlite dumped (dumpDataDir), loaded instead of running initdb: the tests
  // start each file from one migrated copy instead of initialising and migrating a database per file.
  return pgliteDb(
    await PGlite.create({
      dataDir,
      loadDataDir: from,
      startParams: START_PARAMS,
      extensions: PGLITE_EXTENSIONS,
    }),
  );
}

export function pgliteDb(pg: PGlite): Db {
  return {
    kind: 'pglite',
    query: (text, params) => pg.query(text, params),
    transaction: (fn) =>
      pg.transaction((tx) =>
        fn({
          query: (text, params) => tx.query(text, params),
          exec: async (text) => {
            await tx.exec(text);
          },
        }),
      ),
    exec: async (text) => {
      await pg.exec(text);
    },
    executeSql: async (text, values) => {
      if (values && values.length > 0) return pg.query(text, values);
      const results = await pg.exec(text);
      return results.length === 1 ? results[0] : results;
    },
    // Notices come from this process's own session, delivered before the committing query returns.
    listen: async (channel, handlers) => {
      const unlisten = await pg.listen(channel, handlers.notice);
      handlers.listening();
      return () => unlisten();
    },
    close: () => pg.close(),
  };
}
