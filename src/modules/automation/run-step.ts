import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import type { JobData } from '../../jobs/job-data.js';
import { type AfterCommit, runAfterCommit } from '../messaging/events.js';
import { insideHoursAt } from '../routing/business-hours-settings.js';
import { emitEvent, queueDeliveries, recordEvent } from '../webhooks/emit.js';
import { askRetry, askTimedOut } from './bot-conversation.js';
import { evaluate, usesHours } from './conditions.js';
import { following, type Step } from './definition.js';
import { publishedDefinition } from './published-definition.js';
import { loadScope, type RunRow } from './run-scope.js';
import { queueStep } from './start-runs.js';
import { ask } from './steps/ask.js';
import { addTag, removeTag, setTrait, updateLeadStatus } from './steps/contact-steps.js';
import { assign, resolve } from './steps/conversation-steps.js';
import { httpRequest } from './steps/http-request.js';
import { sendRich, sendTemplate, sendText } from './steps/send-steps.js';
import { PermanentStepError, type StepInput, type StepOutcome, TransientStepError } from './steps/step.js';
import { waitUntil } from './steps/wait.js';
import { END, MAX_VISITS, nextVisit, stepKey } from './visits.js';

// Runs that are over: a job of theirs still queued does nothing.
const OVER = new Set(['completed', 'failed', 'stopped']);

export type StepJob = JobData<'automation.step'>;

async function perform(step: Step, input: StepInput): Promise<StepOutcome> {
  switch (step.type) {
    case 'send_template':
      return sendTemplate(input, step.template);
    case 'send_text':
      return sendText(input, step.text, step.not_sent ?? null);
    case 'send_message':
      return sendRich(input, step.message, step.not_sent ?? null);
    case 'wait':
      return waitUntil(step);
    case 'add_tag':
      return addTag(input, step.tag);
    case 'remove_tag':
      return removeTag(input, step.tag);
    case 'set_trait':
      return setTrait(input, step.key, step.value);
    case 'condition': {
      const inside = usesHours(step.if) && (await insideHoursAt(input.db, input.workspaceId, new Date()));
      const holds = evaluate(step.if, input.scope, inside);
      return { status: 'done', outcome: { result: holds }, branch: holds ? step.if_true : step.if_false };
    }
    case 'http_request':
      return httpRequest(input, step);
    case 'update_lead_status':
      return updateLeadStatus(input, step.status);
    case 'ask':
      return ask(input, step);
    case 'assign':
      return assign(input, step);
    case 'resolve':
      return resolve(input);
  }
}

// Steps whose whole effect is rows in this database: they run in the transaction that records the
// step before them, so a run's chain of them costs one job and one commit. A wait only schedules.
const IN_DATABASE = new Set<Step['type']>([
  'add_tag',
  'remove_tag',
  'set_trait',
  'condition',
  'update_lead_status',
  'wait',
  'assign',
  'resolve',
]);
// Steps that read no placeholder or field do without loading the contact and lead.
const READS_NOTHING = new Set<Step['type']>([
  'add_tag',
  'remove_tag',
  'update_lead_status',
  'wait',
  'assign',
  'resolve',
]);
// Steps whose 'waiting' row waits on someone (the contact's answer, a teammate): only that person
// moves the run on, never the step's own job delivered again.
const WAITS_ON_SOMEONE = new Set<Step['type']>(['ask', 'assign']);

async function performOn(
  db: Queryable,
  ctx: AppContext,
  job: StepJob,
  run: RunRow,
  step: Step,
  visit: number,
) {
  const scope = READS_NOTHING.has(step.type)
    ? { event: run.trigger_data.event ?? {} }
    : await loadScope(db, job.workspaceId, job.runId, run);
  return perform(step, {
    ctx,
    db,
    workspaceId: job.workspaceId,
    runId: job.runId,
    contactId: run.contact_id,
    leadId: run.lead_id,
    scope,
    key: stepKey(job.runId, step.id, visit),
  });
}

interface Claim {
  status: string;
  next_step: string | null;
  next_visit: number | null;
  wait_until: Date | null;
}

/** Claims a visit's row before its effect; a row found finished (or failed) says the visit ran before. */
async function claim(db: Queryable, job: StepJob, step: Step, visit: number): Promise<Claim> {
  const { rows } = await db.query<Claim>(
    // clock_timestamp(): the steps of a chain share a transaction, and now() would order them by id.
    `INSERT INTO run_steps (workspace_id, run_id, step_id, visit, type, status, started_at)
     VALUES ($1, $2, $3, $4, $5, 'started', clock_timestamp())
     ON CONFLICT (workspace_id, run_id, step_id, visit) DO UPDATE SET attempts = run_steps.attempts + 1
     RETURNING status, next_step, next_visit, wait_until`,
    [job.workspaceId, job.runId, step.id, visit, step.type],
  );
  return rows[0]!;
}

/** A step after a wait: the wait's row is done now. */
async function endWait(db: Queryable, job: StepJob) {
  await db.query(
    `UPDATE run_steps SET status = 'done', finished_at = now()
     WHERE workspace_id = $1 AND run_id = $2 AND status = 'waiting' AND type = 'wait'`,
    [job.workspaceId, job.runId],
  );
}

/**
 * The `automation.step` job: runs one visit of a step of a run, records its outcome and queues the
 * next step in the same transaction. The visit's run_steps row is claimed before the side effect, so
 * a job delivered again finds the visit finished and only makes sure its successor is queued; a step
 * whose worker died mid-way runs again with the same idempotency key, which its side effect honours.
 * The steps that follow it and touch only the database run in that same transaction (see `settle`).
 * A step reached again (a loop through an ask or a wait) is a new visit with its own row, job and key.
 */
export async function runStep(ctx: AppContext, job: StepJob, lastTry: boolean): Promise<void> {
  const { workspaceId, runId, stepId } = job;
  const visit = job.visit ?? 1;
  const { rows } = await ctx.db.query<Omit<RunRow, 'definition'> & { version: number }>(
    `SELECT automation_id, version, status, contact_id, lead_id, trigger_data FROM runs
     WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, runId],
  );
  const row = rows[0];
  if (!row || OVER.has(row.status)) return;
  const run: RunRow = {
    ...row,
    definition: (await publishedDefinition(ctx.db, workspaceId, row.automation_id, row.version))!,
  };
  if (stepId === END) return advance(ctx, job, run, null);
  const steps = run.definition.steps;
  const index = steps.findIndex((s) => s.id === stepId);
  const step = steps[index];
  if (!step) return failRun(ctx, job, run, `the run's version has no step "${stepId}"`);
  if (visit > MAX_VISITS)
    return failStep(
      ctx,
      job,
      run,
      step,
      visit,
      `reached more than ${MAX_VISITS} times in this run (a step runs at most ${MAX_VISITS} times), so the loop stops here`,
    );

  // The step being run when something throws: the one a last try marks failed.
  const at = { step, visit };
  try {
    if (job.timeout || job.retry) {
      if (step.type !== 'ask') return;
      if (job.timeout) await askTimedOut(ctx, job, step, visit);
      else await askRetry(ctx, job, run, step, visit, job.retry!);
      return;
    }
    let done: Settled;
    if (IN_DATABASE.has(step.type)) {
      done = await settle(ctx, job, run, index, visit, null, at);
    } else {
      const prior = await claim(ctx.db, job, step, visit);
      if (prior.status === 'failed') return;
      // Finished before, but its successor may not have been queued: queue it (a no-op if it was).
      if (prior.status !== 'started') done = { prior };
      else {
        if (run.status === 'waiting') await endWait(ctx.db, job);
        const result = await performOn(ctx.db, ctx, job, run, step, visit);
        done = await settle(ctx, job, run, index, visit, result, at);
      }
    }
    if ('prior' in done) {
      const { prior } = done;
      if (prior.status === 'failed') return;
      if (prior.status === 'waiting' && WAITS_ON_SOMEONE.has(step.type)) return;
      return advance(ctx, job, run, prior.next_step, prior.wait_until ?? undefined, prior.next_visit ?? 1);
    }
    await runAfterCommit(done.after);
    if (done.queued && !done.waiting) ctx.queue?.wake('automation.step');
    await queueDeliveries(ctx, workspaceId, done.deliveries);
  } catch (err) {
    if (err instanceof PermanentStepError || (err instanceof TransientStepError && lastTry)) {
      return failStep(ctx, job, run, at.step, at.visit, err.message);
    }
    if (err instanceof TransientStepError) throw err;
    if (lastTry)
      await failStep(ctx, job, run, at.step, at.visit, `internal error: ${(err as Error).message}`);
    throw err;
  }
}

/**
 * How a chain ended: the job queued next (none: the run completed) and what its steps ask for once it
 * committed, or the first step's earlier claim.
 */
type Settled =
  | { queued: string | null; waiting?: Date; deliveries: string[]; after: AfterCommit[] }
  | { prior: Claim };

/**
 * In one transaction: records the outcome of the visit at `index` (run first when `result` is null:
 * a database-only step), runs each following database-only step, and ends with the run's state and
 * the job of the step after them (a send, a call, the end of a wait). A crash anywhere rolls it all
 * back and the job runs the chain again; every step in it is a set, not a count, so that is harmless.
 * A step that waits on someone (an ask, an assign that waits) leaves the run waiting with no job
 * queued but an ask's deadline.
 */
async function settle(
  ctx: AppContext,
  job: StepJob,
  run: RunRow,
  index: number,
  visit: number,
  result: StepOutcome | null,
  at: { step: Step; visit: number },
): Promise<Settled> {
  const steps = run.definition.steps;
  return ctx.db.transaction(async (tx) => {
    const after: AfterCommit[] = [];
    let i = index;
    let v = visit;
    let outcome = result;
    let afterWait = run.status === 'waiting';
    for (;;) {
      const step = steps[i]!;
      at.step = step;
      at.visit = v;
      if (!outcome) {
        const prior = await claim(tx, job, step, v);
        if (prior.status !== 'started') {
          if (i === index) return { prior };
          // Ran before in an earlier chain: its own job takes it from here.
          await queueStep(ctx, tx, job.workspaceId, job.runId, step.id, { visit: v });
          return { queued: step.id, deliveries: [], after };
        }
        if (afterWait) await endWait(tx, job);
        outcome = await performOn(tx, ctx, job, run, step, v);
      }
      afterWait = false;
      after.push(...(outcome.after ?? []));
      if (outcome.awaits) {
        await awaitSomeone(ctx, tx, job, step.id, v, outcome);
        return { queued: null, deliveries: [], after };
      }
      const next = following(steps, i, outcome.branch !== undefined ? outcome.branch : step.next);
      const nv = next ? await nextVisit(tx, job.workspaceId, job.runId, next) : null;
      const waiting =
        outcome.waitUntil && outcome.waitUntil.getTime() > Date.now() ? outcome.waitUntil : undefined;
      const nextIndex = next && !waiting ? steps.findIndex((s) => s.id === next) : -1;
      // A step past its last allowed visit is not run here: its own job fails the run, saying why.
      const chained = nextIndex >= 0 && IN_DATABASE.has(steps[nextIndex]!.type) && nv! <= MAX_VISITS;
      await record(tx, job, step.id, v, outcome, next, nv, waiting, !chained);
      if (chained) {
        i = nextIndex;
        v = nv!;
        outcome = null;
        continue;
      }
      // A wait as the last step still holds the run (a lead stays enrolled) until it ends.
      const then = next ?? (waiting ? END : null);
      if (then)
        await queueStep(ctx, tx, job.workspaceId, job.runId, then, { visit: nv ?? 1, startAfter: waiting });
      // A run that completes records its `flow.run.finished` with the completion.
      const deliveries = then ? [] : await recordEvent(tx, ...finished(job, run, 'completed'));
      return { queued: then, waiting, deliveries, after };
    }
  });
}

/**
 * Leaves the run waiting on a visit: for the contact's answer until a deadline (whose job then takes
 * the ask's on_timeout branch unless the answer came first), or for a teammate to hand the
 * conversation back (no deadline).
 */
async function awaitSomeone(
  ctx: AppContext,
  tx: Queryable,
  job: StepJob,
  stepId: string,
  visit: number,
  result: StepOutcome,
): Promise<void> {
  const until = result.awaits instanceof Date ? result.awaits : null;
  const awaiting = until
    ? { kind: 'answer', step: stepId, visit, attempts: 0, until: until.toISOString() }
    : { kind: 'handoff', step: stepId, visit };
  await tx.query(
    `WITH step AS (
       UPDATE run_steps SET status = 'waiting', outcome = $5::jsonb, next_step = NULL, next_visit = NULL,
         wait_until = $6, error = NULL, finished_at = NULL
       WHERE workspace_id = $1 AND run_id = $2 AND step_id = $3 AND visit = $4)
     UPDATE runs SET status = 'waiting', current_step = $3, awaiting = $7::jsonb, updated_at = now()
     WHERE workspace_id = $1 AND id = $2 AND status IN ('running', 'waiting')`,
    [
      job.workspaceId,
      job.runId,
      stepId,
      visit,
      JSON.stringify(result.outcome),
      until,
      JSON.stringify(awaiting),
    ],
  );
  if (until)
    await queueStep(ctx, tx, job.workspaceId, job.runId, stepId, { visit, timeout: true, startAfter: until });
}

/** A visit's outcome; with `withRun`, the run's new state too, in the same statement. */
function record(
  q: Queryable,
  job: StepJob,
  stepId: string,
  visit: number,
  result: StepOutcome,
  next: string | null,
  nextVisit: number | null,
  waiting: Date | undefined,
  withRun: boolean,
) {
  const step = `UPDATE run_steps SET status = $5, outcome = $6::jsonb, next_step = $7, next_visit = $8,
      wait_until = $9, error = NULL, finished_at = CASE WHEN $5 = 'waiting' THEN NULL ELSE now() END
    WHERE workspace_id = $1 AND run_id = $2 AND step_id = $3 AND visit = $4`;
  const values = [
    job.workspaceId,
    job.runId,
    stepId,
    visit,
    waiting ? 'waiting' : result.status,
    JSON.stringify(result.outcome),
    next,
    nextVisit,
    waiting ?? null,
  ];
  if (!withRun) return q.query(step, values);
  return q.query(
    `WITH step AS (${step})
     UPDATE runs SET status = $10, current_step = $7, updated_at = now(),
       finished_at = CASE WHEN $10 = 'completed' THEN now() END
     WHERE workspace_id = $1 AND id = $2 AND status IN ('running', 'waiting')`,
    [...values, waiting ? 'waiting' : next ? 'running' : 'completed'],
  );
}

async function advance(
  ctx: AppContext,
  job: StepJob,
  run: RunRow,
  step: string | null,
  after?: Date,
  visit = 1,
) {
  const next = step ?? (after && after.getTime() > Date.now() ? END : null);
  if (!next) {
    const { rows } = await ctx.db.query(
      `WITH waits AS (
         UPDATE run_steps SET status = 'done', finished_at = now()
         WHERE workspace_id = $1 AND run_id = $2 AND status = 'waiting')
       UPDATE runs SET status = 'completed', current_step = NULL, awaiting = NULL, finished_at = now(),
         updated_at = now()
       WHERE workspace_id = $1 AND id = $2 AND status IN ('running', 'waiting') RETURNING id`,
      [job.workspaceId, job.runId],
    );
    if (rows[0]) await runFinished(ctx, job, run, 'completed');
    return;
  }
  await ctx.db.transaction((tx) =>
    queueStep(ctx, tx, job.workspaceId, job.runId, next, { visit: step ? visit : 1, startAfter: after }),
  );
  ctx.queue?.wake('automation.step');
}

async function failStep(
  ctx: AppContext,
  job: StepJob,
  run: RunRow,
  step: Step,
  visit: number,
  error: string,
) {
  // A step in a rolled-back chain has no row yet: the failure makes it.
  await ctx.db.query(
    `INSERT INTO run_steps (workspace_id, run_id, step_id, visit, type, status, error, started_at, finished_at)
     VALUES ($1, $2, $3, $4, $5, 'failed', $6, clock_timestamp(), now())
     ON CONFLICT (workspace_id, run_id, step_id, visit) DO UPDATE SET status = 'failed', error = $6, finished_at = now()`,
    [job.workspaceId, job.runId, step.id, visit, step.type, error],
  );
  await failRun(ctx, job, run, `step "${step.id}": ${error}`);
}

async function failRun(ctx: AppContext, job: StepJob, run: RunRow, error: string) {
  const { rows } = await ctx.db.query(
    `UPDATE runs SET status = 'failed', error = $3, finished_at = now(), updated_at = now()
     WHERE workspace_id = $1 AND id = $2 AND status IN ('running', 'waiting') RETURNING id`,
    [job.workspaceId, job.runId, error],
  );
  if (rows[0]) await runFinished(ctx, job, run, 'failed', error);
}

function finished(job: StepJob, run: RunRow, status: string, error?: string) {
  return [
    job.workspaceId,
    'flow.run.finished',
    `run/${job.runId}`,
    {
      run_id: job.runId,
      automation_id: run.automation_id,
      status,
      error: error ?? null,
      contact_id: run.contact_id,
      lead_id: run.lead_id,
    },
  ] as const;
}

async function runFinished(ctx: AppContext, job: StepJob, run: RunRow, status: string, error?: string) {
  await emitEvent(ctx, ...finished(job, run, status, error));
}
