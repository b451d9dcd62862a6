import { Type } from 'typebox';

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
