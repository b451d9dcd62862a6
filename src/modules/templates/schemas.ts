import { Type } from 'typebox';

export const TemplateStatus = Type.Union([
  Type.Literal('APPROVED'),
  Type.Literal('PENDING'),
  Type.Literal('REJECTED'),
  Type.Literal('PAUSED'),
  Type.Literal('DISABLED'),
]);

export const ListedTemplate = Type.Object({
  id: Type.String(),
  name: Type.String(),
  language: Type.String(),
  category: Type.String(),
  body: Type.String(),
  variable_count: Type.Integer({ minimum: 0 }),
});

export const TemplateListResult = Type.Object({
  result: Type.Literal(true),
  templates: Type.Array(ListedTemplate),
});
