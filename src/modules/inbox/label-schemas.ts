import { type Static, Type } from 'typebox';
import { NameText, Text, Timestamp } from '../../api/schema.js';

// The colours a label may have, by name: the app decides how each looks.
export const LABEL_COLOURS = [
  'grey',
  'red',
  'orange',
  'yellow',
  'green',
  'teal',
  'blue',
  'purple',
  'pink',
] as const;
export type LabelColour = (typeof LABEL_COLOURS)[number];
export const LABELS_MAX = 200;
export const LABEL_NAME_MAX = 40;
/** At most this many conversations in one bulk action. */
export const BULK_MAX = 500;
export const SAVED_VIEWS_MAX = 100;

const literals = <T extends readonly string[]>(values: T, options?: { description: string }) =>
  Type.Unsafe<T[number]>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      options,
    ),
  );

const Id = Text({ minLength: 1, maxLength: 64 });
const Colour = literals(LABEL_COLOURS, { description: 'A colour of the palette, by name' });
const LabelName = NameText({ minLength: 1, maxLength: LABEL_NAME_MAX });

/** A label as a conversation carries it. */
export const LabelRef = Type.Object({ id: Type.String(), name: Type.String(), colour: Colour });
export type LabelRef = Static<typeof LabelRef>;

export const Label = Type.Object({
  id: Type.String(),
  name: Type.String(),
  colour: Colour,
  conversations: Type.Integer({ description: 'How many conversations carry it' }),
  created_at: Timestamp,
});
export type Label = Static<typeof Label>;

export const LabelBody = Type.Object(
  { name: LabelName, colour: Type.Optional(Colour) },
  { additionalProperties: false, examples: [{ name: 'VIP', colour: 'purple' }] },
);
export type LabelBody = Static<typeof LabelBody>;

export const LabelPatch = Type.Object(
  { name: Type.Optional(LabelName), colour: Type.Optional(Colour) },
  { additionalProperties: false, minProperties: 1, examples: [{ colour: 'red' }] },
);
export type LabelPatch = Static<typeof LabelPatch>;

export const LabelResult = Type.Object({ result: Type.Literal(true), label: Label });
export const LabelListResult = Type.Object({ result: Type.Literal(true), labels: Type.Array(Label) });

export const ConversationLabelBody = Type.Object(
  { label_id: Id },
  { additionalProperties: false, examples: [{ label_id: 'lbl_4Hs1' }] },
);
export const ConversationLabelParams = Type.Object({ id: Id, label_id: Id });

/** A conversation's labels and snooze, as a label or snooze change answers them. */
export const ConversationTags = Type.Object({
  labels: Type.Array(LabelRef),
  snoozed_until: Type.Union([Timestamp, Type.Null()], {
    description:
      'Hidden from the open lists until then; null when not snoozed or snoozed until the customer writes',
  }),
  snoozed_until_reply: Type.Boolean({ description: 'Snoozed until the customer writes' }),
});
export type ConversationTags = Static<typeof ConversationTags>;
export const ConversationTagsResult = Type.Object({
  result: Type.Literal(true),
  conversation: ConversationTags,
});

export const SnoozeBody = Type.Object(
  {
    until: Type.Optional(Timestamp),
    until_reply: Type.Optional(Type.Literal(true)),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    examples: [{ until: '2026-11-29T09:00:00.000Z' }, { until_reply: true }],
  },
);
export type SnoozeBody = Static<typeof SnoozeBody>;

export const BULK_ACTIONS = ['assign', 'label', 'unlabel', 'resolve', 'snooze'] as const;

export const BulkBody = Type.Object(
  {
    ids: Type.Array(Id, {
      minItems: 1,
      maxItems: BULK_MAX,
      uniqueItems: true,
      description: "Conversations' ids",
    }),
    action: literals(BULK_ACTIONS),
    assignee_id: Type.Optional(
      Type.Union([Id, Type.Null()], { description: "assign: a member's user id, or null for no one" }),
    ),
    label_id: Type.Optional(Id),
    until: Type.Optional(Timestamp),
    until_reply: Type.Optional(Type.Literal(true)),
  },
  {
    additionalProperties: false,
    examples: [
      { ids: ['ct_2bXk9q', 'ct_8Jd3Lm'], action: 'resolve' },
      { ids: ['ct_2bXk9q'], action: 'label', label_id: 'lbl_4Hs1' },
    ],
  },
);
export type BulkBody = Static<typeof BulkBody>;

export const BulkResult = Type.Object({
  result: Type.Literal(true),
  done: Type.Integer({ description: 'Conversations the action reached (changed, or already so)' }),
  not_found: Type.Array(Type.String(), {
    description: 'Ids of no conversation of this workspace: untouched',
  }),
});
export type BulkResult = Static<typeof BulkResult>;

// Saved views: the inbox's filter as a member saved it.
export const VIEW_FILTERS = ['mine', 'unassigned', 'open', 'snoozed', 'all'] as const;
export const ViewQuery = Type.Object(
  {
    filter: Type.Optional(literals(VIEW_FILTERS)),
    label: Type.Optional(Id),
    q: Type.Optional(Text({ maxLength: 100 })),
    assignee_id: Type.Optional(Id),
    team_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type ViewQuery = Static<typeof ViewQuery>;

export const SavedViewBody = Type.Object(
  {
    name: NameText({ minLength: 1, maxLength: 60 }),
    query: ViewQuery,
    shared: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type SavedViewBody = Static<typeof SavedViewBody>;
export const SavedViewPatch = Type.Partial(SavedViewBody, { additionalProperties: false, minProperties: 1 });
export type SavedViewPatch = Static<typeof SavedViewPatch>;

export const SavedView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  query: ViewQuery,
  shared: Type.Boolean(),
  mine: Type.Boolean({ description: 'Saved by this member (only they change it)' }),
  created_at: Timestamp,
});
export type SavedView = Static<typeof SavedView>;
export const SavedViewResult = Type.Object({ result: Type.Literal(true), view: SavedView });
export const SavedViewListResult = Type.Object({ result: Type.Literal(true), views: Type.Array(SavedView) });
