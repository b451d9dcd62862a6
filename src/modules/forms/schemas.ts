import { Type } from 'typebox';
import { NameText, Text, Timestamp } from '../../api/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';
import { FIELD_TYPES, type FormField } from './form-fields.js';

const StoredField = Type.Object({
  name: Type.String(),
  label: Type.String(),
  type: Type.String({ description: 'text, email, tel, textarea, select, checkbox...' }),
  required: Type.Boolean(),
  options: Type.Optional(Type.Array(Type.String())),
});

/** A form as the web app lists and edits it, with its count of leads. */
export const AppForm = Type.Object({
  id: Type.String(),
  name: Type.String(),
  token: Type.String({ description: 'The hosted page is /f/{token}' }),
  active: Type.Boolean(),
  fields: Type.Array(StoredField),
  thank_you_message: Type.Union([Type.String(), Type.Null()]),
  redirect_url: Type.Union([Type.String(), Type.Null()]),
  archived_at: Type.Union([Timestamp, Type.Null()], {
    description: 'Set while the form is archived (closed)',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
  leads: Type.Integer({ minimum: 0 }),
});

export const FormListResult = Type.Object({
  result: Type.Literal(true),
  forms: Type.Array(AppForm),
  field_types: Type.Array(Type.String()),
});

/** Publish & embed: the hosted link, the script tag and the plain HTML form. */
const Publish = Type.Object({ hosted_url: Type.String(), script: Type.String(), html: Type.String() });

export const FormResult = Type.Object({
  result: Type.Literal(true),
  form: AppForm,
  publish: Publish,
  field_types: Type.Array(Type.String()),
});

export const NewFormResult = Type.Object({
  result: Type.Literal(true),
  id: Type.String(),
  token: Type.String(),
});

const FieldBody = Type.Object(
  {
    name: NameText({ minLength: 1, maxLength: FIELD_LIMITS.formFieldName }),
    label: NameText({ minLength: 1, maxLength: FIELD_LIMITS.formFieldLabel }),
    type: Type.Unsafe<FormField['type']>({ type: 'string', enum: [...FIELD_TYPES] }),
    required: Type.Boolean(),
    options: Type.Optional(
      Type.Array(NameText({ minLength: 1, maxLength: FIELD_LIMITS.formOption }), { maxItems: 100 }),
    ),
  },
  { additionalProperties: false },
);
/** A form as the app and REST v1 create and edit it. */
export const FormBody = Type.Object(
  {
    name: Type.Optional(NameText({ minLength: 1, maxLength: FIELD_LIMITS.formName })),
    fields: Type.Optional(Type.Array(FieldBody, { minItems: 1, maxItems: 50 })),
    active: Type.Optional(Type.Boolean()),
    thank_you_message: Type.Optional(
      Type.Union([Text({ maxLength: FIELD_LIMITS.thankYouMessage }), Type.Null()]),
    ),
    redirect_url: Type.Optional(Type.Union([Text({ maxLength: FIELD_LIMITS.redirectUrl }), Type.Null()])),
  },
  { additionalProperties: false },
);
