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
