import type { Queryable } from '../../db/db.js';
import { dayOf, SINCE } from './period.js';

/** The forms a chart shows at most: the ones with the most leads in the period. */
const MAX_FORMS = 10;

interface FormLeads {
  form_id: string;
  form_name: string | null;
  /** One per day of the period, zero included, oldest first. */
  points: { day: string; count: number }[];
}

/** Per form (the busiest ten) and per day of the period, the leads its submissions made. */
export async function leadCounts(
  db: Queryable,
  workspaceId: string,
  days: number,
  dayList: string[],
): Promise<FormLeads[]> {
  const { rows } = await db.query<{ form_id: string; form_name: string | null; day: string; count: number }>(
    `WITH period AS (
       SELECT l.source_id, ${dayOf('l.created_at')} AS day FROM leads l
       WHERE l.workspace_id = $1 AND l.source = 'form' AND l.created_at >= ${SINCE}),
     top AS (SELECT source_id FROM period GROUP BY source_id ORDER BY count(*) DESC, source_id LIMIT $3)
     SELECT p.source_id AS form_id, f.name AS form_name, to_char(p.day, 'YYYY-MM-DD') AS day, count(*)::int AS count
     FROM period p JOIN top USING (source_id)
       LEFT JOIN forms f ON f.workspace_id = $1 AND f.id = p.source_id
     GROUP BY p.source_id, f.name, p.day ORDER BY p.source_id, p.day`,
    [workspaceId, days, MAX_FORMS],
  );
  const forms = new Map<string, { name: string | null; counts: Map<string, number> }>();
  for (const r of rows) {
    const form = forms.get(r.form_id) ?? { name: r.form_name, counts: new Map() };
    form.counts.set(r.day, r.count);
    forms.set(r.form_id, form);
  }
  return [...forms].map(([form_id, f]) => ({
    form_id,
    form_name: f.name,
    points: dayList.map((day) => ({ day, count: f.counts.get(day) ?? 0 })),
  }));
}
