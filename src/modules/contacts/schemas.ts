import { type Static, Type } from 'typebox';
import { AnyKey, Text } from '../../http/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';

const TraitValue = Type.Union([Text({ maxLength: 1024 }), Type.Number(), Type.Boolean(), Type.Null()]);

const Phone = Text({
  minLength: 1,
  maxLength: 32,
  description:
    'With country code (+ or 00 optional), or national when the workspace has a default country code',
});

export const ContactUpsertBody = Type.Object(
  {
    phone: Phone,
    name: Type.Optional(Text({ minLength: 1, maxLength: FIELD_LIMITS.contactName })),
    email: Type.Optional(Text({ maxLength: FIELD_LIMITS.email, format: 'email' })),
    tags: Type.Optional(Type.Array(Text({ minLength: 1, maxLength: FIELD_LIMITS.tag }), { maxItems: 100 })),
    traits: Type.Optional(
      Type.Record(AnyKey, TraitValue, {
        maxProperties: 100,
        propertyNames: Text({ minLength: 1, maxLength: 64 }),
        description: 'Shallow-merged into the contact traits; values are strings, numbers, booleans or null',
      }),
    ),
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
