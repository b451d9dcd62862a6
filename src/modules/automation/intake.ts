import type { AppContext } from '../../context.js';
import { ApiError } from '../../http/errors.js';
import { newSecret } from '../../lib/ids.js';
import { startRun } from './start-runs.js';

/** What the lead-intake endpoints need to know of a sequence. */
export interface SequenceForIntake {
  workspaceId: string;
  id: string;
  triggerType: 'webhook' | 'form_submitted' | 'lead_created';
  /** In clear, for webhook sequences: the HMAC check needs it. */
  secret: string | null;
  publishedVersion: number | null;
}

export async function findSequence(ctx: AppContext, sequenceId: string): Promise<SequenceForIntake | null> {
  const { rows } = await ctx.db.query<{
    workspace_id: string;
    trigger_type: SequenceForIntake['triggerType'];
    secret_enc: string | null;
    published_version: number | null;
  }>(
    `SELECT workspace_id, trigger_type, secret_enc, published_version FROM automations
     WHERE id = $1 AND kind = 'sequence'`,
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
 * Starts every published sequence of the workspace with this trigger ("form submitted" ones for any
 * form or for this form). Returns how many runs started.
 */
export async function startLeadSequences(
  ctx: AppContext,
  input: {
    workspaceId: string;
    trigger: 'form_submitted' | 'lead_created';
    formId?: string;
    leadId: string;
    contactId: string | null;
    payload: Record<string, unknown>;
  },
): Promise<number> {
  const { rows } = await ctx.db.query<{ id: string; published_version: number }>(
    `SELECT id, published_version FROM automations
     WHERE workspace_id = $1 AND trigger_type = $2 AND published_version IS NOT NULL
       AND (trigger_form_id IS NULL OR trigger_form_id = $3)`,
    [input.workspaceId, input.trigger, input.formId ?? null],
  );
  let started = 0;
  for (const sequence of rows) {
    const run = await startRun(ctx, input.workspaceId, {
      automationId: sequence.id,
      version: sequence.published_version,
      contactId: input.contactId,
      leadId: input.leadId,
      triggerData: { payload: input.payload },
    });
    if (run.created) started++;
  }
  return started;
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
