import { type Static, Type } from 'typebox';
import { NameText, PageLimit, Text } from '../../api/schema.js';
import { BROADCAST_LIMITS, FIELD_LIMITS } from '../../lib/field-limits.js';
import { Contact } from '../contacts/schemas.js';

const Tag = NameText({ minLength: 1, maxLength: FIELD_LIMITS.tag });
const Tags = Type.Array(Tag, { maxItems: 50 });
const Period = Type.Object(
  {
    from: Type.Optional(Type.String({ format: 'date-time' })),
    to: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
const TraitKey = Text({ minLength: 1, maxLength: FIELD_LIMITS.traitKey });

export const Audience = Type.Object(
  {
    tags_all: Type.Optional(Tags),
    tags_any: Type.Optional(Tags),
    tags_none: Type.Optional(Tags),
    traits: Type.Optional(
      Type.Array(
        Type.Union([
          Type.Object(
            {
              key: TraitKey,
              equals: Type.Union([
                Text({ maxLength: FIELD_LIMITS.broadcastValue }),
                Type.Number(),
                Type.Boolean(),
              ]),
            },
            { additionalProperties: false },
          ),
          Type.Object({ key: TraitKey, exists: Type.Boolean() }, { additionalProperties: false }),
        ]),
        { maxItems: BROADCAST_LIMITS.traitRules },
      ),
    ),
    created: Type.Optional(Period),
    last_inbound: Type.Optional(Period),
    import_id: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
  },
  {
    additionalProperties: false,
    description:
      'Contacts matching every filter given (an empty object: every contact). Opted-out contacts are never in the audience of a MARKETING template.',
  },
);
export type Audience = Static<typeof Audience>;

const Fallback = Type.Optional(Text({ maxLength: FIELD_LIMITS.broadcastValue }));
export const ValueSource = Type.Union(
  [
    Type.Object(
      { from: Type.Literal('text'), text: Text({ minLength: 1, maxLength: FIELD_LIMITS.broadcastValue }) },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        from: Type.Literal('contact'),
        field: Type.Union([Type.Literal('name'), Type.Literal('phone'), Type.Literal('email')]),
        fallback: Fallback,
      },
      { additionalProperties: false },
    ),
    Type.Object(
      { from: Type.Literal('trait'), key: TraitKey, fallback: Fallback },
      { additionalProperties: false },
    ),
  ],
  { description: "Fixed text, a contact's field or a trait, with the text used when it is empty" },
);
export type ValueSource = Static<typeof ValueSource>;

export const Values = Type.Object(
  {
    body: Type.Optional(
      Type.Union([
        Type.Array(ValueSource, { maxItems: 100 }),
        Type.Record(Type.String({ pattern: '^[a-z_][a-z0-9_]*$' }), ValueSource, { maxProperties: 100 }),
      ]),
    ),
    header: Type.Optional(
      Type.Union([
        ValueSource,
        Type.Object(
          { link: Text({ minLength: 1, maxLength: FIELD_LIMITS.mediaLink }) },
          { additionalProperties: false },
        ),
      ]),
    ),
    buttons: Type.Optional(
      Type.Array(
        Type.Object(
          { index: Type.Integer({ minimum: 0, maximum: 9 }), value: ValueSource },
          { additionalProperties: false },
        ),
        { maxItems: 10 },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      "How each part of the template is filled per contact (the parts POST /messages' template takes)",
  },
);
export type Values = Static<typeof Values>;

const TemplateName = Type.Object(
  { name: NameText({ minLength: 1, maxLength: 512 }), language: Text({ minLength: 2, maxLength: 15 }) },
  { additionalProperties: false },
);

export const CreateBroadcastBody = Type.Object(
  {
    name: NameText({ minLength: 1, maxLength: FIELD_LIMITS.broadcastName }),
    template: TemplateName,
    audience: Audience,
    values: Values,
    send_at: Type.Optional(
      Type.Union([Text({ minLength: 1, maxLength: 40 }), Type.Null()], {
        description:
          'When to start (ISO 8601; without an offset, a time in the workspace time zone); null or absent: now',
      }),
    ),
    draft: Type.Optional(
      Type.Boolean({ description: 'Saved, not sent: POST /broadcasts/{id}/resume starts it' }),
    ),
    reply_window_hours: Type.Optional(
      Type.Integer({ minimum: 1, maximum: BROADCAST_LIMITS.replyHours, default: 24 }),
    ),
  },
  { additionalProperties: false },
);
export type CreateBroadcastBody = Static<typeof CreateBroadcastBody>;

export const AudienceBody = Type.Object(
  { audience: Audience, template: Type.Optional(TemplateName) },
  { additionalProperties: false },
);

export const PreviewBody = Type.Object(
  {
    template: TemplateName,
    values: Values,
    contact_id: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);

const Status = Type.Union([
  Type.Literal('draft'),
  Type.Literal('scheduled'),
  Type.Literal('sending'),
  Type.Literal('paused'),
  Type.Literal('waiting_for_limit'),
  Type.Literal('completed'),
  Type.Literal('cancelled'),
]);
export type BroadcastStatus = Static<typeof Status>;
const PausedReasonSchema = Type.Union([
  Type.Literal('no_connected_number'),
  Type.Literal('plan_limit_reached'),
  Type.Literal('number_paused'),
]);
export type PausedReason = Static<typeof PausedReasonSchema>;
const Time = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const Broadcast = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Status,
  paused_reason: Type.Union([PausedReasonSchema, Type.Null()], {
    description:
      "Why the broadcast paused itself: no_connected_number (the workspace's number was disconnected), plan_limit_reached (the plan's message limit) or number_paused (Meta refuses to send from the number: its token, account or payment; it resumes by itself once that is put right); null when not paused or paused by someone. Resume once it is put right.",
  }),
  template: Type.Object({ name: Type.String(), language: Type.String(), category: Type.String() }),
  // As given when it was created (checked then): sent as stored, typed as the body's schemas.
  audience: Type.Unsafe<Audience>(Type.Object({}, { additionalProperties: true })),
  values: Type.Unsafe<Values>(Type.Object({}, { additionalProperties: true })),
  send_at: Time,
  time_zone: Type.String({ description: "The workspace's IANA time zone" }),
  reply_window_hours: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Time,
  completed_at: Time,
  cancelled_at: Time,
  counts: Type.Object({
    audience: Type.Integer(),
    queued: Type.Integer(),
    sent: Type.Integer({ description: 'Accepted or sent by the network (delivered and read included)' }),
    delivered: Type.Integer(),
    read: Type.Integer(),
    failed: Type.Integer(),
    skipped: Type.Integer({ description: 'Opted out, or a value empty, at send time' }),
    replied: Type.Integer({ description: 'Wrote in within reply_window_hours of the send' }),
  }),
  failed_by_reason: Type.Array(
    Type.Object({
      code: Type.Union([Type.Integer(), Type.Null()]),
      reason: Type.String(),
      count: Type.Integer(),
    }),
  ),
  limit: Type.Object({
    tier: Type.Union([Type.String(), Type.Null()]),
    used_24h: Type.Integer({ description: 'Unique recipients of templates in the last 24 hours' }),
    max_24h: Type.Union([Type.Integer(), Type.Null()], { description: 'null: unlimited' }),
  }),
});
export type Broadcast = Static<typeof Broadcast>;

export const BroadcastResult = Type.Object({ result: Type.Literal(true), broadcast: Broadcast });

const Page = {
  limit: PageLimit,
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
};

export const ListQuery = Type.Object(
  { status: Type.Optional(Status), ...Page },
  { additionalProperties: false },
);

export const ListResult = Type.Object({
  result: Type.Literal(true),
  broadcasts: Type.Array(Broadcast),
  limit: Type.Integer(),
  offset: Type.Integer(),
  has_next_page: Type.Boolean(),
});

const RecipientState = Type.Union([
  Type.Literal('queued'),
  Type.Literal('sent'),
  Type.Literal('delivered'),
  Type.Literal('read'),
  Type.Literal('failed'),
  Type.Literal('skipped'),
]);
export type RecipientStatus = Static<typeof RecipientState>;

export const RecipientsQuery = Type.Object(
  {
    status: Type.Optional(RecipientState),
    code: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
    ...Page,
  },
  { additionalProperties: false },
);

export const Recipient = Type.Object({
  contact_id: Type.String(),
  phone: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  status: RecipientState,
  message_id: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([
    Type.Object({ code: Type.Union([Type.Integer(), Type.Null()]), title: Type.String() }),
    Type.Null(),
  ]),
  sent_at: Time,
  delivered_at: Time,
  read_at: Time,
  replied_at: Time,
});

export const RecipientsResult = Type.Object({
  result: Type.Literal(true),
  recipients: Type.Array(Recipient),
  limit: Type.Integer(),
  offset: Type.Integer(),
  has_next_page: Type.Boolean(),
});

export const TimelineResult = Type.Object({
  result: Type.Literal(true),
  bucket: Type.Union([Type.Literal('minute'), Type.Literal('hour')]),
  points: Type.Array(
    Type.Object({
      at: Type.String({ format: 'date-time' }),
      sent: Type.Integer(),
      delivered: Type.Integer(),
      read: Type.Integer(),
      failed: Type.Integer(),
    }),
  ),
});

export const AudienceResult = Type.Object({
  result: Type.Literal(true),
  count: Type.Integer(),
  sample: Type.Array(Contact, { maxItems: 5 }),
});

export const PreviewResult = Type.Object({
  result: Type.Literal(true),
  contact: Type.Union([Contact, Type.Null()]),
  rendered: Type.Object({
    header: Type.Optional(Type.String()),
    body: Type.String(),
    footer: Type.Optional(Type.String()),
    buttons: Type.Optional(Type.Array(Type.String())),
  }),
  missing: Type.Array(Type.String()),
});

export const BroadcastParams = Type.Object({ id: Text({ minLength: 1, maxLength: 64 }) });
