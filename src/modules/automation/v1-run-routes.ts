import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses, PageCursor, PageLimit, Text } from '../../api/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { getRun, listRunPage } from './list-runs.js';
import { Run, RunResult } from './schemas.js';

const tags = ['runs'];
const Id = Text({ minLength: 1, maxLength: 64 });

const RunStatus = Type.Unsafe<Run['status']>({
  type: 'string',
  enum: ['running', 'waiting', 'completed', 'failed', 'stopped'],
});

const RunPageQuery = Type.Object({
  status: Type.Optional(RunStatus),
  automation_id: Type.Optional(Id),
  contact_id: Type.Optional(Id),
  lead_id: Type.Optional(Id),
  limit: PageLimit,
  cursor: Type.Optional(PageCursor),
});

const ExampleRun = {
  id: 'run_5t1m0c8e',
  automation_id: 'fl_2b9x7k1q',
  automation_name: 'Tag on signup',
  version: 3,
  contact_id: 'ct_9f3k2m7a',
  contact_name: 'Asha Rao',
  contact_phone: '14155552671',
  lead_id: null,
  event_id: 'evt_4p8d2s6w',
  status: 'completed' as const,
  current_step: null,
  error: null,
  skipped_steps: 0,
  skipped_reason: null,
  started_at: '2026-11-27T09:14:02.118Z',
  finished_at: '2026-11-27T09:14:02.407Z',
};

const RunPage = Type.Object(
  {
    result: Type.Literal(true),
    runs: Type.Array(Run),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
  },
  { examples: [{ result: true, runs: [ExampleRun], next_cursor: null }] },
);

const RunExample = {
  result: true,
  run: {
    ...ExampleRun,
    steps: [
      {
        step_id: 'tag',
        visit: 1,
        type: 'add_tag',
        status: 'done',
        outcome: { tag: 'signed-up' },
        next_step: null,
        wait_until: null,
        attempts: 1,
        error: null,
        started_at: '2026-11-27T09:14:02.201Z',
        finished_at: '2026-11-27T09:14:02.399Z',
      },
    ],
    definition: {
      name: 'Tag on signup',
      trigger: { type: 'event', event: 'signup' },
      steps: [{ id: 'tag', type: 'add_tag', tag: 'signed-up' }],
    },
  },
};

/** REST v1: the runs of flows and sequences (the app's Runs page), newest first, and one run's steps. */
export function registerRunRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get(
    '/runs',
    {
      schema: {
        operationId: 'listRuns',
        summary: 'List runs of flows and sequences, newest first',
        description:
          'Filters, each optional and combined: `status`, `automation_id` (a flow or sequence), `contact_id`, ' +
          '`lead_id`; an id of nothing of this workspace gives an empty list. Pages follow `next_cursor` ' +
          '(null on the last page): send it back as `cursor`; runs started meanwhile are not mixed into later pages.',
        tags,
        querystring: RunPageQuery,
        response: { 200: RunPage, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const { status, automation_id, contact_id, lead_id, limit, cursor } = request.query;
      const page = await listRunPage(ctx, request.principal().workspaceId, {
        status,
        automationId: automation_id,
        contactId: contact_id,
        leadId: lead_id,
        limit,
        cursor,
      });
      return { result: true as const, ...page };
    },
  );

  app.get(
    '/runs/:id',
    {
      schema: {
        operationId: 'getRun',
        summary: "A run: each step's outcome in the order they ran, and the definition it ran",
        description:
          '`steps` lists each visit of a step (a loop visits one again) with its status and outcome; ' +
          "`definition` is the run's version as published, null when that version is gone.",
        tags,
        params: IdParams,
        response: { 200: { ...RunResult, examples: [RunExample] }, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => {
      const run = await getRun(ctx, request.principal().workspaceId, request.params.id);
      if (!run) throw new ApiError('not_found', 'No run with that id');
      return { result: true as const, run };
    },
  );
}
