import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { inTransaction } from '../../jobs/enqueue.js';
import type { JobData } from '../../jobs/job-data.js';
import { recordEvent } from '../webhooks/emit.js';
import { type AskStep, type Definition, following } from './definition.js';
import type { ReceivedMessage } from './message-event.js';
import { publishedDefinition } from './published-definition.js';
import { loadScope, type RunRow } from './run-scope.js';
import { queueStep } from './start-runs.js';
import { checkAnswer } from './steps/answer.js';
import { sendQuestion } from './steps/ask.js';
import { END, nextVisit, stepKey } from './visits.js';

/** What a waiting run waits for (runs.awaiting): an ask's answer until a deadline, or a teammate's hand-back. */
type Awaiting =
  | { kind: 'answer'; step: string; visit: number; attempts: number; until: string }
  | { kind: 'handoff'; step: string; visit: number };

interface WaitingRun {
  id: string;
  automation_id: string;
  version: number;
  status: string;
  awaiting: Awaiting | null;
}

/**
 * Ends a visit the run waited on and sends the run on to `next` (its end when null), in `tx`: the
 * visit's row is done with `outcome` added to what it held, and the next visit's job is queued.
 */
async function goOn(
  ctx: AppContext,
  tx: Queryable,
  workspaceId: string,
  runId: string,
  waited: { step: string; visit: number },
  outcome: Record<string, unknown>,
  next: string | null,
) {
  const visit = next ? await nextVisit(tx, workspaceId, runId, next) : null;
  await tx.query(
    `WITH step AS (
       UPDATE run_steps SET status = 'done', outcome = outcome || $5::jsonb, next_step = $6, next_visit = $7,
         wait_until = NULL, finished_at = now()
       WHERE workspace_id = $1 AND run_id = $2 AND step_id = $3 AND visit = $4)
     UPDATE runs SET status = 'running', awaiting = NULL, current_step = $6, updated_at = now()
     WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, runId, waited.step, waited.visit, JSON.stringify(outcome), next, visit],
  );
  // The end of the run is a job too, so that it records flow.run.finished as every other end does.
  await queueStep(ctx, tx, workspaceId, runId, next ?? END, { visit: visit ?? 1 });
}

async function definitionOf(tx: Queryable, workspaceId: string, run: WaitingRun): Promise<Definition> {
  const definition = await publishedDefinition(tx, workspaceId, run.automation_id, run.version);
  if (!definition) throw new Error(`no version ${run.version} of ${run.automation_id}`);
  return definition;
}

/** Where an answer goes: the chosen option's own next, else the step's. */
function branchOf(definition: Definition, step: AskStep, option: { next?: string | null } | null) {
  if (option && option.next !== undefined) return option.next;
  const index = definition.steps.findIndex((s) => s.id === step.id);
  return following(definition.steps, index, step.next);
}

/** Keeps a valid answer where the ask's `save_to` says: the contact's name, e-mail or a trait, or a run variable. */
async function saveAnswer(
  tx: Queryable,
  workspaceId: string,
  runId: string,
  contactId: string,
  saveTo: string,
  value: string,
) {
  const [scope, field, ...rest] = saveTo.split('.');
  const key = rest.join('.');
  if (scope === 'vars')
    await tx.query(
      `UPDATE runs SET variables = variables || jsonb_build_object($3::text, $4::text)
       WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, runId, field, value],
    );
  else if (field === 'traits')
    await tx.query(
      `UPDATE contacts SET traits = traits || jsonb_build_object($3::text, $4::text), updated_at = now()
       WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, contactId, key, value],
    );
  else if (field === 'name' || field === 'email')
    await tx.query(
      `UPDATE contacts SET ${field} = $3, updated_at = now() WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, contactId, value],
    );
}

/**
 * Hands an inbound message to the run of this contact that awaits an answer, if any; true when one
 * took it. Runs in the inbound message's transaction (once per message): the run is locked, the
 * answer checked against the ask, saved, recorded, and the branch it leads to queued, all in `tx`.
 * An invalid answer queues the question again (retry_text when given) until the ask's attempts are
 * used up, then takes on_invalid. An answer after the deadline is left to the deadline's job.
 */
export async function answerAwaited(
  ctx: AppContext,
  tx: Queryable,
  workspaceId: string,
  contactId: string,
  message: ReceivedMessage,
): Promise<boolean> {
  const run = await waitingRun(tx, workspaceId, contactId, 'answer');
  const awaiting = run?.awaiting;
  if (!run || awaiting?.kind !== 'answer' || Date.parse(awaiting.until) <= Date.now()) return false;
  const definition = await definitionOf(tx, workspaceId, run);
  const step = definition.steps.find((s): s is AskStep => s.id === awaiting.step && s.type === 'ask');
  if (!step) return false;
  const country = await tx.query<{ default_country_code: string | null }>(
    'SELECT default_country_code FROM workspaces WHERE id = $1',
    [workspaceId],
  );
  const checked = checkAnswer(step, message, country.rows[0]?.default_country_code ?? null);
  const attempts = awaiting.attempts + 1;
  if (checked.valid) {
    if (step.save_to) await saveAnswer(tx, workspaceId, run.id, contactId, step.save_to, checked.value);
    const outcome = {
      answer: checked.answer,
      option: checked.option?.id ?? null,
      attempts,
      answer_message_id: message.message_id,
    };
    await goOn(ctx, tx, workspaceId, run.id, awaiting, outcome, branchOf(definition, step, checked.option));
  } else if (attempts < (step.attempts ?? 3)) {
    await tx.query(
      `UPDATE runs SET awaiting = jsonb_set(awaiting, '{attempts}', to_jsonb($3::int)), updated_at = now()
       WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, run.id, attempts],
    );
    await queueStep(ctx, tx, workspaceId, run.id, step.id, { visit: awaiting.visit, retry: attempts });
  } else {
    const outcome = { answer: checked.answer, option: null, attempts, invalid: true };
    await goOn(ctx, tx, workspaceId, run.id, awaiting, outcome, step.on_invalid ?? null);
  }
  return true;
}

type StepJob = JobData<'automation.step'>;

/** The run a job belongs to, locked, when it still waits for this visit's answer; else null. */
async function stillAwaiting(tx: Queryable, job: StepJob, stepId: string, visit: number) {
  const { rows } = await tx.query<WaitingRun>(
    `SELECT id, automation_id, version, status, awaiting FROM runs
     WHERE workspace_id = $1 AND id = $2 FOR UPDATE`,
    [job.workspaceId, job.runId],
  );
  const a = rows[0]?.awaiting;
  if (rows[0]?.status !== 'waiting' || a?.kind !== 'answer' || a.step !== stepId || a.visit !== visit)
    return null;
  return a;
}

/** An ask's deadline passed: unless the answer came first, the run takes on_timeout (or ends). */
export async function askTimedOut(
  ctx: AppContext,
  job: StepJob,
  step: AskStep,
  visit: number,
): Promise<void> {
  const moved = await ctx.db.transaction(async (tx) => {
    const awaiting = await stillAwaiting(tx, job, step.id, visit);
    if (!awaiting) return false;
    const outcome = { answer: null, option: null, attempts: awaiting.attempts, timed_out: true };
    await goOn(ctx, tx, job.workspaceId, job.runId, awaiting, outcome, step.on_timeout ?? null);
    return true;
  });
  if (moved) ctx.queue?.wake('automation.step');
}

/**
 * After the n-th invalid answer: the question again (retry_text with the same options when given),
 * keyed by the visit and n so that a job delivered again sends nothing more. Not sent (the window
 * closed) changes nothing: the run keeps waiting until its deadline.
 */
export async function askRetry(
  ctx: AppContext,
  job: StepJob,
  run: RunRow,
  step: AskStep,
  visit: number,
  retry: number,
): Promise<void> {
  const awaiting = await stillAwaiting(ctx.db, job, step.id, visit);
  if (!awaiting || awaiting.attempts < retry) return;
  await sendQuestion(
    {
      ctx,
      db: ctx.db,
      workspaceId: job.workspaceId,
      runId: job.runId,
      contactId: run.contact_id,
      leadId: run.lead_id,
      scope: await loadScope(ctx.db, job.workspaceId, job.runId, run),
      key: `${stepKey(job.runId, step.id, visit)}/retry${retry}`,
    },
    step,
    true,
  );
}

/**
 * Ends the run holding this contact's conversation (status 'stopped', error = reason); its id, or
 * null. With `teammate`, only a run whose automation says on_teammate_reply=stop (the default).
 */
export async function stopConversationBot(
  ctx: AppContext,
  tx: Queryable,
  workspaceId: string,
  contactId: string,
  reason: string,
  opts: { teammate?: boolean } = {},
): Promise<string | null> {
  const { rows } = await tx.query<WaitingRun & { lead_id: string | null }>(
    `SELECT id, automation_id, version, status, awaiting, lead_id FROM runs
     WHERE workspace_id = $1 AND contact_id = $2 AND holds_conversation AND status IN ('running', 'waiting')
     FOR UPDATE`,
    [workspaceId, contactId],
  );
  const run = rows[0];
  if (!run) return null;
  if (opts.teammate && (await definitionOf(tx, workspaceId, run)).on_teammate_reply === 'continue')
    return null;
  await tx.query(
    `WITH steps AS (
       UPDATE run_steps SET status = 'skipped', outcome = outcome || jsonb_build_object('reason', $3::text),
         finished_at = now()
       WHERE workspace_id = $1 AND run_id = $2 AND status = 'waiting')
     UPDATE runs SET status = 'stopped', error = $3, awaiting = NULL, finished_at = now(), updated_at = now()
     WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, run.id, reason],
  );
  const deliveries = await recordEvent(tx, workspaceId, 'flow.run.finished', `run/${run.id}`, {
    run_id: run.id,
    automation_id: run.automation_id,
    status: 'stopped',
    error: reason,
    contact_id: contactId,
    lead_id: run.lead_id,
  });
  for (const deliveryId of deliveries)
    await ctx.queue?.send('webhooks.deliver', { workspaceId, deliveryId }, inTransaction(tx));
  return run.id;
}

/** The contact's run waiting for an answer or to be handed the conversation back, locked. */
async function waitingRun(tx: Queryable, workspaceId: string, contactId: string, kind: 'answer' | 'handoff') {
  const { rows } = await tx.query<WaitingRun>(
    `SELECT id, automation_id, version, status, awaiting FROM runs
     WHERE workspace_id = $1 AND contact_id = $2 AND status = 'waiting' AND awaiting->>'kind' = $3
     ORDER BY updated_at DESC LIMIT 1 FOR UPDATE`,
    [workspaceId, contactId, kind],
  );
  return rows[0];
}

/**
 * A teammate hands the conversation back: the run waiting after an `assign` with then=wait goes on to
 * its next step, holding the conversation again unless another bot has taken it meanwhile. Its id, or null.
 */
export async function resumeConversationBot(
  ctx: AppContext,
  tx: Queryable,
  workspaceId: string,
  contactId: string,
): Promise<string | null> {
  const run = await waitingRun(tx, workspaceId, contactId, 'handoff');
  const awaiting = run?.awaiting;
  if (!run || !awaiting) return null;
  const definition = await definitionOf(tx, workspaceId, run);
  const index = definition.steps.findIndex((s) => s.id === awaiting.step);
  const step = definition.steps[index];
  await tx.query(
    `UPDATE runs SET holds_conversation = NOT EXISTS (
       SELECT 1 FROM runs o WHERE o.workspace_id = $1 AND o.contact_id = $3 AND o.holds_conversation
         AND o.status IN ('running', 'waiting') AND o.id <> $2)
     WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, run.id, contactId],
  );
  const next = step ? following(definition.steps, index, step.next) : null;
  await goOn(ctx, tx, workspaceId, run.id, awaiting, { handed_back: true }, next);
  return run.id;
}

/** Whether a bot holds the contact's conversation (it answers; routing and automatic replies stay out). */
export async function botHolds(tx: Queryable, workspaceId: string, contactId: string): Promise<boolean> {
  const { rows } = await tx.query(
    `SELECT 1 FROM runs WHERE workspace_id = $1 AND contact_id = $2 AND holds_conversation
       AND status IN ('running', 'waiting')`,
    [workspaceId, contactId],
  );
  return rows.length > 0;
}
