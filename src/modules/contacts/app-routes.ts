import { Type } from 'typebox';
import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { Text } from '../../http/schema.js';
import { IdParams } from '../accounts/schemas.js';
import { timelineOf } from './timeline.js';

const ListQuery = Type.Object({
  q: Type.Optional(Text({ maxLength: 200 })),
  tag: Type.Optional(Text({ maxLength: 64 })),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
});

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Contacts: search by phone, name or e-mail, filter by tag, and one contact with its timeline. */
export function registerAppContactRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/contacts', { schema: { querystring: ListQuery } }, async (request) => {
    const s = request.session();
    const { q, tag, limit, offset } = request.query;
    const search = q?.trim() ? likePattern(q.trim()) : null;
    const digits = q?.replace(/\D/g, '') ? likePattern(q.replace(/\D/g, '')) : null;
    const { rows } = await ctx.db.query<Record<string, unknown>>(
      `SELECT id, phone, name, email, tags, traits, created_at, updated_at, last_inbound_at FROM contacts
       WHERE workspace_id = $1
         AND ($2::text IS NULL OR name ILIKE $2 OR email ILIKE $2 OR ($3::text IS NOT NULL AND phone LIKE $3))
         AND ($4::text IS NULL OR $4 = ANY (tags))
       ORDER BY created_at DESC, id DESC LIMIT $5 OFFSET $6`,
      [s.workspaceId, search, digits, tag ?? null, limit + 1, offset],
    );
    return {
      result: true,
      contacts: rows.slice(0, limit),
      has_next_page: rows.length > limit,
      limit,
      offset,
    };
  });

  app.get('/contacts/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    const { rows } = await ctx.db.query(
      `SELECT id, phone, name, email, tags, traits, created_at, updated_at, last_inbound_at FROM contacts
       WHERE workspace_id = $1 AND id = $2`,
      [s.workspaceId, request.params.id],
    );
    if (!rows[0]) throw new ApiError('not_found', 'No contact with that id');
    return {
      result: true,
      contact: rows[0],
      timeline: await timelineOf(ctx.db, s.workspaceId, request.params.id),
    };
  });
}
