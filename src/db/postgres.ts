import pg from 'pg';
import type { Db } from './db.js';
import { listenPostgres } from './postgres-listen.js';

export async function openPostgres(connectionString: string, max = 20): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max });
  let closed = false;
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  await pool.query('SELECT 1');
  return {
    kind: 'postgres',
    query: (text, params) => pool.query(text, params),
    transaction: async (fn) => {
      const client = await pool.connect();
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
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    exec: async (text) => {
      await pool.query(text);
    },
    // The job queue may still record a job's end after the pool has closed (a handler outliving
    // shutdown). That write never settles, as if this process had died there: its heartbeat stops and it
    // runs again. An empty answer instead broke pg-boss, which reads a count from it.
    executeSql: (text, values) => (closed ? new Promise(() => {}) : pool.query(text, values)),
    listen: (channel, handlers) => listenPostgres(connectionString, channel, handlers),
    close: () => {
      closed = true;
      return pool.end();
    },
  };
}
