/** What the rest of the code needs from a database: PGlite and node-postgres both provide it. */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

interface Transaction extends Queryable {
  /** Runs a script of several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
}

export interface Db extends Transaction {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; a throw rolls it back. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /** The adapter pg-boss's `db` option expects. */
  executeSql(text: string, values?: unknown[]): Promise<unknown>;
  /**
   * Delivers each NOTIFY on `channel` to handlers.notice, from a connection kept for it alone (on
   * PostgreSQL; PGlite is one session in this process). Resolves once the first LISTEN took effect or
   * failed; the returned function stops listening.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface ListenHandlers {
  notice(payload: string): void;
  /** LISTEN took effect: at first, and again after every reconnection. */
  listening(): void;
  /** The listening connection was lost (or could not be opened): notices may be missed until listening() again. */
  lost(err: unknown): void;
}
