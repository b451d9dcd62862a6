import type { Db, Queryable } from '../../db/db.js';

/** A table as the copy sees it: its key (pages go in key order) and the columns an INSERT may name. */
export interface TableShape {
  schema: string;
  name: string;
  key: string[];
  /** Every column but generated ones, which the target computes again. */
  columns: string[];
  /** Each key column's SQL type, to compare with the last key seen (text) through the index. */
  keyTypes: string[];
}

export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function qualified(table: Pick<TableShape, 'schema' | 'name'>): string {
  return `${ident(table.schema)}.${ident(table.name)}`;
}

/** The tables of `schema` (partitions are read through their parent), with their primary keys. */
export async function listTables(db: Queryable, schema: string): Promise<TableShape[]> {
  const { rows } = await db.query<{ name: string; key: string[]; keyTypes: string[]; columns: string[] }>(
    `SELECT c.relname AS name,
       ARRAY(SELECT a.attname::text FROM pg_index i
             CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
             WHERE i.indrelid = c.oid AND i.indisprimary ORDER BY k.ord) AS key,
       ARRAY(SELECT format_type(a.atttypid, a.atttypmod) FROM pg_index i
             CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
             WHERE i.indrelid = c.oid AND i.indisprimary ORDER BY k.ord) AS "keyTypes",
       ARRAY(SELECT a.attname::text FROM pg_attribute a
             WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
             ORDER BY a.attnum) AS columns
     FROM pg_class c
     WHERE c.relnamespace = to_regnamespace($1) AND c.relkind IN ('r', 'p') AND NOT c.relispartition
     ORDER BY c.relname`,
    [schema],
  );
  return rows.map((r) => ({ schema, ...r }));
}

export async function countRows(db: Queryable, table: TableShape, filter?: Filter): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${qualified(table)}${filter ? ` WHERE ${filter.sql}` : ''}`,
    filter?.params ?? [],
  );
  return rows[0]!.n;
}

/** A WHERE condition on the source's rows: SQL with $1.. and its parameters. */
export interface Filter {
  sql: string;
  params: unknown[];
}

interface Page {
  n: number;
  page: string | null;
  /** The page's greatest key, each column as text. */
  last: string[] | null;
}

/** A page aims at this much JSON: bounded memory whether a row is 100 bytes or a 1 MiB media chunk. */
const PAGE_BYTES = 4 * 1024 * 1024;
const MAX_PAGE_ROWS = 5_000;

/**
 * Copies a table's rows (those matching `filter`) from one database to another, in pages by key: each
 * page leaves the source as one JSON text (json_agg) and enters the target through
 * json_populate_recordset, so both ends are plain SQL through the Db interface, PGlite or PostgreSQL.
 * Identity columns keep their values (OVERRIDING SYSTEM VALUE). Returns how many rows went in.
 */
export async function copyRows(
  source: Queryable,
  target: Queryable,
  table: TableShape,
  filter?: Filter,
): Promise<number> {
  if (table.key.length === 0) throw new Error(`table ${qualified(table)} has no primary key to page by`);
  const keys = table.key.map(ident).join(', ');
  const keysDesc = table.key.map((k) => `${ident(k)} DESC`).join(', ');
  const lastKey = table.key.map((k) => `${ident(k)}::text`).join(', ');
  const columns = table.columns.map(ident).join(', ');
  const params = filter?.params ?? [];
  // The key's own types on the right: (a, b) > ($1::text, $2::uuid) is a range of the primary key's index.
  const afterKey = `(${keys}) > (${table.keyTypes.map((type, i) => `$${params.length + i + 1}::${type}`).join(', ')})`;
  let after: string[] | null = null;
  let limit = 1;
  let copied = 0;
  for (;;) {
    const conditions = [...(filter ? [`(${filter.sql})`] : []), ...(after === null ? [] : [afterKey])];
    const args: unknown[] = after === null ? params : [...params, ...after];
    const result: { rows: Page[] } = await source.query<Page>(
      `WITH page AS (
         SELECT * FROM ${qualified(table)} ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
         ORDER BY ${keys} LIMIT ${limit})
       SELECT count(*)::int AS n, json_agg(page)::text AS page,
         (SELECT ARRAY[${lastKey}] FROM page ORDER BY ${keysDesc} LIMIT 1) AS last
       FROM page`,
      args,
    );
    const { n, page, last } = result.rows[0]!;
    if (n === 0 || page === null) return copied;
    await target.query(
      `INSERT INTO ${qualified(table)} (${columns}) OVERRIDING SYSTEM VALUE
       SELECT ${columns} FROM json_populate_recordset(null::${qualified(table)}, $1::json)`,
      [page],
    );
    copied += n;
    if (n < limit) return copied;
    after = last;
    limit = Math.max(1, Math.min(MAX_PAGE_ROWS, Math.floor((PAGE_BYTES * n) / page.length)));
  }
}

/** Every sequence of `schema` (identity columns' among them) set to where the source's stands. */
export async function copySequences(source: Db, target: Queryable, schema: string): Promise<void> {
  const { rows } = await source.query<{ name: string; last: string | null }>(
    'SELECT sequencename AS name, last_value::text AS last FROM pg_sequences WHERE schemaname = $1',
    [schema],
  );
  for (const s of rows) {
    if (s.last === null) continue;
    await target.query('SELECT setval($1::regclass, $2::bigint, true)', [
      `${ident(schema)}.${ident(s.name)}`,
      s.last,
    ]);
  }
}
