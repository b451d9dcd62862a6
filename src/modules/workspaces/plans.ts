import type { Queryable } from '../../db/db.js';

export interface PlanLimits {
  contacts: number;
  monthlyLeads: number;
  messagesPerMonth: number;
}

export interface Plan extends PlanLimits {
  name: string;
}

export const DEFAULT_PLAN = 'free';

/** Creates the plan or changes its limits; workspaces on it follow at once. */
export async function setPlan(db: Queryable, name: string, limits: PlanLimits): Promise<Plan> {
  await db.query(
    `INSERT INTO plans (name, contacts_limit, monthly_leads_limit, messages_per_month_limit)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (name) DO UPDATE SET contacts_limit = EXCLUDED.contacts_limit,
       monthly_leads_limit = EXCLUDED.monthly_leads_limit,
       messages_per_month_limit = EXCLUDED.messages_per_month_limit, updated_at = now()`,
    [name, limits.contacts, limits.monthlyLeads, limits.messagesPerMonth],
  );
  return { name, ...limits };
}

export async function planExists(db: Queryable, name: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM plans WHERE name = $1', [name]);
  return rows.length > 0;
}
