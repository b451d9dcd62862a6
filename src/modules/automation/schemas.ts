import { type Static, Type } from 'typebox';
import {
  AnyKey,
  MaybeText,
  MaybeTimestamp,
  PageCursor,
  PageFields,
  PageLimit,
  Text,
  Timestamp,
} from '../../api/schema.js';
import { Definition } from './definition.js';

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

// REST v1. The definition's fields are checked by parseDefinition, which names each problem at its
// field in plain words (a union's own checks would say "matches no branch"): the schema only shapes them.
const DEFINITION_FIELDS =
  'The definition is documented in docs/automation.md; its other top-level fields may be given too';
const DefinitionTrigger = Type.Unsafe<unknown>({
  type: 'object',
  description:
    'What starts it, by its `type`; its kind (flow or sequence) follows from it (every trigger is in docs/automation.md)',
  examples: [{ type: 'event', event: 'signup' }],
});
const DefinitionSteps = Type.Unsafe<unknown>({
  type: 'array',
  description: 'The steps, each {id, type, ...}, the first one first (1 to 100)',
  examples: [[{ id: 'tag', type: 'add_tag', tag: 'signed-up' }]],
});

export const ApiAutomationBody = Type.Object(
  {
    name: Definition.properties.name,
    trigger: DefinitionTrigger,
    steps: DefinitionSteps,
    published: Type.Optional(
      Type.Boolean({ default: false, description: 'Publish it at once: new runs start on it' }),
    ),
  },
  { description: DEFINITION_FIELDS },
);
export type ApiAutomationBody = Static<typeof ApiAutomationBody>;

export const ApiAutomationPatch = Type.Object(
  {
    name: Type.Optional(Definition.properties.name),
    trigger: Type.Optional(DefinitionTrigger),
    steps: Type.Optional(DefinitionSteps),
    published: Type.Optional(
      Type.Boolean({
        description: 'true publishes the latest version (with the change sent beside it), false unpublishes',
      }),
    ),
  },
  {
    description:
      "Definition fields given replace the draft's and make a new version; the others stay. " +
      DEFINITION_FIELDS,
  },
);
export type ApiAutomationPatch = Static<typeof ApiAutomationPatch>;

const AutomationStatus = Type.Union([
  Type.Literal('draft'),
  Type.Literal('published'),
  Type.Literal('archived'),
]);

export const ApiAutomationQuery = Type.Object({
  status: Type.Optional(AutomationStatus),
  limit: PageLimit,
  cursor: Type.Optional(PageCursor),
});

const IntakeLinks = Type.Object(
  { url: Type.String(), url_without_secret: Type.String(), secret: Type.String() },
  {
    description:
      'A sequence started by a webhook: its intake address and secret, shown here once (the app shows them to the team)',
  },
);

export const NewApiAutomationResult = Type.Object({
  result: Type.Literal(true),
  id: Type.String(),
  kind: Kind,
  published: Type.Boolean(),
  webhook: Type.Optional(IntakeLinks),
});

export const ApiSecretResult = Type.Object({ result: Type.Literal(true), webhook: IntakeLinks });

const ApiAutomationSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: Kind,
  trigger: Type.Object({ type: Type.String() }, { additionalProperties: true }),
  status: AutomationStatus,
  published: Type.Boolean({ description: 'New runs start on its published version' }),
  published_version: Type.Union([Type.Integer(), Type.Null()]),
  draft_version: Type.Integer({ description: 'The latest version, what a PATCH changes' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ApiAutomationList = Type.Object({
  result: Type.Literal(true),
  automations: Type.Array(ApiAutomationSummary),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});

const ApiAutomation = Type.Object({
  ...ApiAutomationSummary.properties,
  archived_at: MaybeTimestamp,
  unpublished_changes: Type.Boolean({ description: 'The latest version is not the published one' }),
  draft: StoredDefinition,
  published_definition: Type.Union([StoredDefinition, Type.Null()]),
  versions: Type.Array(Type.Object({ version: Type.Integer(), published_at: Timestamp }), {
    description: 'The versions ever published, newest first',
  }),
  runs: Type.Object({
    total: Type.Integer(),
    running: Type.Integer(),
    waiting: Type.Integer(),
    completed: Type.Integer(),
    failed: Type.Integer(),
    stopped: Type.Integer(),
    last_run_at: MaybeTimestamp,
  }),
  warnings: Type.Array(Type.Object({ step: Type.String(), message: Type.String() })),
  webhook: Type.Union([Type.Object({ url_without_secret: Type.String() }), Type.Null()], {
    description: "A webhook sequence's intake address; its secret goes in the path or the x-api-key header",
  }),
});
export type ApiAutomation = Static<typeof ApiAutomation>;

export const ApiAutomationResult = Type.Object({ result: Type.Literal(true), automation: ApiAutomation });
