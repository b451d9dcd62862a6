import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import type { JobData } from '../../jobs/job-data.js';
import { emitEvent, queueDeliveries, recordEvent } from '../webhooks/emit.js';
import { evaluate } from './conditions.js';
import { type Definition, following, type Step } from './definition.js';
import type { Scope } from './interpolate.js';
import { publishedDefinition } from './published-definition.js';
import { queueStep } from './start-runs.js';
import { addTag, removeTag, setTrait, updateLeadStatus } from './steps/contact-steps.js';
import { httpRequest } from './steps/http-request.js';
import { sendRich, sendTemplate, sendText } from './steps/send-steps.js';
import { PermanentStepError, type StepInput, type StepOutcome, TransientStepError } from './steps/step.js';
import { waitUntil } from './steps/wait.js';

interface RunRow {
  automation_id: string;
  status: string;
  contact_id: string | null;
  lead_id: string | null;
  trigger_data: { event?: Record<string, unknown> };
  definition: Definition;
}

// The job that ends a run whose last step is a wait (step ids cannot hold a dot).
const END = '.end';

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
      const holds = evaluate(step.if, input.scope);
      return { status: 'done', outcome: { result: holds }, branch: holds ? step.if_true : step.if_false };
    }
    case 'http_request':
      return httpRequest(input, step);
    case 'update_lead_status':
      return updateLeadStatus(input, step.status);
  }
}

/** The contact, lead and event a step reads, loaded fresh: earlier steps may have changed them. */
async function loadScope(db: Queryable, workspaceId: string, run: RunRow): Promise<Scope> {
  const scope: Scope = { event: run.trigger_data.event ?? {} };
  if (run.contact_id) {
    const { rows } = await db.query(
      'SELECT id, phone, name, email, tags, traits FROM contacts WHERE workspace_id = $1 AND id = $2',
      [workspaceId, run.contact_id],
    );
    scope.contact = rows[0] ?? {};
  }
  if (run.lead_id) {
    const { rows } = await db.query(
      'SELECT id, name, email, phone, status, source, fields FROM leads WHERE workspace_id = $1 AND id = $2',
      [workspaceId, run.lead_id],
    );
    scope.lead = rows[0] ?? {};
  }
  return scope;
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
]);
// Steps that read no placeholder or field do without loading the contact and lead.
const READS_NOTHING = new Set<Step['type']>(['add_tag', 'remove_tag', 'update_lead_status', 'wait']);

async function performOn(db: Queryable, ctx: AppContext, job: StepJob, run: RunRow, step: Step) {
  const scope = READS_NOTHING.has(step.type)
    ? { event: run.trigger_data.event ?? {} }
    : await loadScope(db, job.workspaceId, run);
  return perform(step, {
    ctx,
    db,
    workspaceId: job.workspaceId,
    runId: job.runId,
    contactId: run.contact_id,
    leadId: run.lead_id,
    scope,
    key: `${job.runId}/${step.id}`,
  });
}

interface Claim {
  status: string;
  next_step: string | null;
  wait_until: Date | null;
}

/** Claims a step's row before its effect; a row found finished (or failed) says the step ran before. */
async function claim(db: Queryable, job: StepJob, step: Step): Promise<Claim> {
  const { rows } = await db.query<Claim>(
    // clock_timestamp(): the steps of a chain share a transaction, and now() would order them by id.
    `INSERT INTO run_steps (workspace_id, run_id, step_id, type, status, started_at)
     VALUES ($1, $2, $3, $4, 'started', clock_timestamp())
     ON CONFLICT (workspace_id, run_id, step_id, visit) DO UPDATE SET attempts = run_steps.attempts + 1
     RETURNING status, next_step, wait_until`,
    [job.workspaceId, job.runId, step.id, step.type],
  );
  return rows[0]!;
}

/** A step after a wait: the wait's row is done now. */
async function endWait(db: Queryable, job: StepJob) {
  await db.query(
    `UPDATE run_steps SET status = 'done', finished_at = now()
     WHERE workspace_id = $1 AND run_id = $2 AND status = 'waiting'`,
    [job.workspaceId, job.runId],
  );
}

/**
 * The `automation.step` job: runs one step of a run, records its outcome and queues the next step in
 * the same transaction. The run_steps row is claimed before the side effect, so a job delivered again
 * finds the step finished and only makes sure its successor is queued; a step whose worker died
 * mid-way runs again with the same idempotency key, which its side effect honours. The steps that
 * follow it and touch only the database run in that same transaction (see `settle`).
 */
export async function runStep(ctx: AppContext, job: StepJob, lastTry: boolean): Promise<void> {
  const { workspaceId, runId, stepId } = job;
  const { rows } = await ctx.db.query<Omit<RunRow, 'definition'> & { version: number }>(
    `SELECT automation_id, version, status, contact_id, lead_id, trigger_data FROM runs
     WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, runId],
  );
  const row = rows[0];
  if (!row || row.status === 'completed' || row.status === 'failed' || row.status === 'stopped') return;
  const run: RunRow = {
    ...row,
    definition: (await publishedDefinition(ctx.db, workspaceId, row.automation_id, row.version))!,
  };
  if (stepId === END) return advance(ctx, job, run, null);
  const steps = run.definition.steps;
  const index = steps.findIndex((s) => s.id === stepId);
  const step = steps[index];
  if (!step) return failRun(ctx, job, run, `the run's version has no step "${stepId}"`);

  // The step being run when something throws: the one a last try marks failed.
  const at = { step };
  try {
    let done: Settled;
    if (IN_DATABASE.has(step.type)) {
      done = await settle(ctx, job, run, index, null, at);
    } else {
      const prior = await claim(ctx.db, job, step);
      if (prior.status === 'failed') return;
      // Finished before, but its successor may not have been queued: queue it (a no-op if it was).
      if (prior.status !== 'started') done = { prior };
      else {
        if (run.status === 'waiting') await endWait(ctx.db, job);
        const result = await performOn(ctx.db, ctx, job, run, step);
        done = await settle(ctx, job, run, index, result, at);
      }
    }
    if ('prior' in done) {
      if (done.prior.status === 'failed') return;
      return advance(ctx, job, run, done.prior.next_step, done.prior.wait_until ?? undefined);
    }
    if (done.queued && !done.waiting) ctx.queue?.wake('automation.step');
    await queueDeliveries(ctx, workspaceId, done.deliveries);
  } catch (err) {
    if (err instanceof PermanentStepError || (err instanceof TransientStepError && lastTry)) {
      return failStep(ctx, job, run, at.step, err.message);
    }
    if (err instanceof TransientStepError) throw err;
    if (lastTry) await failStep(ctx, job, run, at.step, `internal error: ${(err as Error).message}`);
    throw err;
  }
}

/** How a chain ended: the job queued next (none: the run completed), or the first step's earlier claim. */
type Settled = { queued: string | null; waiting?: Date; deliveries: string[] } | { prior: Claim };

/**
 * In one transaction: records the outcome of the step at `index` (run first when `result` is null:
 * a database-only step), runs each following database-only step, and ends with the run's state and
 * the job of the step after them (a send, a call, the end of a wait). A crash anywhere rolls it all
 * back and the job runs the chain again; every step in it is a set, not a count, so that is harmless.
 */
async function settle(
  ctx: AppContext,
  job: StepJob,
  run: RunRow,
  index: number,
  result: StepOutcome | null,
  at: { step: Step },
): Promise<Settled> {
  const steps = run.definition.steps;
  return ctx.db.transaction(async (tx) => {
    let i = index;
    let outcome = result;
    let afterWait = run.status === 'waiting';
    for (;;) {
      const step = steps[i]!;
      at.step = step;
      if (!outcome) {
        const prior = await claim(tx, job, step);
        if (prior.status !== 'started') {
          if (i === index) return { prior };
          // Ran before in an earlier chain: its own job takes it from here.
          await queueStep(ctx, tx, job.workspaceId, job.runId, step.id);
          return { queued: step.id, deliveries: [] };
        }
        if (afterWait) await endWait(tx, job);
        outcome = await performOn(tx, ctx, job, run, step);
      }
      afterWait = false;
      const next = following(steps, i, outcome.branch !== undefined ? outcome.branch : step.next);
      const waiting =
        outcome.waitUntil && outcome.waitUntil.getTime() > Date.now() ? outcome.waitUntil : undefined;
      const nextIndex = next && !waiting ? steps.findIndex((s) => s.id === next) : -1;
      const chained = nextIndex >= 0 && IN_DATABASE.has(steps[nextIndex]!.type);
      await record(tx, job, step.id, outcome, next, waiting, !chained);
      if (chained) {
        i = nextIndex;
        outcome = null;
        continue;
      }
      // A wait as the last step still holds the run (a lead stays enrolled) until it ends.
      const then = next ?? (waiting ? END : null);
      if (then) await queueStep(ctx, tx, job.workspaceId, job.runId, then, waiting);
      // A run that completes records its `flow.run.finished` with the completion.
      const deliveries = then ? [] : await recordEvent(tx, ...finished(job, run, 'completed'));
      return { queued: then, waiting, deliveries };
    }
  });
}

/** A step's outcome; with `withRun`, the run's new state too, in the same statement. */
function record(
  q: Queryable,
  job: StepJob,
  stepId: string,
  result: StepOutcome,
  next: string | null,
  waiting: Date | undefined,
  withRun: boolean,
) {
  const step = `UPDATE run_steps SET status = $4, outcome = $5::jsonb, next_step = $6, wait_until = $7, error = NULL,
      finished_at = CASE WHEN $4 = 'waiting' THEN NULL ELSE now() END
    WHERE workspace_id = $1 AND run_id = $2 AND step_id = $3`;
  const values = [
    job.workspaceId,
    job.runId,
    stepId,
    waiting ? 'waiting' : result.status,
    JSON.stringify(result.outcome),
    next,
    waiting ?? null,
  ];
  if (!withRun) return q.query(step, values);
  return q.query(
    `WITH step AS (${step})
     UPDATE runs SET status = $8, current_step = $6, updated_at = now(),
       finished_at = CASE WHEN $8 = 'completed' THEN now() END
     WHERE workspace_id = $1 AND id = $2 AND status IN ('running', 'waiting')`,
    [...values, waiting ? 'waiting' : next ? 'running' : 'completed'],
  );
}

async function advance(ctx: AppContext, job: StepJob, run: RunRow, step: string | null, after?: Date) {
  const next = step ?? (after && after.getTime() > Date.now() ? END : null);
  if (!next) {
    const { rows } = await ctx.db.query(
      `WITH waits AS (
         UPDATE run_steps SET status = 'done', finished_at = now()
         WHERE workspace_id = $1 AND run_id = $2 AND status = 'waiting')
       UPDATE runs SET status = 'completed', current_step = NULL, finished_at = now(), updated_at = now()
       WHERE workspace_id = $1 AND id = $2 AND status IN ('running', 'waiting') RETURNING id`,
      [job.workspaceId, job.runId],
    );
    if (rows[0]) await runFinished(ctx, job, run, 'completed');
    return;
  }
  await ctx.db.transaction((tx) => queueStep(ctx, tx, job.workspaceId, job.runId, next, after));
  ctx.queue?.wake('automation.step');
}

async function failStep(ctx: AppContext, job: StepJob, run: RunRow, step: Step, error: string) {
  // A step in a rolled-back chain has no row yet: the failure makes it.
  await ctx.db.query(
    `INSERT INTO run_steps (workspace_id, run_id, step_id, type, status, error, started_at, finished_at)
     VALUES ($1, $2, $3, $4, 'failed', $5, clock_timestamp(), now())
     ON CONFLICT (workspace_id, run_id, step_id, visit) DO UPDATE SET status = 'failed', error = $5, finished_at = now()`,
    [job.workspaceId, job.runId, step.id, step.type, error],
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
