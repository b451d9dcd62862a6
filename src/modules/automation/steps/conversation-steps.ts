import { ApiError } from '../../../api/errors.js';
import { type ConversationChangeInput, changeConversationIn } from '../../inbox/change-conversation.js';
import { assignToTeam } from '../../routing/assign-to-team.js';
import { PermanentStepError, type StepInput, type StepOutcome } from './step.js';

/**
 * Gives the conversation to a teammate, to a team (round robin among its available members) or to the
 * unassigned queue, and lets go of it: the bot stops talking. With then=wait the run waits, without
 * holding it, until a teammate hands it back.
 */
export async function assign(
  input: StepInput,
  step: { to?: string | null; team?: string; then?: 'end' | 'wait' },
): Promise<StepOutcome> {
  if (!input.contactId) throw new PermanentStepError('the run has no contact whose conversation to assign');
  let to = step.to ?? null;
  let after: StepOutcome['after'];
  try {
    if (step.team) ({ assigneeId: to, after } = await toTeam(input, step.team));
    else after = await change(input, { assignee_id: to });
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
  const outcome = step.team ? { team_id: step.team, assignee_id: to } : { assignee_id: to };
  if (step.then === 'wait') return { status: 'done', outcome, awaits: 'handoff', after };
  return { status: 'done', outcome, branch: null, after };
}

/** Marks the conversation resolved; the run goes on. */
export async function resolve(input: StepInput): Promise<StepOutcome> {
  if (!input.contactId) throw new PermanentStepError('the run has no contact whose conversation to resolve');
  const after = await change(input, { state: 'resolved' });
  return { status: 'done', outcome: { state: 'resolved' }, after };
}

const byBot = (input: StepInput) => ({ workspaceId: input.workspaceId, userId: null, via: 'bot' as const });

/** The change, by the bot (no teammate), in the step's transaction; what its subscribers ask for after the commit. */
function change(input: StepInput, what: ConversationChangeInput) {
  return changeConversationIn(input.ctx, input.db, byBot(input), input.contactId!, what);
}

/** Round robin in the team (routing/assign-to-team.ts): who got it, or null (left in the team's queue). */
async function toTeam(input: StepInput, teamId: string) {
  try {
    return await assignToTeam(input.ctx, input.db, byBot(input), input.contactId!, teamId);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found')
      throw new PermanentStepError(
        `"${teamId}" is not a team of this workspace: pick one in Settings › Teams`,
      );
    throw err;
  }
}
