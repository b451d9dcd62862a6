import { Type } from 'typebox';
import type { RestApp } from '../../api/rest-app.js';
import { Done, Text } from '../../api/schema.js';
import { requireManager } from '../accounts/roles.js';
import { IdParams } from '../accounts/schemas.js';
import { userActor } from '../audit/record-audit.js';
import { queueDeliveries } from '../webhooks/emit.js';
import { createContact } from './create-contact.js';
import { appContactCsvRoutes } from './csv/app-routes.js';
import { deleteContact } from './delete-contact.js';
import { editContact } from './edit-contact.js';
import { getContact } from './get-contact.js';
import { listAppContacts } from './list-contacts.js';
import { listTags } from './list-tags.js';
import {
  AppContactDetail,
  AppContactList,
  AppContactResult,
  ContactEditBody,
  ContactUpsertBody,
  TagListResult,
} from './schemas.js';
import { setConsent } from './set-consent.js';
import { timelineOf } from './timeline.js';

const ListQuery = Type.Object({
  q: Type.Optional(Text({ maxLength: 200 })),
  tag: Type.Optional(Text({ maxLength: 64 })),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
});

/**
 * Contacts: search by phone, name or e-mail, filter by tag, one contact with its timeline; any
 * teammate adds and edits them, owners and admins delete (erase) them.
 */
export function registerAppContactRoutes(app: RestApp): void {
  const { ctx } = app;
  app.register(appContactCsvRoutes);

  app.get(
    '/contacts',
    { schema: { querystring: ListQuery, response: { 200: AppContactList } } },
    async (request) => {
      const { q, tag, limit, offset } = request.query;
      const options = { limit, offset, newestFirst: true, search: q, tag };
      const page = await listAppContacts(ctx.db, request.session().workspaceId, options);
      return {
        result: true as const,
        contacts: page.contacts,
        has_next_page: page.hasNextPage,
        limit,
        offset,
      };
    },
  );

  app.get('/contacts/tags', { schema: { response: { 200: TagListResult } } }, async (request) => ({
    result: true as const,
    tags: await listTags(ctx.db, request.session().workspaceId),
  }));

  app.post(
    '/contacts',
    { schema: { body: ContactUpsertBody, response: { 201: AppContactResult } } },
    async (request, reply) => {
      const s = request.session();
      const created = await createContact(ctx.db, s, request.body, userActor(s));
      await queueDeliveries(ctx, s.workspaceId, created.deliveries ?? []);
      return reply
        .code(201)
        .send({ result: true as const, contact: await getContact(ctx.db, s.workspaceId, created.id) });
    },
  );

  app.patch(
    '/contacts/:id',
    { schema: { params: IdParams, body: ContactEditBody, response: { 200: AppContactResult } } },
    async (request) => {
      const s = request.session();
      await editContact(ctx.db, s.workspaceId, request.params.id, request.body, userActor(s));
      return { result: true as const, contact: await getContact(ctx.db, s.workspaceId, request.params.id) };
    },
  );

  app.delete('/contacts/:id', { schema: { params: IdParams, response: { 200: Done } } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    const files = await deleteContact(ctx.db, s.workspaceId, request.params.id, userActor(s));
    // After the commit: a file left behind by a failing store is unreachable, its row gone.
    for (const key of files)
      await ctx.media.delete(key).catch((err: unknown) => request.log.warn({ err }, 'media not deleted'));
    return { result: true as const };
  });

  app.get(
    '/contacts/:id',
    { schema: { params: IdParams, response: { 200: AppContactDetail } } },
    async (request) => {
      const s = request.session();
      return {
        result: true as const,
        contact: await getContact(ctx.db, s.workspaceId, request.params.id),
        timeline: await timelineOf(ctx.db, s.workspaceId, request.params.id),
      };
    },
  );

  // Any teammate may record that a customer asked to stop (or to start again), say on a call.
  app.put(
    '/contacts/:id/opt-out',
    {
      schema: {
        params: IdParams,
        body: Type.Object({ opted_out: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: AppContactResult },
      },
    },
    async (request) => {
      const s = request.session();
      await getContact(ctx.db, s.workspaceId, request.params.id);
      const change = await ctx.db.transaction((tx) =>
        setConsent(tx, s.workspaceId, request.params.id, request.body.opted_out, {
          source: 'app',
          userId: s.userId,
        }),
      );
      await queueDeliveries(ctx, s.workspaceId, change?.deliveries ?? []);
      return { result: true as const, contact: await getContact(ctx.db, s.workspaceId, request.params.id) };
    },
  );
}
