import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import { decodeCursor } from '../../api/page-cursor.js';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { keyActor } from '../audit/record-audit.js';
import { answerWriter } from '../idempotency/outcome.js';
import { queueDeliveries } from '../webhooks/emit.js';
import { changeContact } from './change-contact.js';
import { contactCsvRoutes } from './csv/routes.js';
import { deleteContact } from './delete-contact.js';
import { getContact } from './get-contact.js';
import { listContacts } from './list-contacts.js';
import { listTags } from './list-tags.js';
import {
  type Contact,
  ContactListQuery,
  ContactListResult,
  ContactPatchBody,
  ContactResult,
  ContactUpsertBody,
  ContactUpsertResult,
  TagListResult,
  TimelinePage,
  TimelineQuery,
} from './schemas.js';
import { timelinePage } from './timeline.js';
import { contactPhone, type UpsertResult, upsertContact } from './upsert-contact.js';

const tags = ['contacts'];

const upsertAnswer = ({ id, created }: UpsertResult) => ({
  status: created ? (201 as const) : (200 as const),
  body: { result: true as const, id, created },
});

/** One contact as REST v1 shows it: the app's contact without when it last wrote. */
async function oneContact(app: RestApp, workspaceId: string, id: string) {
  const { last_inbound_at: _, ...contact } = await getContact(app.ctx.db, workspaceId, id);
  return { result: true as const, contact: contact satisfies Contact };
}

export function registerContactRoutes(app: RestApp): void {
  const { ctx } = app;
  // Its own scope: only these routes read CSV bodies.
  app.register(contactCsvRoutes);
  app.post(
    '/contacts',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'upsertContact',
        summary: 'Create or update a contact by phone',
        description:
          'Tags are only added; traits are shallow-merged; name and email change only when given. ' +
          'Extension: `opted_out` opts the contact out of marketing templates (true) or back in (false).',
        tags,
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
        ctx.db,
        principal,
        request.body,
        keyActor(principal),
        answerWriter(request, upsertAnswer),
      );
      await queueDeliveries(ctx, principal.workspaceId, upserted.deliveries ?? []);
      const answer = upsertAnswer(upserted);
      return reply.code(answer.status).send(answer.body);
    },
  );

  app.get(
    '/contacts',
    {
      schema: {
        operationId: 'listContacts',
        summary: 'List contacts, oldest first',
        description:
          'Pages by `limit` and `offset`, or by `cursor`: send back the `next_cursor` of the page before ' +
          '(null on the last page); a cursor visits every contact once while new ones arrive (they come last). ' +
          'Not both `offset` and `cursor` (422); with `cursor` the answer says `offset: 0`. `phone` finds ' +
          "the contact with that phone, normalised as POST /contacts does (the workspace's default country " +
          'code for a national number): 0 or 1 result.',
        tags,
        querystring: ContactListQuery,
        response: { 200: ContactListResult, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const principal = request.principal();
      const { limit, offset, cursor } = request.query;
      if (offset !== undefined && cursor !== undefined)
        throw ApiError.invalid('cursor', 'Send either offset or cursor, not both.');
      const phone =
        request.query.phone === undefined
          ? undefined
          : contactPhone(request.query.phone, principal.defaultCountryCode);
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      const page = await listContacts(ctx.db, principal.workspaceId, { limit, offset, phone, after });
      return {
        result: true as const,
        contacts: page.contacts,
        limit,
        offset: offset ?? 0,
        has_next_page: page.hasNextPage,
        next_cursor: page.nextCursor,
      };
    },
  );

  app.get(
    '/contacts/tags',
    {
      schema: {
        operationId: 'listContactTags',
        summary: "The workspace's tags with how many contacts carry each",
        description: 'By name, at most 1,000: what a broadcast audience picks from.',
        tags,
        response: { 200: TagListResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      tags: await listTags(ctx.db, request.principal().workspaceId),
    }),
  );

  app.get(
    '/contacts/:id',
    {
      schema: {
        operationId: 'getContact',
        summary: 'One contact',
        description: "As GET /contacts lists it. Another workspace's contact, or an erased one, is a 404.",
        tags,
        params: IdParams,
        response: { 200: ContactResult, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => oneContact(app, request.principal().workspaceId, request.params.id),
  );

  app.patch(
    '/contacts/:id',
    {
      schema: {
        operationId: 'updateContact',
        summary: "Change a contact's name, e-mail, tags, traits or consent",
        description:
          'Only the fields given change. `name` or `email` null clears it. `tags.add` appends tags the contact ' +
          'lacks, `tags.remove` takes tags away (a tag in both is removed). `traits` are merged; a trait given ' +
          'null is removed. `opted_out` opts the contact out of marketing templates (true) or back in (false), ' +
          'recorded as through the REST API with the `contact.opted_out`/`contact.opted_in` webhook event. ' +
          'The phone never changes (POST /contacts with another phone is another contact). Answers the contact.',
        tags,
        params: IdParams,
        body: ContactPatchBody,
        response: { 200: ContactResult, ...errorResponses(400, 401, 404, 413, 415, 422, 429) },
      },
    },
    async (request) => {
      const principal = request.principal();
      const { id } = request.params;
      const deliveries = await changeContact(
        ctx.db,
        principal.workspaceId,
        id,
        request.body,
        keyActor(principal),
      );
      await queueDeliveries(ctx, principal.workspaceId, deliveries);
      return oneContact(app, principal.workspaceId, id);
    },
  );

  app.delete(
    '/contacts/:id',
    {
      schema: {
        operationId: 'deleteContact',
        summary: 'Erase a contact (a privacy request)',
        description:
          "As the app's delete: the contact, its consent records and its received files go; its messages keep " +
          'their direction, type, template and status without phone or content; its leads keep source, status ' +
          'and dates without name, e-mail, phone or fields; its runs and events lose their data, and its ' +
          'running and waiting runs stop. Cannot be undone; a second delete is a 404.',
        tags,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Erased' }), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const principal = request.principal();
      const files = await deleteContact(
        ctx.db,
        principal.workspaceId,
        request.params.id,
        keyActor(principal),
      );
      // After the commit: a file left behind by a failing store is unreachable, its row gone.
      for (const key of files)
        await ctx.media.delete(key).catch((err: unknown) => request.log.warn({ err }, 'media not deleted'));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/contacts/:id/timeline',
    {
      schema: {
        operationId: 'getContactTimeline',
        summary: "A contact's history, newest first",
        description:
          'Its messages, events, leads, consent changes and the flows and sequences run for it, as the app ' +
          "shows them on the contact's page. Pages follow `next_cursor` (null on the last page): send it back " +
          'as `cursor`.',
        tags,
        params: IdParams,
        querystring: TimelineQuery,
        response: { 200: TimelinePage, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      await getContact(ctx.db, workspaceId, request.params.id);
      return {
        result: true as const,
        ...(await timelinePage(ctx.db, workspaceId, request.params.id, request.query)),
      };
    },
  );
}
