import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import type { Queryable } from '../../db/db.js';
import { IdParams } from '../accounts/schemas.js';
import { audited, changedFields, keyActor } from '../audit/record-audit.js';
import { registerV1ArchiveRoutes } from '../audit/v1-archive-routes.js';
import { answerWriter } from '../idempotency/outcome.js';
import { ApiFormList, ApiFormPatch, ApiFormQuery, ApiFormResult, ApiNewForm } from './api-schemas.js';
import { createForm } from './create-form.js';
import { embedSnippets } from './embed-snippets.js';
import { getForm } from './get-form.js';
import { listFormPage } from './list-forms.js';
import { formChanges, updateForm } from './update-form.js';

const tags = ['forms'];
const NOT_FOUND = 'No form with that id';

/** REST v1: the forms the app builds, with their hosted page and embed snippets; publish, edit, archive, restore. */
export function registerFormRoutes(app: RestApp): void {
  const { ctx } = app;

  /** The form and how to embed it, read with `q` (inside a write's transaction, or not). */
  const withEmbed = async (q: Queryable, workspaceId: string, id: string) => {
    const form = await getForm(q, workspaceId, id);
    const embed = await embedSnippets(q, ctx.config.appUrl, workspaceId, id);
    if (!embed) throw new ApiError('not_found', NOT_FOUND);
    return { result: true as const, form, embed };
  };

  app.get(
    '/forms',
    {
      schema: {
        operationId: 'listForms',
        summary: 'List forms, newest first, with their count of leads',
        description:
          'Archived forms are left out. Pages follow `next_cursor` (null on the last page): send it back as `cursor`.',
        tags,
        querystring: ApiFormQuery,
        response: { 200: ApiFormList, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      ...(await listFormPage(ctx.db, request.principal().workspaceId, request.query)),
    }),
  );

  app.get(
    '/forms/:id',
    {
      schema: {
        operationId: 'getForm',
        summary: 'A form with its hosted page URL and embed snippets',
        description:
          '`embed.hosted_url` is its own page, `embed.script` renders it on any site, `embed.html` is a plain ' +
          'HTML form. They take submissions while the form is `active` and not archived.',
        tags,
        params: IdParams,
        response: { 200: ApiFormResult, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => withEmbed(ctx.db, request.principal().workspaceId, request.params.id),
  );

  const createdAnswer = (answer: Awaited<ReturnType<typeof withEmbed>>) => ({ status: 201, body: answer });

  app.post(
    '/forms',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'createForm',
        summary: 'Create a form',
        description:
          'Without `fields` it asks for name, e-mail and phone. A form starts as a draft, as in the app: ' +
          '`active: true` publishes it at once (its page and embeds take submissions). Field names are unique; ' +
          'a `select` needs `options`; `redirect_url` is an absolute http(s) address.',
        tags,
        body: ApiNewForm,
        response: { 201: ApiFormResult, ...errorResponses(400, 401, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const principal = request.principal();
      const b = request.body;
      const writer = answerWriter(request, createdAnswer);
      const answer = await audited(
        ctx.db,
        async (tx) => {
          const { id } = await createForm(tx, principal.workspaceId, {
            ...(b.name === undefined ? {} : { name: b.name }),
            ...(b.fields === undefined ? {} : { fields: b.fields }),
            active: b.active ?? false,
            thankYouMessage: b.thank_you_message ?? null,
            redirectUrl: b.redirect_url ?? null,
          });
          const answer = await withEmbed(tx, principal.workspaceId, id);
          await writer?.(tx, answer);
          return answer;
        },
        (created) => ({
          workspaceId: principal.workspaceId,
          actor: keyActor(principal),
          action: 'create',
          entityType: 'form',
          entityId: created.form.id,
        }),
      );
      return reply.code(201).send(answer);
    },
  );

  app.patch(
    '/forms/:id',
    {
      schema: {
        operationId: 'updateForm',
        summary: 'Edit a form, or publish and unpublish it',
        description:
          "Fields given replace the form's; `fields` replaces the whole list. `active: true` publishes the form " +
          '(its page and embeds take submissions), `false` unpublishes it (they answer that it is closed). ' +
          '`thank_you_message` or `redirect_url` null clears it. Leads already taken keep their fields. ' +
          'Answers the form as it now stands.',
        tags,
        params: IdParams,
        body: ApiFormPatch,
        response: { 200: ApiFormResult, ...errorResponses(400, 401, 404, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      const principal = request.principal();
      const { id } = request.params;
      const b = request.body;
      const changes = formChanges(b);
      await audited(
        ctx.db,
        (tx) => updateForm(tx, principal.workspaceId, id, changes),
        () => ({
          workspaceId: principal.workspaceId,
          actor: keyActor(principal),
          action: 'update',
          entityType: 'form',
          entityId: id,
          changes: { ...changedFields(b), ...(b.active === undefined ? {} : { active: b.active }) },
        }),
      );
      return withEmbed(ctx.db, principal.workspaceId, id);
    },
  );

  registerV1ArchiveRoutes(app, {
    path: '/forms',
    tags,
    change: { table: 'forms', entityType: 'form', notFound: NOT_FOUND },
    archive: {
      operationId: 'deleteForm',
      summary: 'Archive a form',
      description:
        'The form leaves the list and its page and embeds stop taking submissions; its leads stay. ' +
        'Archiving again changes nothing (204). POST /forms/{id}/restore brings it back.',
    },
    restore: {
      operationId: 'restoreForm',
      summary: 'Restore an archived form',
      description:
        'The form comes back to the list as it was: its page and embeds take submissions again if it is ' +
        'active (PATCH `active` to change that). Restoring one that is not archived changes nothing. ' +
        'Answers the form as GET /forms/{id} does.',
      response: ApiFormResult,
    },
    answer: (workspaceId, id) => withEmbed(ctx.db, workspaceId, id),
  });
}
