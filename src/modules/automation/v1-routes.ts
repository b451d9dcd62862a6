import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { keyActor, recordAudit } from '../audit/record-audit.js';
import { registerV1ArchiveRoutes } from '../audit/v1-archive-routes.js';
import { answerWriter } from '../idempotency/outcome.js';
import { getApiAutomation, listApiAutomations } from './api-automations.js';
import { changeAutomation } from './change-automation.js';
import { getAutomation, intakeLinks } from './list-automations.js';
import { replaceSequenceSecret } from './rotate-secret.js';
import { createAutomation, type SavedAutomation, unpublishAutomation } from './save-automation.js';
import {
  ApiAutomationBody,
  ApiAutomationList,
  ApiAutomationPatch,
  ApiAutomationQuery,
  ApiAutomationResult,
  ApiSecretResult,
  NewApiAutomationResult,
} from './schemas.js';
import { automationExamples as ex } from './v1-examples.js';

const tags = ['automations'];
const NOT_FOUND = 'No automation with that id';

/** REST v1: flows and sequences from their definition JSON (docs/automation.md), as the app makes them. */
export function registerAutomationRoutes(app: RestApp): void {
  const { ctx } = app;

  const createdAnswer = (saved: SavedAutomation) => {
    // Only a webhook sequence is made with a secret.
    const link = saved.secret ? intakeLinks(ctx, saved.id, saved.secret) : null;
    return {
      status: 201 as const,
      body: {
        result: true as const,
        id: saved.id,
        kind: saved.kind,
        published: saved.published_version !== null,
        ...(link ? { webhook: link } : {}),
      },
    };
  };

  const found = async (workspaceId: string, id: string) => {
    const automation = await getApiAutomation(ctx, workspaceId, id);
    if (!automation) throw new ApiError('not_found', NOT_FOUND);
    return { result: true as const, automation };
  };

  app.post(
    '/automations',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Create a flow or a sequence from its definition',
        description:
          'The body is the definition of docs/automation.md (`name`, `trigger`, `steps` and its optional ' +
          'top-level fields) and `published`. The trigger decides the kind (the triggers table of ' +
          'docs/automation.md). Each problem of the definition is a 422 detail at its field. A ' +
          'sequence started by a webhook answers its intake URL and secret, once (the app shows them to the team).',
        operationId: 'createAutomation',
        tags,
        body: { ...ApiAutomationBody, examples: [ex.create] },
        response: {
          201: { ...NewApiAutomationResult, examples: [ex.created] },
          ...errorResponses(400, 401, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const principal = request.principal();
      const { published, ...definition } = request.body;
      const writer = answerWriter(request, createdAnswer);
      const saved = await createAutomation(ctx, principal.workspaceId, definition, {
        publish: published ?? false,
        within: async (tx, saved) => {
          const entry = {
            workspaceId: principal.workspaceId,
            actor: keyActor(principal),
            entityType: saved.kind,
            entityId: saved.id,
          };
          await recordAudit(tx, { ...entry, action: 'create' });
          if (saved.published_version !== null) await recordAudit(tx, { ...entry, action: 'publish' });
          await writer?.(tx, saved);
        },
      });
      const answer = createdAnswer(saved);
      return reply.code(answer.status).send(answer.body);
    },
  );

  app.get(
    '/automations',
    {
      schema: {
        summary: 'List flows and sequences, newest first',
        description:
          'Without `status`, archived ones are left out. Pages follow `next_cursor` (null on the last page): ' +
          'send it back as `cursor`.',
        operationId: 'listAutomations',
        tags,
        querystring: ApiAutomationQuery,
        response: { 200: { ...ApiAutomationList, examples: [ex.list] }, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      ...(await listApiAutomations(ctx.db, request.principal().workspaceId, request.query)),
    }),
  );

  app.get(
    '/automations/:id',
    {
      schema: {
        summary: 'A flow or sequence: its draft and published definitions, versions and run counts',
        operationId: 'getAutomation',
        tags,
        params: IdParams,
        response: {
          200: { ...ApiAutomationResult, examples: [ex.one] },
          ...errorResponses(401, 404, 422, 429),
        },
      },
    },
    async (request) => found(request.principal().workspaceId, request.params.id),
  );

  app.patch(
    '/automations/:id',
    {
      schema: {
        summary: 'Change the definition (a new version), publish or unpublish',
        description:
          'Definition fields given replace those of the latest version and make a new one, which new runs ' +
          'start on only once published; `published: true` publishes the latest version, `false` stops new ' +
          'runs (runs under way finish on their version). The same definition sent again makes no new ' +
          'version. A flow stays a flow and a sequence a sequence (422 at `trigger`). An archived one is a 409.',
        operationId: 'updateAutomation',
        tags,
        params: IdParams,
        body: { ...ApiAutomationPatch, examples: [ex.change] },
        response: {
          200: { ...ApiAutomationResult, examples: [ex.one] },
          ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request) => {
      const principal = request.principal();
      const { published, ...fields } = request.body;
      if (published === undefined && Object.keys(fields).length === 0)
        throw ApiError.invalid('body', 'Send what to change: name, trigger, steps or published.');
      await changeAutomation(
        ctx,
        principal.workspaceId,
        request.params.id,
        { fields, published },
        keyActor(principal),
      );
      return found(principal.workspaceId, request.params.id);
    },
  );

  registerV1ArchiveRoutes(app, {
    path: '/automations',
    tags,
    change: {
      table: 'automations',
      entityType: (row) => (row.kind === 'sequence' ? 'sequence' : 'flow'),
      notFound: NOT_FOUND,
      // Archiving unpublishes in the same transaction; restoring leaves it unpublished.
      also: (tx, c) => (c.archived ? unpublishAutomation(tx, c.workspaceId, c.id) : Promise.resolve()),
    },
    archive: {
      operationId: 'archiveAutomation',
      summary: 'Archive a flow or sequence',
      description:
        'It is unpublished and leaves the list (GET /automations?status=archived shows it); runs under way ' +
        'finish. Archiving again changes nothing. POST /automations/{id}/restore brings it back.',
    },
    restore: {
      operationId: 'restoreAutomation',
      summary: 'Restore an archived flow or sequence',
      description:
        'It comes back to the list unpublished, as the app restores it: nothing starts it until ' +
        'PATCH /automations/{id} with `published: true`. Restoring one that is not archived changes nothing. ' +
        'Answers it as GET /automations/{id} does.',
      response: { ...ApiAutomationResult, examples: [ex.one] },
    },
    answer: found,
  });

  app.post(
    '/automations/:id/rotate-secret',
    {
      schema: {
        summary: "Replace a webhook sequence's secret",
        operationId: 'rotateAutomationSecret',
        description:
          'A new secret for a sequence started by a webhook, as the app\'s "Rotate secret": the old one stops ' +
          'working at once. The new secret and intake URL are answered here once (the app shows them to the ' +
          'team); the audit log records that the secret changed, never the secret. A flow, or a sequence not ' +
          'started by a webhook, has no secret: 409.',
        tags,
        params: IdParams,
        response: {
          200: { ...ApiSecretResult, examples: [ex.secret] },
          ...errorResponses(401, 404, 409, 422, 429),
        },
      },
    },
    async (request) => {
      const principal = request.principal();
      const automation = await getAutomation(ctx, principal.workspaceId, request.params.id);
      if (!automation) throw new ApiError('not_found', NOT_FOUND);
      const secret = await replaceSequenceSecret(ctx, principal.workspaceId, automation, keyActor(principal));
      return { result: true as const, webhook: intakeLinks(ctx, automation.id, secret) };
    },
  );
}
