import { Type } from 'typebox';
import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { Text } from '../../http/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';
import { IdParams } from '../accounts/schemas.js';
import { checkRedirectUrl, createForm } from './create-form.js';
import { embedSnippets } from './embed-snippets.js';
import { checkFields, FIELD_TYPES, type FormField } from './form-fields.js';
import { getForm } from './get-form.js';
import { listForms } from './list-forms.js';
import { updateForm } from './update-form.js';

const FieldBody = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: FIELD_LIMITS.formFieldName }),
    label: Text({ minLength: 1, maxLength: FIELD_LIMITS.formFieldLabel }),
    type: Type.Unsafe<FormField['type']>({ type: 'string', enum: [...FIELD_TYPES] }),
    required: Type.Boolean(),
    options: Type.Optional(
      Type.Array(Text({ minLength: 1, maxLength: FIELD_LIMITS.formOption }), { maxItems: 100 }),
    ),
  },
  { additionalProperties: false },
);
const FormBody = Type.Object(
  {
    name: Type.Optional(Text({ minLength: 1, maxLength: FIELD_LIMITS.formName })),
    fields: Type.Optional(Type.Array(FieldBody, { minItems: 1, maxItems: 50 })),
    active: Type.Optional(Type.Boolean()),
    thank_you_message: Type.Optional(
      Type.Union([Text({ maxLength: FIELD_LIMITS.thankYouMessage }), Type.Null()]),
    ),
    redirect_url: Type.Optional(Type.Union([Text({ maxLength: FIELD_LIMITS.redirectUrl }), Type.Null()])),
  },
  { additionalProperties: false },
);

/** Forms: list, create, the field editor and active toggle, Publish & embed. */
export function registerAppFormRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/forms', async (request) => ({
    result: true,
    forms: await listForms(ctx.db, request.session().workspaceId),
    field_types: FIELD_TYPES,
  }));

  app.post('/forms', { schema: { body: FormBody } }, async (request, reply) => {
    const s = request.session();
    const b = request.body;
    const form = await createForm(ctx.db, s.workspaceId, {
      ...(b.name === undefined ? {} : { name: b.name }),
      ...(b.fields === undefined ? {} : { fields: b.fields }),
      ...(b.active === undefined ? {} : { active: b.active }),
      thankYouMessage: b.thank_you_message ?? null,
      redirectUrl: b.redirect_url ?? null,
    });
    return reply.code(201).send({ result: true, ...form });
  });

  app.get('/forms/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    const form = await getForm(ctx.db, s.workspaceId, request.params.id);
    const codes = await embedSnippets(ctx.db, ctx.config.appUrl, s.workspaceId, request.params.id);
    return { result: true, form, publish: codes, field_types: FIELD_TYPES };
  });

  app.patch('/forms/:id', { schema: { params: IdParams, body: FormBody } }, async (request) => {
    const s = request.session();
    const b = request.body;
    const fields = b.fields === undefined ? null : checkFields(b.fields as FormField[]);
    const name = b.name?.trim();
    if (name === '') throw ApiError.invalid('name', 'Enter a name.');
    const redirect =
      b.redirect_url === undefined ? undefined : b.redirect_url ? checkRedirectUrl(b.redirect_url) : null;
    const thankYou = b.thank_you_message === undefined ? undefined : b.thank_you_message?.trim() || null;
    await updateForm(ctx.db, s.workspaceId, request.params.id, {
      name: name ?? null,
      fields,
      active: b.active ?? null,
      thankYouMessage: thankYou,
      redirectUrl: redirect,
    });
    return { result: true };
  });
}
