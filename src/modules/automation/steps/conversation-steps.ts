import { ApiError } from '../../../http/errors.js';
import { type ConversationChangeInput, changeConversationIn } from '../../inbox/change-conversation.js';
import { runAfterCommit } from '../../messaging/events.js';
import { assignToTeam } from '../../routing/assign-to-team.js';
import { PermanentStepError, type StepInput, type StepOutcome } from './step.js';

/**
 * Gives the conversation to a teammate (or to the unassigned queue) and lets go of it: the bot stops
 * talking. With then=wait the run waits, without holding it, until a teammate hands it back.
 */
export async function assign(
  input: StepInput,
  step: { to?: string | null; team?: string; then?: 'end' | 'wait' },
): Promise<StepOutcome> {
  if (!input.contactId) throw new PermanentStepError('the run has no contact whose conversation to assign');
  let to = step.to ?? null;
  try {
    if (step.team) to = await toTeam(input, step.team);
    else await change(input, { assignee_id: to });
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
  if (step.then === 'wait') return { status: 'done', outcome, awaits: 'handoff' };
  return { status: 'done', outcome, branch: null };
}

/** Marks the conversation resolved; the run goes on. */
export async function resolve(input: StepInput): Promise<StepOutcome> {
  if (!input.contactId) throw new PermanentStepError('the run has no contact whose conversation to resolve');
  await change(input, { state: 'resolved' });
  return { status: 'done', outcome: { state: 'resolved' } };
}

/** Round robin in the team (routing/assign-to-team.ts): who got it, or null (left in the team's queue). */
async function toTeam(input: StepInput, teamId: string): Promise<string | null> {
  const by = { workspaceId: input.workspaceId, userId: null };
  try {
    const { assigneeId, after } = await assignToTeam(input.ctx, input.db, by, input.contactId!, teamId);
    await runAfterCommit(after);
    return assigneeId;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found')
      throw new PermanentStepError(
        `"${teamId}" is not a team of this workspace: pick one in Settings › Teams`,
      );
    throw err;
  }
}

/** The change, by the bot (no teammate), in the step's transaction. */
async function change(input: StepInput, what: ConversationChangeInput) {
  const by = { workspaceId: input.workspaceId, userId: null };
  const after = await changeConversationIn(input.ctx, input.db, by, input.contactId!, what);
  // Before the step commits, not after: no subscriber of conversation.changed returns such work yet.
  await runAfterCommit(after);
}
