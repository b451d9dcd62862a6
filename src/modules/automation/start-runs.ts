import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { inTransaction } from '../../jobs/enqueue.js';
import { newId } from '../../lib/ids.js';
import { publishedDefinition } from './published-definition.js';

export interface RunStart {
  automationId: string;
  version: number;
  contactId: string | null;
  leadId?: string | null;
  eventId?: string | null;
  triggerData: Record<string, unknown>;
}

/**
 * A job id derived from the run, the step and its visit: enqueuing the same visit twice adds nothing.
 * The first visit's id is the one runs had before steps could be visited again, so their queued jobs
 * still match.
 */
export function stepJobId(runId: string, stepId: string, visit = 1): string {
  const h = createHash('sha256')
    .update(visit === 1 ? `${runId}/${stepId}` : `${runId}/${stepId}/${visit}`)
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface QueuedStep {
  /** The visit of the step, 1 when absent. */
  visit?: number;
  startAfter?: Date;
  /** An ask's deadline (its own job: `<step>.timeout`) or its n-th question again (`<step>.retry<n>`). */
  timeout?: boolean;
  retry?: number;
}

/** Queues a run's step inside the caller's transaction, so the step and the state that led to it commit together. */
export async function queueStep(
  ctx: AppContext,
  tx: Queryable,
  workspaceId: string,
  runId: string,
  stepId: string,
  { visit = 1, startAfter, timeout, retry }: QueuedStep = {},
): Promise<void> {
  if (!ctx.queue) throw new Error('the job queue is not running in this process');
  // Step ids hold no dot, so the ids of an ask's timeout and retries are their own.
  const named = timeout ? `${stepId}.timeout` : retry ? `${stepId}.retry${retry}` : stepId;
  await ctx.queue.send(
    'automation.step',
    {
      workspaceId,
      runId,
      stepId,
      ...(visit !== 1 ? { visit } : {}),
      ...(timeout ? { timeout } : {}),
      ...(retry ? { retry } : {}),
    },
    {
      id: stepJobId(runId, named, visit),
      ...(startAfter ? { startAfter } : {}),
      ...inTransaction(tx),
    },
  );
}

/**
 * Creates a run and queues its first step, in one transaction. An event starts a flow once; a lead
 * with an unfinished run of a sequence is not enrolled again: then the existing run is returned.
 */
export async function startRun(
  ctx: AppContext,
  workspaceId: string,
  start: RunStart,
): Promise<{ runId: string; created: boolean }> {
  // The unfinished run that blocked this one may finish in between: then try again.
  for (let attempt = 0; ; attempt++) {
    const result = await tryStartRun(ctx, workspaceId, start);
    if (result || attempt === 2) {
      if (!result) throw new Error(`could not start a run of ${start.automationId}`);
      if (result.created) ctx.queue?.wake('automation.step');
      return result;
    }
  }
}

async function tryStartRun(ctx: AppContext, workspaceId: string, start: RunStart) {
  return ctx.db.transaction(async (tx) => {
    const first = (await publishedDefinition(tx, workspaceId, start.automationId, start.version))?.steps[0]
      ?.id;
    if (!first) throw new Error(`no version ${start.version} of ${start.automationId}`);
    const conflict = start.eventId
      ? '(workspace_id, automation_id, event_id) WHERE event_id IS NOT NULL'
      : start.leadId
        ? "(workspace_id, automation_id, lead_id) WHERE lead_id IS NOT NULL AND status IN ('running', 'waiting')"
        : null;
    const runId = newId('run');
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO runs (workspace_id, id, automation_id, version, contact_id, lead_id, event_id, trigger_data,
         status, current_step)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, 'running', $9)
       ${conflict ? `ON CONFLICT ${conflict} DO NOTHING` : ''}
       RETURNING id`,
      [
        workspaceId,
        runId,
        start.automationId,
        start.version,
        start.contactId,
        start.leadId ?? null,
        start.eventId ?? null,
        JSON.stringify(start.triggerData),
        first,
      ],
    );
    if (rows[0]) {
      await queueStep(ctx, tx, workspaceId, runId, first);
      return { runId, created: true };
    }
    const existing = await tx.query<{ id: string }>(
      start.eventId
        ? 'SELECT id FROM runs WHERE workspace_id = $1 AND automation_id = $2 AND event_id = $3'
        : `SELECT id FROM runs WHERE workspace_id = $1 AND automation_id = $2 AND lead_id = $3
             AND status IN ('running', 'waiting')`,
      [workspaceId, start.automationId, start.eventId ?? start.leadId],
    );
    const found = existing.rows[0];
    return found ? { runId: found.id, created: false } : null;
  });
}

export interface StoredEvent {
  workspace_id: string;
  id: string;
  contact_id: string;
  name: string;
  properties: Record<string, string>;
  flows: { id: string; version: number }[];
}

interface NewRun {
  workspace_id: string;
  automation_id: string;
  version: number;
  contact_id: string | null;
  lead_id?: string;
  event_id?: string;
  trigger_data: Record<string, unknown>;
}

const ONCE = {
  event: '(workspace_id, automation_id, event_id) WHERE event_id IS NOT NULL',
  lead: "(workspace_id, automation_id, lead_id) WHERE lead_id IS NOT NULL AND status IN ('running', 'waiting')",
};

/**
 * Creates runs and queues their first steps, in `tx`, in two statements however many: a run that one
 * of its event's (or its lead's unfinished) runs already holds the place of is not created. Returns
 * the runs created, by automation id.
 */
export async function insertRuns(
  ctx: AppContext,
  tx: Queryable,
  runs: NewRun[],
  once: keyof typeof ONCE,
): Promise<{ workspace_id: string; id: string; automation_id: string }[]> {
  if (runs.length === 0) return [];
  const rows = [];
  for (const run of runs) {
    const definition = await publishedDefinition(tx, run.workspace_id, run.automation_id, run.version);
    const first = definition?.steps[0]?.id;
    // Versions are never deleted; were one missing, its run is skipped so that it cannot hold back
    // the other events of an outbox batch for good.
    if (!first) {
      ctx.log.error({ run }, 'a run of a version that does not exist was not started');
      continue;
    }
    rows.push({ ...run, id: newId('run'), first });
  }
  const { rows: created } = await tx.query<{
    workspace_id: string;
    id: string;
    automation_id: string;
    current_step: string;
  }>(
    `INSERT INTO runs (workspace_id, id, automation_id, version, contact_id, lead_id, event_id, trigger_data,
       status, current_step)
     SELECT r.workspace_id, r.id, r.automation_id, r.version, r.contact_id, r.lead_id, r.event_id, r.trigger_data,
       'running', r.first
     FROM jsonb_to_recordset($1::jsonb) AS r (workspace_id text, id text, automation_id text, version integer,
       contact_id text, lead_id text, event_id text, trigger_data jsonb, first text)
     ON CONFLICT ${ONCE[once]} DO NOTHING
     RETURNING workspace_id, id, automation_id, current_step`,
    [JSON.stringify(rows)],
  );
  if (!ctx.queue) throw new Error('the job queue is not running in this process');
  await ctx.queue.insert(
    'automation.step',
    created.map((run) => ({
      id: stepJobId(run.id, run.current_step),
      data: { workspaceId: run.workspace_id, runId: run.id, stepId: run.current_step },
    })),
    inTransaction(tx),
  );
  return created;
}

/**
 * A run of each flow each event matched when it arrived (once each: an event's runs already there are
 * left alone), and their first steps' jobs, in `tx`. Returns how many runs started.
 */
export async function startRunsOfEvents(
  ctx: AppContext,
  tx: Queryable,
  events: StoredEvent[],
): Promise<number> {
  const runs = events.flatMap((event) => {
    const triggerData = { event: { id: event.id, name: event.name, properties: event.properties } };
    return event.flows.map((flow) => ({
      workspace_id: event.workspace_id,
      automation_id: flow.id,
      version: flow.version,
      contact_id: event.contact_id,
      event_id: event.id,
      trigger_data: triggerData,
    }));
  });
  return (await insertRuns(ctx, tx, runs, 'event')).length;
}

/** The `automation.start` job, queued per event before the outbox (event-outbox.ts): its event's runs. */
export async function startEventRuns(
  ctx: AppContext,
  data: { workspaceId: string; eventId: string },
): Promise<void> {
  const started = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<StoredEvent>(
      `SELECT workspace_id, id, contact_id, name, properties, flows FROM events
       WHERE workspace_id = $1 AND id = $2`,
      [data.workspaceId, data.eventId],
    );
    return startRunsOfEvents(ctx, tx, rows);
  });
  if (started > 0) ctx.queue?.wake('automation.step');
}
