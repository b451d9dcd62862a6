import { type Static, Type } from 'typebox';
import {
  AnyKey,
  MaybeTimestamp,
  NameText,
  PageCursor,
  PageFields,
  PageLimit,
  Text,
  Timestamp,
} from '../../api/schema.js';
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
  {
    additionalProperties: false,
    examples: [
      {
        phone: '+1 415 555 2671',
        name: 'Asha Rao',
        email: 'asha@example.com',
        tags: ['newsletter'],
        traits: { plan: 'pro', seats: 3 },
      },
    ],
  },
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

export const ContactUpsertResult = Type.Object(
  { result: Type.Literal(true), id: Type.String(), created: Type.Boolean() },
  { examples: [{ result: true, id: 'ct_4fQ9zR2mXb7LpT1sVn8K', created: true }] },
);

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

const Cursor = PageCursor;
const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'Send it back as `cursor` for the next page; null on the last page',
});

export const ContactListQuery = Type.Object({
  limit: PageLimit,
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 10_000_000,
      description: 'Rows to skip (default 0); not with `cursor`',
    }),
  ),
  cursor: Type.Optional(Cursor),
  phone: Type.Optional({
    ...Phone,
    description: 'Only the contact with this phone, normalised as POST /contacts does: 0 or 1 result',
  }),
});
export type ContactListQuery = Static<typeof ContactListQuery>;

/** One contact as the examples of the OpenAPI document show it. */
const EXAMPLE_CONTACT: Contact = {
  id: 'ct_4fQ9zR2mXb7LpT1sVn8K',
  phone: '14155552671',
  name: 'Asha Rao',
  email: 'asha@example.com',
  tags: ['newsletter', 'vip'],
  traits: { plan: 'pro', seats: 3 },
  opted_out: false,
  opted_out_at: null,
  created_at: '2026-11-02T09:30:00.000Z',
  updated_at: '2026-11-20T16:05:12.000Z',
};

export const ContactListResult = Type.Object(
  {
    result: Type.Literal(true),
    contacts: Type.Array(Contact),
    limit: Type.Integer(),
    offset: Type.Integer({ description: 'The offset asked for; 0 when paging with `cursor`' }),
    has_next_page: Type.Boolean(),
    next_cursor: NextCursor,
  },
  {
    examples: [
      {
        result: true,
        contacts: [EXAMPLE_CONTACT],
        limit: 50,
        offset: 0,
        has_next_page: false,
        next_cursor: null,
      },
    ],
  },
);

export const ContactResult = Type.Object(
  { result: Type.Literal(true), contact: Contact },
  { examples: [{ result: true, contact: EXAMPLE_CONTACT }] },
);

/** REST v1's change of one contact: the app's edit with tags as `{add, remove}`, null traits removed, and consent. */
export const ContactPatchBody = Type.Object(
  {
    name: Type.Optional(Type.Union([ContactName, Type.Null()], { description: 'null clears it' })),
    email: Type.Optional(Type.Union([ContactEmail, Type.Null()], { description: 'null clears it' })),
    tags: Type.Optional(
      Type.Object(
        { add: Type.Optional(Tags), remove: Type.Optional(Tags) },
        {
          additionalProperties: false,
          minProperties: 1,
          description: 'Tags to add (after those the contact has) and to remove; a tag in both is removed',
        },
      ),
    ),
    traits: Type.Optional(
      Type.Record(AnyKey, TraitValue, {
        maxProperties: 100,
        propertyNames: TraitName,
        description: 'Merged into the contact traits; a trait given null is removed',
      }),
    ),
    opted_out: Type.Optional(
      Type.Boolean({
        description: 'true opts the contact out of marketing templates, false opts them back in',
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [
      {
        name: 'Asha Rao',
        tags: { add: ['vip'], remove: ['trial'] },
        traits: { plan: 'pro', coupon: null },
        opted_out: false,
      },
    ],
  },
);
export type ContactPatchBody = Static<typeof ContactPatchBody>;

export const TimelineQuery = Type.Object({
  limit: PageLimit,
  cursor: Type.Optional(Cursor),
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

export const TimelinePage = Type.Object(
  { result: Type.Literal(true), timeline: Type.Array(TimelineItem), next_cursor: NextCursor },
  {
    examples: [
      {
        result: true,
        timeline: [
          {
            kind: 'message',
            id: 'msg_8Jd2kQ0pLr5TwXz1Ya3B',
            at: '2026-11-20T16:04:58.000Z',
            title: 'Received a message',
            detail: 'Is the pro plan monthly?',
            status: null,
          },
          {
            kind: 'consent',
            id: 'cc_2Vb7nM4xQe9RtY6uWp0L',
            at: '2026-11-03T10:12:00.000Z',
            title: 'Opted back in',
            detail: 'through the REST API',
            status: null,
          },
        ],
        next_cursor: 'WyIxNzYyMTY0NzIwMDAwMDAwIiwiY2NfMlZiN25NNHhRZTlSdFk2dVdwMEwiXQ',
      },
    ],
  },
);

export const TagListResult = Type.Object(
  {
    result: Type.Literal(true),
    tags: Type.Array(Type.Object({ tag: Type.String(), contacts: Type.Integer() })),
  },
  {
    examples: [
      {
        result: true,
        tags: [
          { tag: 'newsletter', contacts: 412 },
          { tag: 'vip', contacts: 37 },
        ],
      },
    ],
  },
);
