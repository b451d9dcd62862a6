import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/db.js';
import type { AfterCommit } from '../../messaging/events.js';
import type { Scope } from '../interpolate.js';

/** What a step is given: the run it belongs to, what it can read, and the key that names its side effect. */
export interface StepInput {
  ctx: AppContext;
  /** The connection a database-only step writes with: the transaction its run's chain of such steps shares. */
  db: Queryable;
  workspaceId: string;
  runId: string;
  contactId: string | null;
  leadId: string | null;
  scope: Scope;
  /** `<run id>/<step id>` (`/<visit>` after it from the second visit on): the idempotency key of the step's side effect. */
  key: string;
}

/**
 * How a step ended. `branch` overrides the step's `next` (conditions, text not sent). `awaits` keeps
 * the run waiting on someone: the contact's answer until that time (an ask), or a teammate handing
 * the conversation back (an assign that waits).
 */
export interface StepOutcome {
  status: 'done' | 'skipped';
  outcome: Record<string, unknown>;
  branch?: string | null;
  waitUntil?: Date;
  awaits?: Date | 'handoff';
  /** What must run once the step's transaction committed (a conversation change's webhook deliveries). */
  after?: AfterCommit[];
}

/** The run cannot go on (a missing template, a refused request): the run fails, no retry. */
export class PermanentStepError extends Error {}

/** Worth another try later (a network error, a 5xx): the job is retried with backoff. */
export class TransientStepError extends Error {}
