import type { Queryable } from '../../db/db.js';

/** The plan's limits beside what the workspace has used: contacts, this month's messages and leads. */
export async function usageOf(db: Queryable, workspaceId: string) {
  const { rows } = await db.query<{
    plan: string;
    contacts_limit: number;
    monthly_leads_limit: number;
    messages_per_month_limit: number;
    contacts: string;
    messages: string | null;
    has_leads: boolean;
  }>(
    `SELECT p.name AS plan, p.contacts_limit, p.monthly_leads_limit, p.messages_per_month_limit,
       (SELECT count(*) FROM contacts c WHERE c.workspace_id = w.id) AS contacts,
       (SELECT sent FROM message_usage u WHERE u.workspace_id = w.id
          AND u.month = date_trunc('month', now() AT TIME ZONE 'UTC')::date) AS messages,
       to_regclass('leads') IS NOT NULL AS has_leads
     FROM workspaces w JOIN plans p ON p.name = w.plan WHERE w.id = $1`,
    [workspaceId],
  );
  const r = rows[0]!;
  let leads: number | null = null;
  // The leads table arrives with lead intake; until then there is nothing to count.
  if (r.has_leads) {
    const l = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM leads WHERE workspace_id = $1
       AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
      [workspaceId],
    );
    leads = Number(l.rows[0]!.n);
  }
  return {
    plan: r.plan,
    contacts: { used: Number(r.contacts), limit: r.contacts_limit },
    messages_this_month: { used: Number(r.messages ?? 0), limit: r.messages_per_month_limit },
    leads_this_month: leads === null ? null : { used: leads, limit: r.monthly_leads_limit },
  };
}
