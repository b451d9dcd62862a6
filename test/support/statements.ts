import type { Db } from '../../src/db/db.js';

/** Runs `work`, counting the statements sent through `db.query` whose SQL holds `fragment`. */
export async function countStatements<T>(
  db: Db,
  fragment: string,
  work: () => Promise<T>,
): Promise<{ result: T; statements: number }> {
  const query = db.query.bind(db);
  let statements = 0;
  db.query = ((sql: string, params?: unknown[]) => {
    if (sql.includes(fragment)) statements++;
    return query(sql, params);
  }) as typeof db.query;
  try {
    return { result: await work(), statements };
  } finally {
    db.query = query;
  }
}

/** Runs `work` with the number of rows each statement sent through `db.query` returns, recorded as it goes. */
export async function recordPages<T>(db: Db, work: (pages: number[]) => Promise<T>): Promise<T> {
  const query = db.query.bind(db);
  const pages: number[] = [];
  db.query = (async (sql: string, params?: unknown[]) => {
    const result = await query(sql, params);
    pages.push(result.rows.length);
    return result;
  }) as typeof db.query;
  try {
    return await work(pages);
  } finally {
    db.query = query;
  }
}
