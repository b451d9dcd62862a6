import type { AppContext } from '../../context.js';
import { startLeadSequences } from '../automation/intake.js';

export interface NewLeadStarted {
  workspaceId: string;
  id: string;
  contactId: string | null;
  /** What was submitted, for the runs' trigger data. */
  payload: Record<string, unknown>;
  /** Set for a lead from a form: its "form submitted" sequences start too. */
  formId?: string;
}

/**
 * A new lead starts the workspace's published "form submitted" sequences (a form's lead) and "lead
 * created" ones. The lead is already stored and the caller answered for it, so a failure here is
 * logged rather than turned into an error that would make the sender post the lead again.
 */
export async function startSequencesForNewLead(ctx: AppContext, lead: NewLeadStarted): Promise<void> {
  const base = {
    workspaceId: lead.workspaceId,
    leadId: lead.id,
    contactId: lead.contactId,
    payload: lead.payload,
  };
  try {
    if (lead.formId) {
      await startLeadSequences(ctx, { ...base, trigger: 'form_submitted', formId: lead.formId });
    }
    await startLeadSequences(ctx, { ...base, trigger: 'lead_created' });
  } catch (err) {
    ctx.log.error(
      { err, workspaceId: lead.workspaceId, leadId: lead.id },
      'lead sequences could not be started',
    );
  }
}
