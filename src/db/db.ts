/** What the rest of the code needs from a database: PGlite and node-postgres both provide it. */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; a throw rolls it back. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters (migrations, pg-boss DDL). */
  exec(text: string): Promise<void>;
  /** The adapter pg-boss's `db` option expects. */
  executeSql(text: string, values?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}
