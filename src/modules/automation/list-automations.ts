import type { AppContext } from '../../context.js';
import { ISO } from '../contacts/list-contacts.js';
import type { Definition } from './definition.js';

export interface AutomationView {
  id: string;
  kind: 'flow' | 'sequence';
  name: string;
  trigger_type: string;
  trigger_event: string | null;
  draft: Definition;
  draft_version: number;
  published_version: number | null;
  /** Webhook sequences: the secret in clear, for the team to copy (the URL is a password). */
  secret: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = `id, kind, name, trigger_type, trigger_event, draft, draft_version, published_version, secret_enc,
  to_char(archived_at AT TIME ZONE 'UTC', ${ISO}) AS archived_at, to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', ${ISO}) AS updated_at`;

/** Archived, published (a version new runs start on) or a draft only. */
export function statusOf(a: { archived_at: string | null; published_version: number | null }) {
  if (a.archived_at) return 'archived' as const;
  return a.published_version === null ? ('draft' as const) : ('published' as const);
}

/** A webhook sequence's intake addresses: with the secret in the path, and without it (sent in a header). */
export function intakeLinks(ctx: AppContext, id: string, secret: string) {
  return {
    url: `${ctx.config.appUrl}/api/automation/webhooks/${id}/${secret}`,
    url_without_secret: `${ctx.config.appUrl}/api/automation/webhooks/${id}`,
    secret,
  };
}

/** intakeLinks of an automation started by a webhook (one that no longer is may keep its secret). */
export function webhookLinks(ctx: AppContext, a: Pick<AutomationView, 'id' | 'trigger_type' | 'secret'>) {
  return a.trigger_type === 'webhook' && a.secret ? intakeLinks(ctx, a.id, a.secret) : null;
}

function view(ctx: AppContext, row: AutomationView & { secret_enc: string | null }): AutomationView {
  const { secret_enc, ...rest } = row;
  return { ...rest, secret: secret_enc ? ctx.secrets.open(secret_enc) : null };
}

export async function listAutomations(
  ctx: AppContext,
  workspaceId: string,
  kind?: 'flow' | 'sequence',
  archived = false,
): Promise<AutomationView[]> {
  const { rows } = await ctx.db.query<AutomationView & { secret_enc: string | null }>(
    `SELECT ${COLUMNS} FROM automations WHERE workspace_id = $1 AND ($2::text IS NULL OR kind = $2)
       AND (archived_at IS NOT NULL) = $3
     ORDER BY automations.created_at DESC, id`,
    [workspaceId, kind ?? null, archived],
  );
  return rows.map((r) => view(ctx, r));
}

export async function getAutomation(
  ctx: AppContext,
  workspaceId: string,
  id: string,
): Promise<AutomationView | null> {
  const { rows } = await ctx.db.query<AutomationView & { secret_enc: string | null }>(
    `SELECT ${COLUMNS} FROM automations WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, id],
  );
  return rows[0] ? view(ctx, rows[0]) : null;
}
