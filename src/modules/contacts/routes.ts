import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { answerWriter } from '../idempotency/outcome.js';
import { queueDeliveries } from '../webhooks/emit.js';
import { contactCsvRoutes } from './csv/routes.js';
import { listContacts } from './list-contacts.js';
import { ContactListQuery, ContactListResult, ContactUpsertBody, ContactUpsertResult } from './schemas.js';
import { type UpsertResult, upsertContact } from './upsert-contact.js';

const upsertAnswer = ({ id, created }: UpsertResult) => ({
  status: created ? (201 as const) : (200 as const),
  body: { result: true as const, id, created },
});

export function registerContactRoutes(app: RestApp): void {
  // Its own scope: only these routes read CSV bodies.
  app.register(contactCsvRoutes);
  app.post(
    '/contacts',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Create or update a contact by phone',
        description:
          'Tags are only added; traits are shallow-merged; name and email change only when given. ' +
          'Extension: `opted_out` opts the contact out of marketing templates (true) or back in (false).',
        tags: ['contacts'],
        body: ContactUpsertBody,
        response: {
          200: ContactUpsertResult,
          201: ContactUpsertResult,
          ...errorResponses(400, 401, 402, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const principal = request.principal();
      const upserted = await upsertContact(
        app.ctx.db,
        principal,
        request.body,
        { type: 'api_key', id: principal.keyId },
        answerWriter(request, upsertAnswer),
      );
      await queueDeliveries(app.ctx, principal.workspaceId, upserted.deliveries ?? []);
      const answer = upsertAnswer(upserted);
      return reply.code(answer.status).send(answer.body);
    },
  );

  app.get(
    '/contacts',
    {
      schema: {
        summary: 'List contacts, oldest first',
        tags: ['contacts'],
        querystring: ContactListQuery,
        response: { 200: ContactListResult, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const { limit, offset } = request.query;
      const page = await listContacts(app.ctx.db, request.principal().workspaceId, { limit, offset });
      return {
        result: true as const,
        contacts: page.contacts,
        limit,
        offset,
        has_next_page: page.hasNextPage,
      };
    },
  );
}
