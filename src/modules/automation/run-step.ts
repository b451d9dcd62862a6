import { LRUCache } from 'lru-cache';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import type { JobData } from '../../jobs/job-data.js';
import { emitEvent } from '../webhooks/emit.js';
import { evaluate } from './conditions.js';
import { type Definition, following, type Step } from './definition.js';
import type { Scope } from './interpolate.js';
import { queueStep } from './start-runs.js';
import { addTag, removeTag, setTrait, updateLeadStatus } from './steps/contact-steps.js';
import { httpRequest } from './steps/http-request.js';
import { sendTemplate, sendText } from './steps/send-steps.js';
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

// Published versions never change, so a process keeps the ones it has read.
const definitions = new LRUCache<string, Definition>({ max: 1000 });

async function definitionOf(ctx: AppContext, workspaceId: string, automationId: string, version: number) {
  const key = `${workspaceId}/${automationId}/${version}`;
  const cached = definitions.get(key);
  if (cached) return cached;
  const { rows } = await ctx.db.query<{ definition: Definition }>(
    'SELECT definition FROM automation_versions WHERE workspace_id = $1 AND automation_id = $2 AND version = $3',
    [workspaceId, automationId, version],
  );
  const definition = rows[0]!.definition;
  definitions.set(key, definition);
  return definition;
}

export type StepJob = JobData<'automation.step'>;

async function perform(step: Step, input: StepInput): Promise<StepOutcome> {
  switch (step.type) {
    case 'send_template':
      return sendTemplate(input, step.template);
    case 'send_text':
      return sendText(input, step.text, step.not_sent ?? null);
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
async function loadScope(ctx: AppContext, workspaceId: string, run: RunRow): Promise<Scope> {
  const scope: Scope = { event: run.trigger_data.event ?? {} };
  if (run.contact_id) {
    const { rows } = await ctx.db.query(
      'SELECT id, phone, name, email, tags, traits FROM contacts WHERE workspace_id = $1 AND id = $2',
      [workspaceId, run.contact_id],
    );
    scope.contact = rows[0] ?? {};
  }
  if (run.lead_id) {
    const { rows } = await ctx.db.query(
      'SELECT id, name, email, phone, status, source, fields FROM leads WHERE workspace_id = $1 AND id = $2',
      [workspaceId, run.lead_id],
    );
    scope.lead = rows[0] ?? {};
  }
  return scope;
}

/**
 * The `automation.step` job: runs one step of a run, records its outcome and queues the next step in
 * the same transaction. The run_steps row is claimed before the side effect, so a job delivered again
 * finds the step finished and only makes sure its successor is queued; a step whose worker died
 * mid-way runs again with the same idempotency key, which its side effect honours.
 */
export async function runStep(ctx: AppContext, job: StepJob, lastTry: boolean): Promise<void> {
  const { workspaceId, runId, stepId } = job;
  const { rows } = await ctx.db.query<Omit<RunRow, 'definition'> & { version: number }>(
    `SELECT automation_id, version, status, contact_id, lead_id, trigger_data FROM runs
     WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, runId],
  );
  const row = rows[0];
  if (!row || row.status === 'completed' || row.status === 'failed') return;
  const run: RunRow = {
    ...row,
    definition: await definitionOf(ctx, workspaceId, row.automation_id, row.version),
  };
  if (stepId === END) return advance(ctx, job, run, null);
  const steps = run.definition.steps;
  const index = steps.findIndex((s) => s.id === stepId);
  const step = steps[index];
  if (!step) return failRun(ctx, job, run, `the run's version has no step "${stepId}"`);

  const claim = await ctx.db.query<{ status: string; next_step: string | null; wait_until: Date | null }>(
    `INSERT INTO run_steps (workspace_id, run_id, step_id, type, status) VALUES ($1, $2, $3, $4, 'started')
     ON CONFLICT (workspace_id, run_id, step_id) DO UPDATE SET attempts = run_steps.attempts + 1
     RETURNING status, next_step, wait_until`,
    [workspaceId, runId, stepId, step.type],
  );
  const prior = claim.rows[0]!;
  if (prior.status === 'failed') return;
  if (prior.status !== 'started') {
    // Finished before, but its successor may not have been queued: queue it (a no-op if it was).
    return advance(ctx, job, run, prior.next_step, prior.wait_until ?? undefined);
  }
  if (run.status === 'waiting') {
    await ctx.db.query(
      `UPDATE run_steps SET status = 'done', finished_at = now()
       WHERE workspace_id = $1 AND run_id = $2 AND status = 'waiting'`,
      [workspaceId, runId],
    );
  }

  let result: StepOutcome;
  try {
    const scope = await loadScope(ctx, workspaceId, run);
    result = await perform(step, {
      ctx,
      workspaceId,
      runId,
      contactId: run.contact_id,
      leadId: run.lead_id,
      scope,
      key: `${runId}/${stepId}`,
    });
  } catch (err) {
    if (err instanceof PermanentStepError || (err instanceof TransientStepError && lastTry)) {
      return failStep(ctx, job, run, err.message);
    }
    if (err instanceof TransientStepError) throw err;
    if (lastTry) await failStep(ctx, job, run, `internal error: ${(err as Error).message}`);
    throw err;
  }
  const next = following(steps, index, result.branch !== undefined ? result.branch : step.next);
  const waiting = result.waitUntil && result.waitUntil.getTime() > Date.now() ? result.waitUntil : undefined;
  // The outcome, the run's new state and the next step's job commit together.
  const record = (q: Queryable) =>
    q.query(
      `WITH step AS (
         UPDATE run_steps SET status = $4, outcome = $5::jsonb, next_step = $6, wait_until = $7, error = NULL,
           finished_at = CASE WHEN $4 = 'waiting' THEN NULL ELSE now() END
         WHERE workspace_id = $1 AND run_id = $2 AND step_id = $3)
       UPDATE runs SET status = $8, current_step = $6, updated_at = now(),
         finished_at = CASE WHEN $8 = 'completed' THEN now() END
       WHERE workspace_id = $1 AND id = $2 AND status IN ('running', 'waiting')`,
      [
        workspaceId,
        runId,
        stepId,
        waiting ? 'waiting' : result.status,
        JSON.stringify(result.outcome),
        next,
        waiting ?? null,
        waiting ? 'waiting' : next ? 'running' : 'completed',
      ],
    );
  // A wait as the last step still holds the run (a lead stays enrolled) until it ends.
  const then = next ?? (waiting ? END : null);
  if (then) {
    await ctx.db.transaction(async (tx) => {
      await record(tx);
      await queueStep(ctx, tx, workspaceId, runId, then, waiting);
    });
  } else {
    await record(ctx.db);
  }
  if (then && !waiting) ctx.queue?.wake('automation.step');
  if (!then) await runFinished(ctx, job, run, 'completed');
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

async function failStep(ctx: AppContext, job: StepJob, run: RunRow, error: string) {
  await ctx.db.query(
    `UPDATE run_steps SET status = 'failed', error = $4, finished_at = now()
     WHERE workspace_id = $1 AND run_id = $2 AND step_id = $3`,
    [job.workspaceId, job.runId, job.stepId, error],
  );
  await failRun(ctx, job, run, `step "${job.stepId}": ${error}`);
}

async function failRun(ctx: AppContext, job: StepJob, run: RunRow, error: string) {
  const { rows } = await ctx.db.query(
    `UPDATE runs SET status = 'failed', error = $3, finished_at = now(), updated_at = now()
     WHERE workspace_id = $1 AND id = $2 AND status IN ('running', 'waiting') RETURNING id`,
    [job.workspaceId, job.runId, error],
  );
  if (rows[0]) await runFinished(ctx, job, run, 'failed', error);
}

async function runFinished(ctx: AppContext, job: StepJob, run: RunRow, status: string, error?: string) {
  await emitEvent(ctx, job.workspaceId, 'flow.run.finished', `run/${job.runId}`, {
    run_id: job.runId,
    automation_id: run.automation_id,
    status,
    error: error ?? null,
    contact_id: run.contact_id,
    lead_id: run.lead_id,
  });
}
