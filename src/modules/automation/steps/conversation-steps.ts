import { ApiError } from '../../../http/errors.js';
import { type ConversationChangeInput, changeConversationIn } from '../../inbox/change-conversation.js';
import { PermanentStepError, type StepInput, type StepOutcome } from './step.js';

/**
 * Gives the conversation to a teammate (or to the unassigned queue) and lets go of it: the bot stops
 * talking. With then=wait the run waits, without holding it, until a teammate hands it back.
 */
export async function assign(
  input: StepInput,
  step: { to?: string | null; then?: 'end' | 'wait' },
): Promise<StepOutcome> {
  if (!input.contactId) throw new PermanentStepError('the run has no contact whose conversation to assign');
  const to = step.to ?? null;
  let after: StepOutcome['after'];
  try {
    after = await change(input, { assignee_id: to });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'validation_error')
      throw new PermanentStepError(
        `"${to}" is not a member of this workspace: assign to a member's user id, or to null for the unassigned queue`,
      );
    throw err;
  }
  await input.db.query('UPDATE runs SET holds_conversation = false WHERE workspace_id = $1 AND id = $2', [
    input.workspaceId,
    input.runId,
  ]);
  const outcome = { assignee_id: to };
  if (step.then === 'wait') return { status: 'done', outcome, awaits: 'handoff', after };
  return { status: 'done', outcome, branch: null, after };
}

/** Marks the conversation resolved; the run goes on. */
export async function resolve(input: StepInput): Promise<StepOutcome> {
  if (!input.contactId) throw new PermanentStepError('the run has no contact whose conversation to resolve');
  const after = await change(input, { state: 'resolved' });
  return { status: 'done', outcome: { state: 'resolved' }, after };
}

/** The change, by the bot (no teammate), in the step's transaction; what its subscribers ask for after the commit. */
function change(input: StepInput, what: ConversationChangeInput) {
  const by = { workspaceId: input.workspaceId, userId: null, via: 'bot' as const };
  return changeConversationIn(input.ctx, input.db, by, input.contactId!, what);
}
