import { interpolate } from '../interpolate.js';
import type { StepInput, StepOutcome } from './step.js';

const noContact: StepOutcome = { status: 'skipped', outcome: { reason: 'the run has no contact' } };

// Tags and traits are set, not counted: doing one again changes nothing, so a retried step is harmless.
export async function addTag(input: StepInput, tag: string): Promise<StepOutcome> {
  if (!input.contactId) return noContact;
  await input.db.query(
    `UPDATE contacts SET tags = array_append(tags, $3), updated_at = now()
     WHERE workspace_id = $1 AND id = $2 AND NOT ($3 = ANY (tags))`,
    [input.workspaceId, input.contactId, tag],
  );
  return { status: 'done', outcome: { tag } };
}

export async function removeTag(input: StepInput, tag: string): Promise<StepOutcome> {
  if (!input.contactId) return noContact;
  await input.db.query(
    `UPDATE contacts SET tags = array_remove(tags, $3), updated_at = now()
     WHERE workspace_id = $1 AND id = $2 AND $3 = ANY (tags)`,
    [input.workspaceId, input.contactId, tag],
  );
  return { status: 'done', outcome: { tag } };
}

export async function setTrait(input: StepInput, key: string, template: string): Promise<StepOutcome> {
  if (!input.contactId) return noContact;
  const value = interpolate(template, input.scope);
  await input.db.query(
    `UPDATE contacts SET traits = traits || jsonb_build_object($3::text, $4::text), updated_at = now()
     WHERE workspace_id = $1 AND id = $2`,
    [input.workspaceId, input.contactId, key, value],
  );
  return { status: 'done', outcome: { key, value } };
}

export async function updateLeadStatus(input: StepInput, status: string): Promise<StepOutcome> {
  if (!input.leadId) return { status: 'skipped', outcome: { reason: 'the run has no lead' } };
  await input.db.query(
    'UPDATE leads SET status = $3, updated_at = now() WHERE workspace_id = $1 AND id = $2',
    [input.workspaceId, input.leadId, status],
  );
  return { status: 'done', outcome: { status } };
}
