import pg from 'pg';
import type { Db } from './db.js';
import { isDatabaseUnreachable, Outage, type OutageLog, PROBE_TIMEOUT_MS } from './outage.js';
import { listenPostgres } from './postgres-listen.js';

export interface PostgresOptions {
  /** Cap each statement (requests, jobs); off for operator commands such as `parley migrate`. */
  statementTimeouts?: boolean;
  log?: OutageLog;
}

// A runaway statement is cancelled by the server past this. Requests and jobs run in milliseconds;
// the longest, maintenance.cleanup's deletes, remove ten minutes' worth of rows at a time.
const STATEMENT_TIMEOUT_MS = 30_000;
// The client's own limit, for a connection that stops answering while fresh ones still do (the
// server's cancel cannot reach us there); after the server's, which normally comes first.
const QUERY_TIMEOUT_MS = STATEMENT_TIMEOUT_MS + 10_000;
// A new connection, or a turn for one when all are busy; a reachable server connects in milliseconds.
const CONNECT_TIMEOUT_MS = 5_000;
// Idle connections are probed by TCP keepalive from this long on, so a dead one is found and replaced.
const KEEPALIVE_AFTER_MS = 10_000;

const silent: OutageLog = { warn() {}, info() {} };

export async function openPostgres(
  connectionString: string,
  max = 20,
  options: PostgresOptions = {},
): Promise<Db> {
  const timeouts =
    options.statementTimeouts === false
      ? {}
      : { statement_timeout: STATEMENT_TIMEOUT_MS, query_timeout: QUERY_TIMEOUT_MS };
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_AFTER_MS,
    ...timeouts,
  });
  let closed = false;
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const busy = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => busy.add(client));
  pool.on('release', (_err, client) => busy.delete(client));
  pool.on('remove', (client) => busy.delete(client as pg.PoolClient));
  const outage = new Outage(
    () => probe(connectionString),
    // Their queries wait on a silent network: ending the connections fails them now, and a
    // transaction cut off there never commits after its request was answered 503.
    () => {
      for (const client of busy) void client.end().catch(() => {});
    },
    options.log ?? silent,
  );
  await pool.query('SELECT 1');
  return {
    kind: 'postgres',
    query: (text, params) => outage.guard(() => pool.query(text, params)),
    transaction: (fn) =>
      outage.guard(async () => {
        const client = await pool.connect();
        // A connection lost mid-transaction fails its query; unheard, the client's error event would
        // end the process.
        const onError = () => {};
        client.on('error', onError);
        let lost: unknown;
        try {
          await client.query('BEGIN');
          const result = await fn({
            query: (text, params) => client.query(text, params),
            exec: async (text) => {
              await client.query(text);
            },
          });
          await client.query('COMMIT');
          return result;
        } catch (err) {
          // Past a lost connection ROLLBACK would wait for its own timeout: the server rolls back.
          if (isDatabaseUnreachable(err)) lost = err;
          else await client.query('ROLLBACK').catch((e: unknown) => (lost = e));
          throw err;
        } finally {
          client.removeListener('error', onError);
          client.release(lost as Error | undefined);
        }
      }),
    exec: async (text) => {
      await outage.guard(() => pool.query(text));
    },
    // The job queue may still record a job's end after the pool has closed (a handler outliving
    // shutdown). That write never settles, as if this process had died there: its heartbeat stops and it
    // runs again. An empty answer instead broke pg-boss, which reads a count from it.
    executeSql: (text, values) =>
      closed ? new Promise(() => {}) : outage.guard(() => pool.query(text, values)),
    listen: (channel, handlers) => listenPostgres(connectionString, channel, handlers),
    close: () => {
      closed = true;
      outage.close();
      return pool.end();
    },
  };
}

/** A fresh connection and `SELECT 1`, each within PROBE_TIMEOUT_MS: is the database there? */
async function probe(connectionString: string): Promise<void> {
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    query_timeout: PROBE_TIMEOUT_MS,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    void client.end().catch(() => {});
  }
}
