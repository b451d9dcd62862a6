import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { IdParams } from '../accounts/schemas.js';
import { registerArchiveRoutes } from '../audit/archive-routes.js';
import { audited, changedFields, userActor } from '../audit/record-audit.js';
import { createForm } from './create-form.js';
import { embedSnippets } from './embed-snippets.js';
import { FIELD_TYPES } from './form-fields.js';
import { getForm } from './get-form.js';
import { listForms } from './list-forms.js';
import { FormBody, FormListResult, FormResult, NewFormResult } from './schemas.js';
import { formChanges, updateForm } from './update-form.js';

const ListQuery = Type.Object({ archived: Type.Boolean({ default: false }) });

/** Forms: list, create, the field editor and active toggle, Publish & embed, archive and restore. */
export function registerAppFormRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get(
    '/forms',
    { schema: { querystring: ListQuery, response: { 200: FormListResult } } },
    async (request) => ({
      result: true as const,
      forms: await listForms(ctx.db, request.session().workspaceId, request.query.archived),
      field_types: [...FIELD_TYPES],
    }),
  );

  // A form made in the app starts as a draft: its page and submissions open once it is switched on.
  app.post(
    '/forms',
    { schema: { body: FormBody, response: { 201: NewFormResult } } },
    async (request, reply) => {
      const s = request.session();
      const b = request.body;
      const form = await audited(
        ctx.db,
        (tx) =>
          createForm(tx, s.workspaceId, {
            ...(b.name === undefined ? {} : { name: b.name }),
            ...(b.fields === undefined ? {} : { fields: b.fields }),
            active: b.active ?? false,
            thankYouMessage: b.thank_you_message ?? null,
            redirectUrl: b.redirect_url ?? null,
          }),
        (created) => ({
          workspaceId: s.workspaceId,
          actor: userActor(s),
          action: 'create',
          entityType: 'form',
          entityId: created.id,
        }),
      );
      return reply.code(201).send({ result: true as const, ...form });
    },
  );

  registerArchiveRoutes(
    app,
    '/forms',
    { table: 'forms', entityType: 'form', notFound: 'No form with that id' },
    true,
  );

  app.get('/forms/:id', { schema: { params: IdParams, response: { 200: FormResult } } }, async (request) => {
    const s = request.session();
    const form = await getForm(ctx.db, s.workspaceId, request.params.id);
    const codes = await embedSnippets(ctx.db, ctx.config.appUrl, s.workspaceId, request.params.id);
    if (!codes) throw new ApiError('not_found', 'No form with that id');
    return { result: true as const, form, publish: codes, field_types: [...FIELD_TYPES] };
  });

  app.patch('/forms/:id', { schema: { params: IdParams, body: FormBody } }, async (request) => {
    const s = request.session();
    const b = request.body;
    const changes = formChanges(b);
    await audited(
      ctx.db,
      (tx) => updateForm(tx, s.workspaceId, request.params.id, changes),
      () => ({
        workspaceId: s.workspaceId,
        actor: userActor(s),
        action: 'update',
        entityType: 'form',
        entityId: request.params.id,
        changes: { ...changedFields(b), ...(b.active === undefined ? {} : { active: b.active }) },
      }),
    );
    return { result: true };
  });
}
