import { Type } from 'typebox';
import { MaybeTimestamp, NameText, PAGE_LIMIT_MAX, PageCursor, Text, Timestamp } from '../../api/schema.js';

export const TemplateStatus = Type.Union([
  Type.Literal('APPROVED'),
  Type.Literal('PENDING'),
  Type.Literal('REJECTED'),
  Type.Literal('PAUSED'),
  Type.Literal('DISABLED'),
]);

const ListedButton = Type.Object({
  index: Type.Integer({
    minimum: 0,
    description: 'The button position: `template.buttons[].index` of a send',
  }),
  type: Type.String({
    description: "Meta's button type: QUICK_REPLY, URL, PHONE_NUMBER, COPY_CODE, OTP, FLOW...",
  }),
  takes: Type.Union(
    [Type.Literal('payload'), Type.Literal('text'), Type.Literal('coupon_code'), Type.Null()],
    { description: 'The field of `template.buttons[]` that carries its value; null: the button takes none' },
  ),
  required: Type.Boolean({ description: 'A send must give it (a URL suffix, a coupon code)' }),
});

export const ListedTemplate = Type.Object({
  id: Type.String(),
  name: Type.String(),
  language: Type.String(),
  category: Type.String(),
  body: Type.String(),
  variable_count: Type.Integer({ minimum: 0 }),
  parameter_format: Type.Union([Type.Literal('POSITIONAL'), Type.Literal('NAMED')], {
    description: 'NAMED: `template.body` may be an object keyed by `body_parameters`',
  }),
  body_parameters: Type.Array(Type.String(), {
    description: "A NAMED template's body variables in order; empty for positional ones",
  }),
  header: Type.Union(
    [
      Type.Object({
        format: Type.String({ description: 'TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION' }),
        takes_value: Type.Boolean({ description: 'A send must give `template.header`' }),
      }),
      Type.Null(),
    ],
    { description: 'null: the template has no header' },
  ),
  buttons: Type.Array(ListedButton),
});

const TEMPLATE_EXAMPLE = {
  id: 'tpl_4Xb8Kq2mZp9LrT3vW1yA',
  name: 'order_shipped',
  language: 'en',
  category: 'UTILITY',
  body: 'Hi {{1}}, order {{2}} is on its way.',
  variable_count: 2,
  parameter_format: 'POSITIONAL',
  body_parameters: [],
  header: null,
  buttons: [],
  status: 'APPROVED',
  rejected_reason: null,
  status_reason: null,
  quality_score: null,
  created_at: '2026-11-02T09:15:00.000Z',
  updated_at: '2026-11-02T11:40:12.000Z',
};

/** A template as REST v1 shows it: what a send must give, and where Meta's review of it stands. */
export const ApiTemplate = Type.Object({
  ...ListedTemplate.properties,
  status: Type.String({
    description:
      "Meta's review: PENDING until reviewed, then APPROVED (sendable) or REJECTED; later PAUSED or DISABLED",
  }),
  rejected_reason: Type.Union([Type.String(), Type.Null()], {
    description: "A REJECTED template: Meta's reason, such as INCORRECT_CATEGORY",
  }),
  status_reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why a PAUSED or DISABLED template cannot be sent, when a refused send told Parley',
  }),
  quality_score: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const TemplateListResult = Type.Object(
  {
    result: Type.Literal(true),
    templates: Type.Array(ApiTemplate),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Send it back as `cursor` for the next page; null on the last page',
    }),
  },
  { examples: [{ result: true, templates: [TEMPLATE_EXAMPLE], next_cursor: null }] },
);

export const TemplateResult = Type.Object(
  { result: Type.Literal(true), template: ApiTemplate },
  { examples: [{ result: true, template: TEMPLATE_EXAMPLE }] },
);

/** A template archived or restored: hidden from lists and sends here while `archived_at` is set. */
export const ArchivedTemplateResult = Type.Object(
  {
    result: Type.Literal(true),
    template: Type.Object({
      ...ApiTemplate.properties,
      archived_at: { ...MaybeTimestamp, description: 'When it was archived here; null once restored' },
    }),
  },
  {
    examples: [{ result: true, template: { ...TEMPLATE_EXAMPLE, archived_at: '2026-11-20T10:00:00.000Z' } }],
  },
);

export const NewTemplateResult = Type.Object(
  { result: Type.Literal(true), template: ApiTemplate },
  {
    examples: [
      {
        result: true,
        template: {
          ...TEMPLATE_EXAMPLE,
          status: 'PENDING',
          updated_at: TEMPLATE_EXAMPLE.created_at,
        },
      },
    ],
  },
);

export const TemplateListQuery = Type.Object({
  status: Type.Union(
    [Type.Literal('approved'), Type.Literal('pending'), Type.Literal('rejected'), Type.Literal('all')],
    {
      default: 'approved',
      description:
        'Which review state to list: approved (the default: the templates a send can use), pending, rejected, or all (paused and disabled ones too)',
    },
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: PAGE_LIMIT_MAX,
      description:
        'Templates a page: without it and without `cursor`, every one (as before paging); with a cursor alone, 50',
    }),
  ),
  cursor: Type.Optional(PageCursor),
});

const Example = Type.Object(
  {
    header_text: Type.Optional(Type.Array(Type.String())),
    header_text_named_params: Type.Optional(
      Type.Array(Type.Object({ param_name: Type.String(), example: Type.String() })),
    ),
    header_handle: Type.Optional(Type.Array(Type.String())),
    body_text: Type.Optional(Type.Array(Type.Array(Type.String()))),
    body_text_named_params: Type.Optional(
      Type.Array(Type.Object({ param_name: Type.String(), example: Type.String() })),
    ),
  },
  { additionalProperties: true },
);

const StoredButton = Type.Object(
  {
    type: Type.String(),
    text: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
    phone_number: Type.Optional(Type.String()),
    example: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  },
  { additionalProperties: true },
);

/** A component as Meta lists it (the fields the web app reads; others pass through as they are). */
export const TemplateComponent = Type.Object(
  {
    type: Type.String(),
    format: Type.Optional(Type.String()),
    text: Type.Optional(Type.String()),
    example: Type.Optional(Example),
    buttons: Type.Optional(Type.Array(StoredButton)),
    add_security_recommendation: Type.Optional(Type.Boolean()),
    code_expiration_minutes: Type.Optional(Type.Integer()),
  },
  { additionalProperties: true },
);

/** The web app's list: every status, with the stored components for its preview. */
export const AppTemplate = Type.Object({
  ...ListedTemplate.properties,
  // Meta's words, kept as sent: a status added later must not break the list.
  status: Type.String({ description: 'APPROVED, PENDING, REJECTED, PAUSED, DISABLED, DELETED...' }),
  rejected_reason: Type.Union([Type.String(), Type.Null()]),
  status_reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why a PAUSED, DISABLED or DELETED template cannot be sent, when a refused send told Parley',
  }),
  quality_score: Type.Union([Type.String(), Type.Null()]),
  updated_at: Timestamp,
  archived_at: Type.Optional(MaybeTimestamp),
  components: Type.Union([Type.Array(TemplateComponent), Type.Null()]),
});

export const AppTemplateList = Type.Object({
  result: Type.Literal(true),
  templates: Type.Array(AppTemplate),
  number_connected: Type.Boolean(),
  synced_at: MaybeTimestamp,
});

export const TemplateSyncResult = Type.Object({ result: Type.Literal(true), synced: Type.Integer() });

/** A new template, submitted to Meta for review (the web app's and REST v1's). */
export const NewTemplateBody = Type.Object(
  {
    name: NameText({ minLength: 1, maxLength: 512 }),
    language: Text({ minLength: 2, maxLength: 15 }),
    category: Text({ minLength: 1, maxLength: 32 }),
    body: Type.Optional(Text({ minLength: 1, maxLength: 1024 })),
    examples: Type.Optional(Type.Array(Text({ maxLength: 1024 }), { maxItems: 100 })),
    // Meta's creation shapes, passed on to its review as given.
    components: Type.Optional(
      Type.Array(
        Type.Object({ type: Text({ minLength: 1, maxLength: 16 }) }, { additionalProperties: true }),
        {
          minItems: 1,
          maxItems: 4,
        },
      ),
    ),
    parameter_format: Type.Optional(Type.Union([Type.Literal('POSITIONAL'), Type.Literal('NAMED')])),
    add_security_recommendation: Type.Optional(Type.Boolean()),
    code_expiration_minutes: Type.Optional(Type.Integer()),
    otp_type: Type.Optional(
      Type.Union([Type.Literal('COPY_CODE'), Type.Literal('ONE_TAP'), Type.Literal('ZERO_TAP')]),
    ),
    supported_apps: Type.Optional(
      Type.Array(
        Type.Object(
          { package_name: NameText({ maxLength: 224 }), signature_hash: Text({ maxLength: 11 }) },
          { additionalProperties: false },
        ),
        { maxItems: 5 },
      ),
    ),
  },
  { additionalProperties: false },
);

/** A media header's sample, uploaded to Meta: its handle goes in the HEADER's `example.header_handle`. */
export const HeaderSampleResult = Type.Object(
  {
    result: Type.Literal(true),
    handle: Type.String({
      description: "Meta's upload handle: the HEADER component's `example.header_handle[0]`",
    }),
    mime_type: Type.String({
      description: 'image/jpeg, image/png, video/mp4 or application/pdf, read from the bytes',
    }),
    file_size: Type.Integer({ minimum: 1 }),
  },
  {
    examples: [
      { result: true, handle: '4::aW1hZ2UvanBlZw==:ARZx9QeXgD2f', mime_type: 'image/jpeg', file_size: 48213 },
    ],
  },
);
