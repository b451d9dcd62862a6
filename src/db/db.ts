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
  close(): Promise<void>;
}
