import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { graphError } from './graph-error.js';
import { componentsOf, type SimState, type SimTemplate } from './state.js';
import { type CreateTemplateBody, reviewTemplate } from './template-review.js';
import { handleIssuedTo, unknownHandle } from './uploads.js';
import { deliver, templateStatusPayload } from './webhooks.js';

const CATEGORIES = new Set(['MARKETING', 'UTILITY', 'AUTHENTICATION']);
// The Graph API's page size when the request names none.
const DEFAULT_LIMIT = 25;

// Cursors are opaque to the client; here, the template id in base64 (as the Graph API's look).
const toCursor = (id: string) => Buffer.from(id).toString('base64url');
const fromCursor = (cursor: string) => Buffer.from(cursor, 'base64url').toString();

/** A template id as Meta gives it: a numeric string. */
export const templateId = () => String(randomInt(1e12, 9e12));

/**
 * Message templates of a WhatsApp Business account: list, create and delete (Graph API), and the control
 * endpoint that approves or rejects one, telling the account's numbers by a signed
 * `message_template_status_update` webhook as Meta does.
 */
export function templateRoutes(app: FastifyInstance, state: SimState): void {
  app.get<{
    Params: { version: string; wabaId: string };
    Querystring: Record<string, string | undefined>;
  }>('/:version/:wabaId/message_templates', { config: { graph: true } }, async (request, reply) => {
    const all = state.templates.get(request.params.wabaId) ?? [];
    const { limit: asked, after, before } = request.query;
    const limit = asked === undefined ? DEFAULT_LIMIT : Number(asked);
    if (!Number.isInteger(limit) || limit < 1)
      return graphError(reply, 400, 100, 'limit must be a positive integer');
    const at = (cursor: string) => all.findIndex((t) => t.id === fromCursor(cursor));
    let start = 0;
    let end = Math.min(all.length, limit);
    if (after !== undefined || before !== undefined) {
      const i = at(after ?? before!);
      if (i < 0) return graphError(reply, 400, 100, 'Invalid cursor');
      [start, end] =
        after !== undefined ? [i + 1, Math.min(all.length, i + 1 + limit)] : [Math.max(0, i - limit), i];
    }
    const page = all.slice(start, end);
    const data = page.map((t) => ({
      id: t.id,
      name: t.name,
      language: t.language,
      status: t.status,
      category: t.category,
      components: componentsOf(t),
      parameter_format: t.parameterFormat ?? 'POSITIONAL',
      quality_score: { score: 'UNKNOWN' },
      rejected_reason: t.status === 'REJECTED' ? 'INCORRECT_CATEGORY' : 'NONE',
    }));
    if (page.length === 0) return { data, paging: {} };
    // The Graph API's cursor paging: cursors to both ends of the page, and the URL of the next
    // (previous) page only when there is one, keeping the request's other parameters.
    const link = (key: 'after' | 'before', cursor: string) => {
      const url = new URL(request.url, `${request.protocol}://${request.host}`);
      url.searchParams.delete('after');
      url.searchParams.delete('before');
      url.searchParams.set('limit', String(limit));
      url.searchParams.set(key, cursor);
      return url.toString();
    };
    const cursors = { before: toCursor(page[0]!.id), after: toCursor(page.at(-1)!.id) };
    return {
      data,
      paging: {
        cursors,
        ...(start > 0 ? { previous: link('before', cursors.before) } : {}),
        ...(end < all.length ? { next: link('after', cursors.after) } : {}),
      },
    };
  });

  app.post<{ Params: { version: string; wabaId: string }; Body: CreateTemplateBody }>(
    '/:version/:wabaId/message_templates',
    { config: { graph: true } },
    async (request, reply) => {
      const { wabaId } = request.params;
      const { name = '', language = '' } = request.body ?? {};
      const category = String(request.body?.category ?? '').toUpperCase();
      const invalid = (details: string) => graphError(reply, 400, 100, details);
      if (!/^[a-z0-9_]{1,512}$/.test(name)) return invalid('name: lowercase letters, digits and _ only');
      if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(language)) return invalid(`language: unknown code "${language}"`);
      if (!CATEGORIES.has(category)) return invalid('category: MARKETING, UTILITY or AUTHENTICATION');
      const review = reviewTemplate(request.body ?? {}, category);
      if (!review.ok) return invalid(review.details);
      const header = review.components.find((c) => c.type === 'HEADER');
      const handle = (header?.example as { header_handle?: unknown[] } | undefined)?.header_handle?.[0];
      if (header && handle !== undefined && !handleIssuedTo(state, handle, wabaId))
        return unknownHandle(reply);
      const templates = state.templates.get(wabaId) ?? [];
      if (templates.some((t) => t.name === name && t.language === language)) {
        return graphError(reply, 400, 100, `Content in this language already exists for ${name}`, 2388024);
      }
      const template: SimTemplate = {
        id: templateId(),
        name,
        language,
        category,
        body: review.components.find((c) => c.type === 'BODY')?.text ?? '',
        status: 'PENDING',
        components: review.components,
        parameterFormat: review.parameterFormat,
      };
      state.templates.set(wabaId, [...templates, template]);
      return { id: template.id, status: template.status, category: template.category };
    },
  );

  // As Meta: by name every language of it, with hsm_id only that one; answers {success: true}.
  app.delete<{
    Params: { version: string; wabaId: string };
    Querystring: { name?: string; hsm_id?: string };
  }>('/:version/:wabaId/message_templates', { config: { graph: true } }, async (request, reply) => {
    const { wabaId } = request.params;
    const { name, hsm_id: id } = request.query;
    if (!name) return graphError(reply, 400, 100, 'name is required');
    const templates = state.templates.get(wabaId) ?? [];
    const gone = templates.filter((t) => t.name === name && (id === undefined || t.id === id));
    if (gone.length === 0) return graphError(reply, 400, 100, `Message template "${name}" was not found`);
    state.templates.set(
      wabaId,
      templates.filter((t) => !gone.includes(t)),
    );
    return { success: true };
  });

  // Control: approve or reject in every business account that has the template, or only in
  // ?business_account_id=.
  app.post<{
    Params: { name: string; language: string; verdict: string };
    Querystring: { business_account_id?: string };
  }>('/templates/:name/:language/:verdict', async (request, reply) => {
    const { name, language, verdict } = request.params;
    if (verdict !== 'approve' && verdict !== 'reject')
      return reply.code(404).send({ error: 'no such verdict' });
    const changed: { businessAccountId: string; template: SimTemplate; delivered: number[] }[] = [];
    for (const [wabaId, templates] of state.templates) {
      if (request.query.business_account_id && request.query.business_account_id !== wabaId) continue;
      const t = templates.find((x) => x.name === name && x.language === language);
      if (!t) continue;
      t.status = verdict === 'approve' ? 'APPROVED' : 'REJECTED';
      const delivered: number[] = [];
      for (const number of state.numbers.values()) {
        if (number.businessAccountId === wabaId)
          delivered.push(await deliver(number, templateStatusPayload(wabaId, t)));
      }
      changed.push({ businessAccountId: wabaId, template: t, delivered });
    }
    if (changed.length === 0) return reply.code(404).send({ error: 'no such template' });
    return {
      name,
      language,
      status: changed[0]!.template.status,
      business_accounts: changed.map((c) => ({ id: c.businessAccountId, delivered_status: c.delivered })),
    };
  });
}
