import { type Static, Type } from 'typebox';
import { AnyKey, MaybeText, MaybeTimestamp, PageFields, Text, Timestamp } from '../../http/schema.js';
import type { Definition } from './definition.js';

export const TrackEventBody = Type.Object(
  {
    phone: Text({
      minLength: 1,
      maxLength: 32,
      description:
        'With country code (+ or 00 optional), or national when the workspace has a default country code',
    }),
    event: Text({
      minLength: 1,
      maxLength: 100,
      description: 'Matched against the triggers of published flows',
    }),
    properties: Type.Optional(
      Type.Record(AnyKey, Text({ maxLength: 1024 }), {
        maxProperties: 100,
        propertyNames: Text({ minLength: 1, maxLength: 64 }),
        description: 'Values are strings',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TrackEventBody = Static<typeof TrackEventBody>;

export const TrackEventResult = Type.Object({
  result: Type.Literal(true),
  id: Type.String({ description: 'The event id' }),
  flows_started: Type.Integer({
    description: 'Published flows whose trigger matched; their runs start from the queue',
  }),
});
const Kind = Type.Union([Type.Literal('flow'), Type.Literal('sequence')]);

// A stored definition, checked when it was saved: sent as it is, not re-shaped by a schema (an older
// version's steps may carry fields today's schema no longer names).
const StoredDefinition = Type.Unsafe<Definition>(Type.Object({}, { additionalProperties: true }));

export const Run = Type.Object({
  id: Type.String(),
  automation_id: Type.String(),
  automation_name: MaybeText,
  version: Type.Integer(),
  contact_id: MaybeText,
  contact_name: MaybeText,
  contact_phone: MaybeText,
  lead_id: MaybeText,
  event_id: MaybeText,
  status: Type.Union([
    Type.Literal('running'),
    Type.Literal('waiting'),
    Type.Literal('completed'),
    Type.Literal('failed'),
    Type.Literal('stopped'),
  ]),
  current_step: MaybeText,
  error: MaybeText,
  skipped_steps: Type.Integer({ description: 'Steps passed over; a completed run may hold some' }),
  skipped_reason: Type.Union([Type.String({ description: "The first skipped step's reason" }), Type.Null()]),
  started_at: Timestamp,
  finished_at: MaybeTimestamp,
});
export type Run = Static<typeof Run>;

export const RunStep = Type.Object({
  step_id: Type.String(),
  visit: Type.Integer({ description: 'Which time the run reached this step: 1, then 2 on a loop back' }),
  type: Type.String(),
  status: Type.Union([
    Type.Literal('started'),
    Type.Literal('done'),
    Type.Literal('failed'),
    Type.Literal('skipped'),
    Type.Literal('waiting'),
  ]),
  outcome: Type.Record(AnyKey, Type.Unknown()),
  next_step: MaybeText,
  wait_until: MaybeTimestamp,
  attempts: Type.Integer(),
  error: MaybeText,
  started_at: Timestamp,
  finished_at: MaybeTimestamp,
});
export type RunStep = Static<typeof RunStep>;

const RunDetail = Type.Object({
  ...Run.properties,
  steps: Type.Array(RunStep),
  definition: Type.Union([StoredDefinition, Type.Null()], {
    description: "The run's version as it was published; null when that version is gone",
  }),
});

export const RunListResult = Type.Object({
  result: Type.Literal(true),
  runs: Type.Array(Run),
  ...PageFields,
});

export const RunResult = Type.Object({ result: Type.Literal(true), run: RunDetail });

/** A flow or sequence as the builder shows it; the webhook secret only inside `webhook`. */
const AppAutomation = Type.Object({
  id: Type.String(),
  kind: Kind,
  name: Type.String(),
  trigger_type: Type.String(),
  trigger_event: MaybeText,
  draft: StoredDefinition,
  draft_version: Type.Integer(),
  published_version: Type.Union([Type.Integer(), Type.Null()]),
  archived_at: MaybeTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
  status: Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('archived')]),
  warnings: Type.Array(Type.Object({ step: Type.String(), message: Type.String() })),
  unpublished_changes: Type.Boolean(),
  webhook: Type.Union([
    Type.Object({ url: Type.String(), url_without_secret: Type.String(), secret: Type.String() }),
    Type.Null(),
  ]),
});

export const AutomationListResult = Type.Object({
  result: Type.Literal(true),
  automations: Type.Array(
    Type.Object({ ...AppAutomation.properties, runs: Type.Integer(), last_run_at: MaybeTimestamp }),
  ),
});

export const AutomationResult = Type.Object({
  result: Type.Literal(true),
  automation: AppAutomation,
  runs: Type.Array(Run),
});

export const NewAutomationResult = Type.Object({ result: Type.Literal(true), id: Type.String(), kind: Kind });

export const PublishResult = Type.Object({ result: Type.Literal(true), version: Type.Integer() });
