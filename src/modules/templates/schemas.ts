import { Type } from 'typebox';
import { MaybeTimestamp, Timestamp } from '../../api/schema.js';

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

export const TemplateListResult = Type.Object({
  result: Type.Literal(true),
  templates: Type.Array(ListedTemplate),
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
