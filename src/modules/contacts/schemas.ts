import { type Static, Type } from 'typebox';
import { AnyKey, MaybeTimestamp, NameText, PageFields, Text, Timestamp } from '../../api/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';

const TraitValue = Type.Union([
  Text({ maxLength: FIELD_LIMITS.traitValue }),
  Type.Number(),
  Type.Boolean(),
  Type.Null(),
]);

const Phone = Text({
  minLength: 1,
  maxLength: 32,
  description:
    'With country code (+ or 00 optional), or national when the workspace has a default country code',
});

const ContactName = NameText({ minLength: 1, maxLength: FIELD_LIMITS.contactName });
const ContactEmail = Text({ maxLength: FIELD_LIMITS.email, format: 'email' });
const Tags = Type.Array(NameText({ minLength: 1, maxLength: FIELD_LIMITS.tag }), { maxItems: 100 });
const TraitName = Text({ minLength: 1, maxLength: FIELD_LIMITS.traitKey });
const Traits = Type.Record(AnyKey, TraitValue, {
  maxProperties: 100,
  propertyNames: TraitName,
  description: 'Shallow-merged into the contact traits; values are strings, numbers, booleans or null',
});

export const ContactUpsertBody = Type.Object(
  {
    phone: Phone,
    name: Type.Optional(ContactName),
    email: Type.Optional(ContactEmail),
    tags: Type.Optional(Tags),
    traits: Type.Optional(Traits),
    opted_out: Type.Optional(
      Type.Boolean({
        description:
          'Extension: true opts the contact out of marketing templates, false opts them back in; left as it is when not given',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ContactUpsertBody = Static<typeof ContactUpsertBody>;

/** The web app's edit of one contact: the same field rules as the upsert; null clears a name or e-mail. */
export const ContactEditBody = Type.Object(
  {
    name: Type.Optional(Type.Union([ContactName, Type.Null()])),
    email: Type.Optional(Type.Union([ContactEmail, Type.Null()])),
    add_tags: Type.Optional(Tags),
    remove_tags: Type.Optional(Tags),
    traits: Type.Optional(Traits),
    remove_traits: Type.Optional(Type.Array(TraitName, { maxItems: 100 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ContactEditBody = Static<typeof ContactEditBody>;

export const ContactUpsertResult = Type.Object({
  result: Type.Literal(true),
  id: Type.String(),
  created: Type.Boolean(),
});

export const Contact = Type.Object({
  id: Type.String(),
  phone: Type.String({ description: 'E.164 digits, without +' }),
  name: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  tags: Type.Array(Type.String()),
  traits: Type.Object({}, { additionalProperties: true }),
  opted_out: Type.Boolean({
    description:
      'Extension: the contact asked to stop marketing messages (a keyword, a button, the API or the app)',
  }),
  opted_out_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Extension: when the contact opted out; null while opted in',
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type Contact = Static<typeof Contact>;

export const ContactListQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
});
export type ContactListQuery = Static<typeof ContactListQuery>;

export const ContactListResult = Type.Object({
  result: Type.Literal(true),
  contacts: Type.Array(Contact),
  limit: Type.Integer(),
  offset: Type.Integer(),
  has_next_page: Type.Boolean(),
});

/** The web app's contact: the REST shape and when the contact last wrote (its 24-hour window). */
const AppContact = Type.Object({ ...Contact.properties, last_inbound_at: MaybeTimestamp });
export type AppContact = Static<typeof AppContact>;

export const AppContactList = Type.Object({
  result: Type.Literal(true),
  contacts: Type.Array(AppContact),
  ...PageFields,
});

export const AppContactResult = Type.Object({ result: Type.Literal(true), contact: AppContact });

const TimelineItem = Type.Object({
  kind: Type.Union([
    Type.Literal('message'),
    Type.Literal('event'),
    Type.Literal('flow_run'),
    Type.Literal('lead'),
    Type.Literal('consent'),
  ]),
  id: Type.String(),
  at: Timestamp,
  title: Type.String(),
  detail: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.String(), Type.Null()]),
});

export const AppContactDetail = Type.Object({
  result: Type.Literal(true),
  contact: AppContact,
  timeline: Type.Array(TimelineItem),
});

export const TagListResult = Type.Object({
  result: Type.Literal(true),
  tags: Type.Array(Type.Object({ tag: Type.String(), contacts: Type.Integer() })),
});
