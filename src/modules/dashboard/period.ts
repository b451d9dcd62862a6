/**
 * The period's days in SQL, for a query whose `$2` is the number of days ending today: each day's
 * date (`DAYS`, a CTE body) and the moment the first one starts (`SINCE`). Days are UTC days:
 * workspaces have no time zone of their own yet.
 */
const TODAY = `(now() AT TIME ZONE 'UTC')::date`;
const FIRST_DAY = `(${TODAY} - ($2::int - 1))`;

export const SINCE = `(${FIRST_DAY}::timestamp AT TIME ZONE 'UTC')`;
const DAYS = `SELECT d::date AS day
  FROM generate_series(${FIRST_DAY}::timestamp, ${TODAY}::timestamp, interval '1 day') AS d`;
/** A timestamptz column's UTC day. */
export const dayOf = (column: string) => `(${column} AT TIME ZONE 'UTC')::date`;

/** `counts` (a query of `day` and one count per column) with every day of the period, zero where it has none. */
export function everyDay(counts: string, columns: readonly string[]): string {
  const values = columns.map((c) => `COALESCE(c.${c}, 0)::int AS ${c}`).join(', ');
  return `WITH counts AS (${counts}), days AS (${DAYS})
    SELECT to_char(d.day, 'YYYY-MM-DD') AS day, ${values}
    FROM days d LEFT JOIN counts c ON c.day = d.day ORDER BY d.day`;
}
