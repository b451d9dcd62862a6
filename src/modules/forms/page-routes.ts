import type { FastifyInstance } from 'fastify';
import { embedScript } from './embed-script.js';
import { activeFormByToken, FORM_CLOSED, formClosed } from './find-form.js';
import { errorPage, formPage, PAGE_HEADERS } from './html.js';

/**
 * Publish & embed: the hosted page at /f/{token} (a plain HTML form, no script) and the embed script
 * at /f/{token}/embed.js. Unknown and inactive forms are 404s; an archived form is 410 Gone, closed.
 */
export async function formPageRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { token: string } }>('/:token', { schema: { hide: true } }, async (request, reply) => {
    const form = await activeFormByToken(app.ctx.db, request.params.token);
    reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8');
    if (!form && (await formClosed(app.ctx.db, request.params.token)))
      return reply.code(410).send(errorPage(410, FORM_CLOSED));
    if (!form)
      return reply.code(404).send(errorPage(404, 'This form does not exist or no longer takes submissions.'));
    return formPage(form, '/api/forms/submit');
  });

  app.get<{ Params: { token: string } }>(
    '/:token/embed.js',
    { schema: { hide: true } },
    async (request, reply) => {
      const form = await activeFormByToken(app.ctx.db, request.params.token);
      reply.type('text/javascript; charset=utf-8').header('x-content-type-options', 'nosniff');
      if (!form && (await formClosed(app.ctx.db, request.params.token)))
        return reply.code(410).send('/* Parley: this form is closed */\n');
      if (!form)
        return reply
          .code(404)
          .send('/* Parley: this form does not exist or no longer takes submissions */\n');
      // Short, so a form switched off or edited reaches the sites embedding it within a minute.
      reply.header('cache-control', 'public, max-age=60');
      return embedScript(form);
    },
  );
}
