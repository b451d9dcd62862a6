import type { Queryable } from '../../db/db.js';
import { displayName } from '../accounts/display-name.js';
import { SINCE } from '../dashboard/period.js';
import type { SatisfactionResult } from './satisfaction-schemas.js';
import { ANSWER_DAYS } from './survey-answer.js';

type Figures = Omit<SatisfactionResult, 'result'>;

// An answer of the period was asked at most ANSWER_DAYS before it: the index on asked_at bounds the scan.
const recent = (s: string) =>
  `${s}.workspace_id = $1 AND ${s}.asked_at >= ${SINCE} - make_interval(days => ${ANSWER_DAYS})`;
const answered = (s: string) => `${s}.answered_at >= ${SINCE}`;

/**
 * The satisfaction survey over the dashboard's period (UTC days ending today): surveys sent, ratings
 * received (counted on the day they came), their average and distribution, and the same per teammate
 * assigned at the resolve.
 */
export async function satisfactionFigures(
  db: Queryable,
  workspaceId: string,
  days: number,
): Promise<Figures> {
  const p = [workspaceId, days];
  const totals = await db.query<{
    from: string;
    to: string;
    asked: number;
    answered: number;
    average: number | null;
  }>(
    `SELECT to_char((${SINCE} AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS from,
       to_char((now() AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS to,
       count(*) FILTER (WHERE s.message_id IS NOT NULL AND s.asked_at >= ${SINCE})::int AS asked,
       count(*) FILTER (WHERE ${answered('s')})::int AS answered,
       round(avg(s.rating) FILTER (WHERE ${answered('s')}), 2)::float8 AS average
     FROM satisfaction_surveys s WHERE ${recent('s')}`,
    p,
  );
  const distribution = await db.query<{ rating: number; count: number }>(
    `SELECT r.rating, count(s.rating)::int AS count
     FROM generate_series(1, 5) AS r (rating)
     LEFT JOIN satisfaction_surveys s ON s.rating = r.rating AND ${recent('s')} AND ${answered('s')}
     GROUP BY r.rating ORDER BY r.rating`,
    p,
  );
  const teammates = await db.query<Figures['teammates'][number]>(
    `SELECT s.assignee_id AS user_id, ${displayName('u')} AS name,
       count(*)::int AS answered, round(avg(s.rating), 2)::float8 AS average
     FROM satisfaction_surveys s LEFT JOIN users u ON u.id = s.assignee_id
     WHERE ${recent('s')} AND ${answered('s')}
     GROUP BY s.assignee_id, u.name, u.email
     ORDER BY count(*) DESC, name NULLS LAST`,
    p,
  );
  const t = totals.rows[0]!;
  return {
    period: { days, from: t.from, to: t.to, time_zone: 'UTC' },
    asked: t.asked,
    answered: t.answered,
    average: t.average,
    distribution: distribution.rows,
    teammates: teammates.rows,
  };
}
