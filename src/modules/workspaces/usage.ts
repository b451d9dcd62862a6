import type { Queryable } from '../../db/db.js';

/** The plan's limits beside what the workspace has used: contacts, this month's messages and leads (UTC months). */
export async function usageOf(db: Queryable, workspaceId: string) {
  const { rows } = await db.query<{
    plan: string;
    contacts_limit: number;
    monthly_leads_limit: number;
    messages_per_month_limit: number;
    contacts: string;
    messages: string | null;
    leads: number | null;
  }>(
    `SELECT p.name AS plan, p.contacts_limit, p.monthly_leads_limit, p.messages_per_month_limit,
       (SELECT count(*) FROM contacts c WHERE c.workspace_id = w.id) AS contacts,
       (SELECT sent FROM message_usage u WHERE u.workspace_id = w.id
          AND u.month = date_trunc('month', now() AT TIME ZONE 'UTC')::date) AS messages,
       (SELECT created FROM lead_usage l WHERE l.workspace_id = w.id
          AND l.month = date_trunc('month', now() AT TIME ZONE 'UTC')::date) AS leads
     FROM workspaces w JOIN plans p ON p.name = w.plan WHERE w.id = $1`,
    [workspaceId],
  );
  const r = rows[0]!;
  return {
    plan: r.plan,
    contacts: { used: Number(r.contacts), limit: r.contacts_limit },
    messages_this_month: { used: Number(r.messages ?? 0), limit: r.messages_per_month_limit },
    leads_this_month: { used: Number(r.leads ?? 0), limit: r.monthly_leads_limit },
  };
}
