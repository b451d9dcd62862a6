import pg from 'pg';
import type { ListenHandlers } from './db.js';

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;

/**
 * LISTEN on a connection of its own, outside the pool: a pooled client goes back to the pool between
 * queries, and its LISTEN with it. When the connection drops (a database restart, a killed backend)
 * it comes back with backoff; `lost` and `listening` tell the caller when notices may have been missed.
 */
export async function listenPostgres(
  connectionString: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  let stopped = false;

  const lost = (err: unknown) => {
    if (stopped) return;
    handlers.lost(err);
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failures++);
    retry = setTimeout(() => void connect(), delay * (0.5 + Math.random() / 2)).unref();
  };

  const connect = async (): Promise<void> => {
    const c = new pg.Client({
      connectionString,
      application_name: 'parley-listen',
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    // An error ends the connection: 'end' below reconnects.
    c.on('error', () => {});
    c.on('notification', (n) => {
      if (n.channel === channel) handlers.notice(n.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${c.escapeIdentifier(channel)}`);
    } catch (err) {
      c.end().catch(() => {});
      return lost(err);
    }
    if (stopped) return void c.end().catch(() => {});
    client = c;
    failures = 0;
    c.once('end', () => {
      client = undefined;
      lost(new Error('the listening connection closed'));
    });
    handlers.listening();
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
