import type { Db } from './db.js';

interface TableStats {
  schemaname: string;
  relname: string;
  n_mod_since_analyze: string;
  n_dead_tup: string;
  reltuples: number;
}

/**
 * PGlite runs no autovacuum daemon, so without this its planner statistics go stale (a listing that
 * should walk an index sorts the whole table instead) and dead rows pile up. This does the daemon's
 * work by its default thresholds: analyze after 50 + 10% changed rows, vacuum after 50 + 20% dead.
 */
export async function pgliteAutovacuum(db: Db): Promise<{ analyzed: string[]; vacuumed: string[] }> {
  // Statistics reach pg_stat_* only when flushed, which the embedded engine does lazily.
  await db.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await db.query<TableStats>(
    `SELECT s.schemaname, s.relname, s.n_mod_since_analyze, s.n_dead_tup, greatest(c.reltuples, 0) AS reltuples
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid`,
  );
  const analyzed: string[] = [];
  const vacuumed: string[] = [];
  for (const t of rows) {
    const table = `${quoteIdent(t.schemaname)}.${quoteIdent(t.relname)}`;
    if (Number(t.n_dead_tup) > 50 + 0.2 * t.reltuples) {
      await db.query(`VACUUM (ANALYZE) ${table}`);
      vacuumed.push(table);
    } else if (Number(t.n_mod_since_analyze) > 50 + 0.1 * t.reltuples) {
      await db.query(`ANALYZE ${table}`);
      analyzed.push(table);
    }
  }
  return { analyzed, vacuumed };
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
