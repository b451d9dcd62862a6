import { Type } from 'typebox';
import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { Text } from '../../http/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { checkRedirectUrl, createForm } from './create-form.js';
import { checkFields, FIELD_TYPES, type FormField } from './form-fields.js';
import { publishCodes } from './publish-codes.js';

const FieldBody = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 64 }),
    label: Text({ minLength: 1, maxLength: 200 }),
    type: Type.Unsafe<FormField['type']>({ type: 'string', enum: [...FIELD_TYPES] }),
    required: Type.Boolean(),
    options: Type.Optional(Type.Array(Text({ minLength: 1, maxLength: 200 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);
const FormBody = Type.Object(
  {
    name: Type.Optional(Text({ minLength: 1, maxLength: 200 })),
    fields: Type.Optional(Type.Array(FieldBody, { minItems: 1, maxItems: 50 })),
    active: Type.Optional(Type.Boolean()),
    thank_you_message: Type.Optional(Type.Union([Text({ maxLength: 1000 }), Type.Null()])),
    redirect_url: Type.Optional(Type.Union([Text({ maxLength: 2000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

const COLUMNS = `f.id, f.name, f.token, f.active, f.fields, f.thank_you_message, f.redirect_url, f.created_at, f.updated_at,
  (SELECT count(*)::int FROM leads l WHERE l.workspace_id = f.workspace_id AND l.source = 'form' AND l.source_id = f.id) AS leads`;

/** Forms: list, create, the field editor and active toggle, Publish & embed. */
export function registerAppFormRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/forms', async (request) => {
    const { rows } = await ctx.db.query(
      `SELECT ${COLUMNS} FROM forms f WHERE f.workspace_id = $1 ORDER BY f.created_at DESC, f.id`,
      [request.session().workspaceId],
    );
    return { result: true, forms: rows, field_types: FIELD_TYPES };
  });

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
    const { rows } = await ctx.db.query(
      `SELECT ${COLUMNS} FROM forms f WHERE f.workspace_id = $1 AND f.id = $2`,
      [s.workspaceId, request.params.id],
    );
    if (!rows[0]) throw new ApiError('not_found', 'No form with that id');
    const codes = await publishCodes(ctx.db, ctx.config.appUrl, s.workspaceId, request.params.id);
    return { result: true, form: rows[0], publish: codes, field_types: FIELD_TYPES };
  });

  app.patch('/forms/:id', { schema: { params: IdParams, body: FormBody } }, async (request) => {
    const s = request.session();
    const b = request.body;
    const fields = b.fields === undefined ? null : checkFields(b.fields as FormField[]);
    const name = b.name?.trim();
    if (name === '') throw ApiError.validation('name', 'must not be blank');
    const redirect =
      b.redirect_url === undefined ? undefined : b.redirect_url ? checkRedirectUrl(b.redirect_url) : null;
    const thankYou = b.thank_you_message === undefined ? undefined : b.thank_you_message?.trim() || null;
    const { rows } = await ctx.db.query(
      `UPDATE forms SET name = COALESCE($3, name), fields = COALESCE($4::jsonb, fields), active = COALESCE($5, active),
         thank_you_message = CASE WHEN $6 THEN $7 ELSE thank_you_message END,
         redirect_url = CASE WHEN $8 THEN $9 ELSE redirect_url END, updated_at = now()
       WHERE workspace_id = $1 AND id = $2 RETURNING id`,
      [
        s.workspaceId,
        request.params.id,
        name ?? null,
        fields ? JSON.stringify(fields) : null,
        b.active ?? null,
        thankYou !== undefined,
        thankYou ?? null,
        redirect !== undefined,
        redirect ?? null,
      ],
    );
    if (!rows[0]) throw new ApiError('not_found', 'No form with that id');
    return { result: true };
  });
}
