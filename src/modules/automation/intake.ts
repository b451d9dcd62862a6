import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { newSecret } from '../../lib/ids.js';
import { insertRuns, startRun } from './start-runs.js';

/** What the lead-intake endpoints need to know of a sequence. */
export interface SequenceForIntake {
  workspaceId: string;
  id: string;
  triggerType: 'webhook' | 'form_submitted' | 'lead_created';
  /** In clear, for webhook sequences: the HMAC check needs it. */
  secret: string | null;
  publishedVersion: number | null;
  defaultCountryCode: string | null;
}

export async function findSequence(ctx: AppContext, sequenceId: string): Promise<SequenceForIntake | null> {
  const { rows } = await ctx.db.query<{
    workspace_id: string;
    trigger_type: SequenceForIntake['triggerType'];
    secret_enc: string | null;
    published_version: number | null;
    default_country_code: string | null;
  }>(
    `SELECT a.workspace_id, a.trigger_type, a.secret_enc, a.published_version, w.default_country_code
     FROM automations a JOIN workspaces w ON w.id = a.workspace_id
     WHERE a.id = $1 AND a.kind = 'sequence'`,
    [sequenceId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    workspaceId: row.workspace_id,
    id: sequenceId,
    triggerType: row.trigger_type,
    secret: row.secret_enc ? ctx.secrets.open(row.secret_enc) : null,
    publishedVersion: row.published_version,
    defaultCountryCode: row.default_country_code,
  };
}

/**
 * Enrols a lead in a sequence, on its published version; call it once the lead is committed. A lead
 * with an unfinished run of the sequence is not enrolled twice: that run is returned, enrolled false.
 */
export async function enrollLead(
  ctx: AppContext,
  input: {
    workspaceId: string;
    sequenceId: string;
    leadId: string;
    contactId: string | null;
    payload: Record<string, unknown>;
  },
): Promise<{ runId: string; enrolled: boolean }> {
  const { rows } = await ctx.db.query<{ published_version: number | null }>(
    'SELECT published_version FROM automations WHERE workspace_id = $1 AND id = $2',
    [input.workspaceId, input.sequenceId],
  );
  const version = rows[0]?.published_version;
  if (!version) {
    throw new ApiError(
      'not_found',
      'The workflow is not published: publish it before starting it by webhook',
    );
  }
  const run = await startRun(ctx, input.workspaceId, {
    automationId: input.sequenceId,
    version,
    contactId: input.contactId,
    leadId: input.leadId,
    triggerData: { payload: input.payload },
  });
  return { runId: run.runId, enrolled: run.created };
}

/**
 * The workspace's published "lead created" sequences, and the "form submitted" ones of any form or of
 * form `$form` (NULL for a lead not from a form), as a JSON list of {id, version}: a subquery, so the
 * statement that stores the lead also says which runs it starts.
 */
export function newLeadSequencesSql(workspace: string, form: string): string {
  return `(SELECT coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'version', a.published_version)), '[]')
     FROM automations a
     WHERE a.workspace_id = ${workspace} AND a.published_version IS NOT NULL
       AND (a.trigger_type = 'lead_created' OR (a.trigger_type = 'form_submitted' AND ${form}::text IS NOT NULL
         AND (a.trigger_form_id IS NULL OR a.trigger_form_id = ${form}::text))))`;
}

/**
 * Starts a new lead's runs of these sequences in the transaction that stores it, so the lead and its
 * runs commit together; each step job runs later, never in the request. Returns the run ids by sequence.
 */
export async function startNewLeadRuns(
  ctx: AppContext,
  tx: Queryable,
  lead: { workspaceId: string; id: string; contactId: string | null; payload: Record<string, unknown> },
  sequences: { id: string; version: number }[],
): Promise<Map<string, string>> {
  const created = await insertRuns(
    ctx,
    tx,
    sequences.map((sequence) => ({
      workspace_id: lead.workspaceId,
      automation_id: sequence.id,
      version: sequence.version,
      contact_id: lead.contactId,
      lead_id: lead.id,
      trigger_data: { payload: lead.payload },
    })),
    'lead',
  );
  return new Map(created.map((run) => [run.automation_id, run.id]));
}

/** A new secret for a webhook sequence; the old one stops working at once. Null when there is no such sequence. */
export async function rotateSequenceSecret(
  ctx: AppContext,
  workspaceId: string,
  sequenceId: string,
): Promise<string | null> {
  const secret = newSecret('whsec_');
  const { rows } = await ctx.db.query(
    `UPDATE automations SET secret_enc = $3, updated_at = now()
     WHERE workspace_id = $1 AND id = $2 AND trigger_type = 'webhook' RETURNING id`,
    [workspaceId, sequenceId, ctx.secrets.seal(secret)],
  );
  return rows[0] ? secret : null;
}
