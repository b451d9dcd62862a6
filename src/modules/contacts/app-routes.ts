import { Type } from 'typebox';
import type { RestApp } from '../../http/rest-app.js';
import { Text } from '../../http/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { queueDeliveries } from '../webhooks/emit.js';
import { appContactCsvRoutes } from './csv/app-routes.js';
import { getContact } from './get-contact.js';
import { listContacts } from './list-contacts.js';
import { setConsent } from './set-consent.js';
import { timelineOf } from './timeline.js';

const ListQuery = Type.Object({
  q: Type.Optional(Text({ maxLength: 200 })),
  tag: Type.Optional(Text({ maxLength: 64 })),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
});

/** Contacts: search by phone, name or e-mail, filter by tag, and one contact with its timeline. */
export function registerAppContactRoutes(app: RestApp): void {
  const { ctx } = app;
  app.register(appContactCsvRoutes);

  app.get('/contacts', { schema: { querystring: ListQuery } }, async (request) => {
    const { q, tag, limit, offset } = request.query;
    const options = { limit, offset, newestFirst: true, search: q, tag };
    const page = await listContacts(ctx.db, request.session().workspaceId, options);
    return { result: true, contacts: page.contacts, has_next_page: page.hasNextPage, limit, offset };
  });

  app.get('/contacts/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    return {
      result: true,
      contact: await getContact(ctx.db, s.workspaceId, request.params.id),
      timeline: await timelineOf(ctx.db, s.workspaceId, request.params.id),
    };
  });

  // Any teammate may record that a customer asked to stop (or to start again), say on a call.
  app.put(
    '/contacts/:id/opt-out',
    {
      schema: {
        params: IdParams,
        body: Type.Object({ opted_out: Type.Boolean() }, { additionalProperties: false }),
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
      return { result: true, contact: await getContact(ctx.db, s.workspaceId, request.params.id) };
    },
  );
}
