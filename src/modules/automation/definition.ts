import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { type Static, Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import { NameText, Text } from '../../api/schema.js';
import { plainValidationDetails } from '../../api/validation-messages.js';
import { SendMessageBody } from '../messaging/schemas.js';

/**
 * The shape of a flow or sequence, stored as JSON: a trigger and a graph of steps; a loop in it must
 * pass through a step that waits (an ask or a wait).
 */
/** A string from a closed list, typed as that list's union. */
const oneOf = <const T extends readonly string[]>(
  values: T,
  options: { default?: T[number]; description?: string } = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

const StepId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,40}$', description: 'unique within the definition' });
const Next = Type.Optional(
  Type.Union([StepId, Type.Null()], {
    description: 'the step that follows; the next one in the list when absent; null ends the run',
  }),
);
const Field = Text({
  minLength: 1,
  maxLength: 200,
  description:
    'a path such as contact.tags, contact.traits.plan, event.properties.plan, lead.fields.city, vars.city, steps.menu.answer, steps.lookup.body.order.status; a message.received flow reads event.properties.text and event.properties.button_payload',
});
// Strings in steps may hold {{contact.name}}-style placeholders, with an optional "| fallback".
const Templated = (maxLength: number) => Text({ maxLength });

const FieldCheck = Type.Object(
  {
    field: Field,
    op: oneOf([
      'equals',
      'not_equals',
      'contains',
      'not_contains',
      'exists',
      'not_exists',
      'greater_than',
      'less_than',
    ]),
    value: Type.Optional(Text({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);
// Read when the condition step runs, in the workspace's time zone (Settings › Business hours).
const HoursCheck = Type.Object(
  {
    inside_business_hours: Type.Boolean({
      description: 'true holds inside business hours, false outside them, when the step runs',
    }),
  },
  { additionalProperties: false },
);
const Check = Type.Union([FieldCheck, HoursCheck]);
export type Check = Static<typeof Check>;

const Condition = Type.Union([
  Check,
  Type.Object({ all: Type.Array(Check, { minItems: 1, maxItems: 20 }) }, { additionalProperties: false }),
  Type.Object({ any: Type.Array(Check, { minItems: 1, maxItems: 20 }) }, { additionalProperties: false }),
]);
export type Condition = Static<typeof Condition>;

/** The kinds a send_message step sends: POST /messages' own schema for each, so both take the same. */
const MESSAGE_KINDS = [
  'image',
  'video',
  'audio',
  'document',
  'sticker',
  'interactive',
  'location',
  'contacts',
] as const;
const Message = Type.Object(
  { type: oneOf(MESSAGE_KINDS), ...Type.Pick(SendMessageBody, MESSAGE_KINDS).properties },
  {
    additionalProperties: false,
    description:
      "the kind in `type` and its object in Meta's shape under that name, as POST /messages takes them",
  },
);
export type RichMessage = Static<typeof Message>;

const NotSent = Type.Optional(
  Type.Union([StepId, Type.Null()], {
    description: 'where to go when the 24-hour window is closed; the run ends there when absent',
  }),
);

const Duration = Type.String({ pattern: '^[0-9]{1,6}(s|m|h|d)$', description: 'e.g. 30s, 10m, 2h, 3d' });
const Branch = (description: string) => Type.Optional(Type.Union([StepId, Type.Null()], { description }));
const OptionId = Text({ minLength: 1, maxLength: 256 });
const OptionNext = Type.Optional(
  Type.Union([StepId, Type.Null()], {
    description: "where this option leads; the step's next when absent",
  }),
);

const step = <T extends string, P extends Record<string, Parameters<typeof Type.Object>[0][string]>>(
  type: T,
  props: P,
) =>
  Type.Object(
    { id: StepId, type: Type.Literal(type), next: Next, ...props },
    { additionalProperties: false },
  );

const STEPS = {
  send_template: step('send_template', {
    template: Type.Object(
      {
        name: NameText({ minLength: 1, maxLength: 512 }),
        language: Text({ minLength: 2, maxLength: 15 }),
        body: Type.Optional(
          Type.Union([
            Type.Array(Templated(1024), { maxItems: 100 }),
            Type.Record(Type.String({ pattern: '^[a-z_][a-z0-9_]*$' }), Templated(1024), {
              maxProperties: 100,
            }),
          ]),
        ),
        header: Type.Optional(
          Type.Union([
            Templated(1024),
            Type.Object(
              {
                link: Type.Optional(Templated(2048)),
                id: Type.Optional(Templated(128)),
                filename: Type.Optional(Templated(240)),
                latitude: Type.Optional(
                  Type.Union([Type.Number({ minimum: -90, maximum: 90 }), Templated(64)]),
                ),
                longitude: Type.Optional(
                  Type.Union([Type.Number({ minimum: -180, maximum: 180 }), Templated(64)]),
                ),
                name: Type.Optional(Templated(1024)),
                address: Type.Optional(Templated(1024)),
              },
              { additionalProperties: false },
            ),
          ]),
        ),
        buttons: Type.Optional(
          Type.Array(
            Type.Object(
              {
                index: Type.Integer({ minimum: 0, maximum: 9 }),
                payload: Type.Optional(Templated(1000)),
                text: Type.Optional(Templated(2000)),
                coupon_code: Type.Optional(Templated(200)),
              },
              { additionalProperties: false },
            ),
            { maxItems: 10 },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  }),
  send_text: step('send_text', {
    text: Text({ minLength: 1, maxLength: 4096 }),
    not_sent: NotSent,
  }),
  send_message: step('send_message', { message: Message, not_sent: NotSent }),
  wait: step('wait', {
    duration: Type.Optional(Duration),
    until: Type.Optional(Type.String({ format: 'date-time' })),
  }),
  add_tag: step('add_tag', { tag: NameText({ minLength: 1, maxLength: 64 }) }),
  remove_tag: step('remove_tag', { tag: NameText({ minLength: 1, maxLength: 64 }) }),
  set_trait: step('set_trait', {
    key: Text({ minLength: 1, maxLength: 64 }),
    value: Templated(1024),
  }),
  condition: step('condition', {
    if: Condition,
    if_true: Type.Union([StepId, Type.Null()]),
    if_false: Type.Union([StepId, Type.Null()]),
  }),
  http_request: step('http_request', {
    method: Type.Optional(oneOf(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], { default: 'POST' })),
    url: Templated(2048),
    headers: Type.Optional(
      Type.Record(Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$" }), Templated(1024), {
        maxProperties: 20,
      }),
    ),
    body: Type.Optional(Templated(16_384)),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 10_000 })),
  }),
  update_lead_status: step('update_lead_status', {
    status: oneOf(['new', 'contacted', 'qualified', 'won', 'lost']),
  }),
  ask: step('ask', {
    text: Text({ minLength: 1, maxLength: 4096, description: 'the question; ≤ 1024 with buttons or a list' }),
    buttons: Type.Optional(
      Type.Array(
        Type.Object(
          { id: OptionId, title: NameText({ minLength: 1, maxLength: 20 }), next: OptionNext },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 3 },
      ),
    ),
    list: Type.Optional(
      Type.Object(
        {
          button: Text({ minLength: 1, maxLength: 20 }),
          sections: Type.Array(
            Type.Object(
              {
                title: Type.Optional(NameText({ maxLength: 24 })),
                rows: Type.Array(
                  Type.Object(
                    {
                      id: OptionId,
                      title: NameText({ minLength: 1, maxLength: 24 }),
                      description: Type.Optional(Text({ maxLength: 72 })),
                      next: OptionNext,
                    },
                    { additionalProperties: false },
                  ),
                  { minItems: 1, maxItems: 10 },
                ),
              },
              { additionalProperties: false },
            ),
            { minItems: 1, maxItems: 10 },
          ),
        },
        { additionalProperties: false },
      ),
    ),
    expect: Type.Optional(oneOf(['text', 'number', 'email', 'phone', 'date'])),
    save_to: Type.Optional(
      Type.String({
        pattern:
          '^(contact\\.name|contact\\.email|contact\\.traits\\.[A-Za-z0-9_-]{1,64}|vars\\.[A-Za-z0-9_-]{1,64})$',
        description: 'contact.name, contact.email, contact.traits.<key> or vars.<name>',
      }),
    ),
    attempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    retry_text: Type.Optional(Text({ minLength: 1, maxLength: 4096 })),
    timeout: Type.Optional(Duration),
    on_timeout: Branch('where to go when no answer came in time; the run ends when absent'),
    on_invalid: Branch('where to go when every attempt was invalid; the run ends when absent'),
    not_sent: NotSent,
  }),
  assign: step('assign', {
    to: Type.Optional(
      Type.Union([Text({ minLength: 1, maxLength: 64 }), Type.Null()], {
        description: "a member's user id; null or absent: the unassigned queue",
      }),
    ),
    team: Type.Optional(
      Text({
        minLength: 1,
        maxLength: 64,
        description:
          "a team's id (instead of to): round robin among its available members (docs/automation.md)",
      }),
    ),
    // biome-ignore lint/suspicious/noThenProperty: the field's documented name; this schema is never awaited
    then: Type.Optional(oneOf(['end', 'wait'])),
  }),
  resolve: step('resolve', {}),
};
const Step = Type.Union([
  STEPS.send_template,
  STEPS.send_text,
  STEPS.send_message,
  STEPS.wait,
  STEPS.add_tag,
  STEPS.remove_tag,
  STEPS.set_trait,
  STEPS.condition,
  STEPS.http_request,
  STEPS.update_lead_status,
  STEPS.ask,
  STEPS.assign,
  STEPS.resolve,
]);
export type Step = Static<typeof Step>;
export type TemplateStep = Static<typeof STEPS.send_template>['template'];
export type AskStep = Static<typeof STEPS.ask>;

const TRIGGERS = {
  event: Type.Object(
    { type: Type.Literal('event'), event: Text({ minLength: 1, maxLength: 100 }) },
    { additionalProperties: false },
  ),
  webhook: Type.Object({ type: Type.Literal('webhook') }, { additionalProperties: false }),
  form_submitted: Type.Object(
    { type: Type.Literal('form_submitted'), form_id: Type.Optional(Text({ minLength: 1, maxLength: 64 })) },
    { additionalProperties: false },
  ),
  lead_created: Type.Object({ type: Type.Literal('lead_created') }, { additionalProperties: false }),
  message_received: Type.Object(
    {
      type: Type.Literal('message_received'),
      keywords: Type.Optional(
        Type.Array(Text({ minLength: 1, maxLength: 64 }), {
          minItems: 1,
          maxItems: 50,
          description: 'a text equal to one, ignoring case, accents, surrounding spaces and punctuation',
        }),
      ),
      match: Type.Optional(oneOf(['exact', 'contains'])),
      payloads: Type.Optional(
        Type.Array(Text({ minLength: 1, maxLength: 256 }), {
          minItems: 1,
          maxItems: 50,
          description: "a tapped template quick reply's payload, or an interactive button's or list row's id",
        }),
      ),
      first_message: Type.Optional(Type.Boolean({ description: "only a contact's first message ever" })),
      after_silence: Type.Optional(
        Type.String({
          pattern: '^[0-9]{1,6}(m|h|d)$',
          description: 'only the first message after that long without one, e.g. 24h',
        }),
      ),
      hours: Type.Optional(
        oneOf(['inside', 'outside'], {
          description: 'only messages sent inside (or outside) business hours (Settings › Business hours)',
        }),
      ),
      while_assigned: Type.Optional(
        Type.Boolean({ description: 'also start when a teammate holds the conversation' }),
      ),
    },
    { additionalProperties: false },
  ),
};
const Trigger = Type.Union([
  TRIGGERS.event,
  TRIGGERS.webhook,
  TRIGGERS.form_submitted,
  TRIGGERS.lead_created,
  TRIGGERS.message_received,
]);
export type Trigger = Static<typeof Trigger>;

export const Definition = Type.Object(
  {
    name: NameText({ minLength: 1, maxLength: 200 }),
    trigger: Trigger,
    steps: Type.Array(Step, { minItems: 1, maxItems: 100 }),
    on_teammate_reply: Type.Optional(oneOf(['stop', 'continue'])),
  },
  { additionalProperties: false },
);
export type Definition = Static<typeof Definition>;

/** A 422 listing every problem found, each as a detail naming its field. */
function invalidDefinition(problems: Problem[]): ApiError {
  const message = `invalid definition: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`;
  return new ApiError('validation_error', message, problems);
}

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
addFormats.default(ajv, ['date-time']);
// Checked in two passes so a bad step is reported against its own type, not as "matches no branch".
const checkOutline = ajv.compile(
  Type.Object(
    {
      name: Definition.properties.name,
      on_teammate_reply: Definition.properties.on_teammate_reply,
      trigger: Type.Object({ type: Type.Unsafe<string>({ type: 'string', enum: Object.keys(TRIGGERS) }) }),
      steps: Type.Array(
        Type.Object({ type: Type.Unsafe<string>({ type: 'string', enum: Object.keys(STEPS) }) }),
        {
          minItems: 1,
          maxItems: 100,
        },
      ),
    },
    { additionalProperties: false, required: ['name', 'trigger', 'steps'] },
  ),
);
const checkTrigger = Object.fromEntries(Object.entries(TRIGGERS).map(([k, v]) => [k, ajv.compile(v)]));
const checkStep = Object.fromEntries(Object.entries(STEPS).map(([k, v]) => [k, ajv.compile(v)]));

type Problem = { field: string; message: string };

/** Each failure as a plain sentence at its field (`steps.2.template`), as every other 422 says it. */
function ajvProblems(prefix: string, errors: typeof checkOutline.errors): Problem[] {
  return plainValidationDetails(errors ?? [], prefix || 'body').map((p) =>
    p.field === 'body' ? { ...p, field: '(definition)' } : p,
  );
}

const checkMessage = ajv.compile(Message);
/** What breaks POST /messages' schema in a message whose placeholders are filled, in plain words. */
export function messageProblems(message: RichMessage): string[] {
  if (checkMessage(message)) return [];
  return ajvProblems('message', checkMessage.errors).map((p) => `${p.field}: ${p.message}`);
}

/**
 * Validates a definition: its shape, then the graph (ids unique, every link to an existing step, no
 * loop that waits for nothing: each loop passes an ask or a wait). Throws a validation error naming
 * each problem.
 */
export function parseDefinition(input: unknown): Definition {
  if (!checkOutline(input)) throw invalidDefinition(uniqueProblems(ajvProblems('', checkOutline.errors)));
  const outline = input as { trigger: { type: string }; steps: { type: string }[] };
  const shape: Problem[] = [];
  const trigger = checkTrigger[outline.trigger.type]!;
  if (!trigger(outline.trigger)) shape.push(...ajvProblems('trigger', trigger.errors));
  else shape.push(...triggerProblems(outline.trigger as Trigger));
  outline.steps.forEach((s, i) => {
    const check = checkStep[s.type]!;
    if (!check(s)) shape.push(...ajvProblems(`steps.${i}`, check.errors));
  });
  if (shape.length > 0) throw invalidDefinition(uniqueProblems(shape));
  return checkGraph(input as Definition);
}

/** What the trigger's schema cannot say: fields that only mean something together. */
function triggerProblems(t: Trigger): Problem[] {
  if (t.type !== 'message_received') return [];
  const problems: Problem[] = [];
  if (t.match && !t.keywords)
    problems.push({ field: 'trigger.match', message: 'Give the keywords this way of matching applies to.' });
  if (t.first_message && t.after_silence)
    problems.push({
      field: 'trigger.after_silence',
      message: 'Pick one: the first message ever, or the first after a silence.',
    });
  return problems;
}

function checkGraph(input: Definition): Definition {
  const problems: Problem[] = [];
  const ids = new Map<string, number>();
  input.steps.forEach((s, i) => {
    if (ids.has(s.id))
      problems.push({
        field: `steps.${i}.id`,
        message: `Another step has the id "${s.id}": give each step its own.`,
      });
    ids.set(s.id, i);
    if (s.type === 'wait' && !s.duration === !s.until) {
      problems.push({
        field: `steps.${i}`,
        message: 'Give a wait either a duration or a time to wait until (one of them).',
      });
    }
    if (s.type === 'send_message') {
      const { type, ...given } = s.message;
      if (!(type in given))
        problems.push({
          field: `steps.${i}.message.${type}`,
          message: `Fill this in: a ${type} message needs it.`,
        });
      for (const other of Object.keys(given).filter((k) => k !== type))
        problems.push({
          field: `steps.${i}.message.${other}`,
          message: `Remove this: a ${type} message has no ${other}.`,
        });
    }
    if (s.type === 'ask') problems.push(...askProblems(s, i));
    if (s.type === 'assign' && s.team !== undefined && s.to != null)
      problems.push({
        field: `steps.${i}.team`,
        message: 'Hand the conversation to a member or to a team, not both: remove one.',
      });
    if (s.type === 'assign' && (s.then ?? 'end') === 'end' && typeof s.next === 'string')
      problems.push({
        field: `steps.${i}.next`,
        message: 'An assign that ends the run goes nowhere after it: remove this, or set then to wait.',
      });
  });
  input.steps.forEach((s, i) => {
    for (const [key, target] of Object.entries(links(s))) {
      if (target && !ids.has(target)) {
        problems.push({
          field: `steps.${i}.${key}`,
          message: `No step has the id "${target}": pick one that exists.`,
        });
      }
    }
  });
  if (problems.length === 0) {
    const cycle = findCycle(input.steps);
    if (cycle)
      problems.push({
        field: 'steps',
        message: `These steps form a loop that waits for nothing: ${cycle.join(' → ')}. Put an ask or a wait step in it, or break it.`,
      });
  }
  if (problems.length > 0) throw invalidDefinition(problems);
  return input;
}

/** What an ask's problems are beyond its shape: options and kinds that do not go together. */
function askProblems(s: AskStep, i: number): Problem[] {
  const problems: Problem[] = [];
  const at = (field: string, message: string) => problems.push({ field: `steps.${i}.${field}`, message });
  if (s.buttons && s.list) at('list', 'Give a question either buttons or a list, not both.');
  if ((s.buttons || s.list) && s.expect)
    at('expect', 'Remove this: a question with buttons or a list expects one of its options.');
  if ((s.buttons || s.list) && s.text.length > 1024)
    at('text', 'Keep a question with buttons or a list to 1024 characters.');
  const rows = s.list?.sections.flatMap((section) => section.rows) ?? [];
  if (rows.length > 10) at('list.sections', 'A list holds at most 10 rows in all its sections.');
  if (s.list && s.list.sections.length > 1)
    s.list.sections.forEach((section, j) => {
      if (!section.title)
        at(`list.sections.${j}.title`, 'Fill this in: a list with several sections titles each.');
    });
  const ids = new Set<string>();
  const titles = new Set<string>();
  for (const [field, option] of options(s)) {
    if (ids.has(option.id)) at(`${field}.id`, `Another option has the id "${option.id}": give each its own.`);
    // A typed answer is matched to an option by its title: two alike could not be told apart.
    const title = option.title.trim().toLowerCase();
    if (titles.has(title))
      at(`${field}.title`, `Another option has the title "${option.title}": give each its own.`);
    ids.add(option.id);
    titles.add(title);
  }
  return problems;
}

/** An ask's buttons or list rows, each with the field that holds it. */
export function options(s: AskStep): [string, { id: string; title: string; next?: string | null }][] {
  if (s.buttons) return s.buttons.map((b, j) => [`buttons.${j}`, b]);
  return (s.list?.sections ?? []).flatMap((section, j) =>
    section.rows.map((row, k) => [`list.sections.${j}.rows.${k}`, row] as [string, typeof row]),
  );
}

/** The steps a step can lead to, by the field that names each. */
export function links(s: Step): Record<string, string | null | undefined> {
  if (s.type === 'condition') return { if_true: s.if_true, if_false: s.if_false };
  if (s.type === 'send_text' || s.type === 'send_message') return { next: s.next, not_sent: s.not_sent };
  if (s.type === 'ask') {
    const branches: Record<string, string | null | undefined> = {
      next: s.next,
      on_timeout: s.on_timeout,
      on_invalid: s.on_invalid,
      not_sent: s.not_sent,
    };
    for (const [field, option] of options(s)) branches[`${field}.next`] = option.next;
    return branches;
  }
  if (s.type === 'assign' && (s.then ?? 'end') === 'end') return {};
  return { next: s.next };
}

// Steps that wait for something (an answer, a time): a loop through one of them is allowed.
const WAITS = new Set<Step['type']>(['ask', 'wait']);

/** The step after `index` when `next` is absent; undefined `next` means "the following one". */
export function following(steps: Step[], index: number, target: string | null | undefined): string | null {
  if (target === undefined) return steps[index + 1]?.id ?? null;
  return target;
}

function findCycle(steps: Step[]): string[] | null {
  const index = new Map(steps.map((s, i) => [s.id, i]));
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'visiting') return [...path.slice(path.indexOf(id)), id];
    const i = index.get(id)!;
    const s = steps[i]!;
    // Only loops among steps that wait for nothing are refused: the search does not pass a waiting one.
    if (WAITS.has(s.type)) {
      state.set(id, 'done');
      return null;
    }
    state.set(id, 'visiting');
    path.push(id);
    const targets = Object.entries(links(s)).map(([key, t]) =>
      following(steps, i, key === 'next' ? t : (t ?? null)),
    );
    for (const t of targets) {
      if (t === null) continue;
      const found = visit(t);
      if (found) return found;
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const s of steps) {
    const found = visit(s.id);
    if (found) return found;
  }
  return null;
}

function uniqueProblems(list: Problem[]) {
  const seen = new Set<string>();
  return list
    .filter((p) => {
      const k = `${p.field} ${p.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .slice(0, 20);
}

/** The kind an automation is, by its trigger: event triggers make flows, the others sequences. */
export function kindOf(trigger: Trigger): 'flow' | 'sequence' {
  return trigger.type === 'event' || trigger.type === 'message_received' ? 'flow' : 'sequence';
}
