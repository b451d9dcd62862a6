import { Type } from 'typebox';
import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { Text } from '../../http/schema.js';
import { numberOfWorkspace } from '../messaging/connected-numbers.js';
import { createTemplate } from './create-template.js';
import { listAllTemplates } from './list-all-templates.js';
import { syncTemplates } from './sync-templates.js';

const NewTemplateBody = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 512 }),
    language: Text({ minLength: 2, maxLength: 15 }),
    category: Text({ minLength: 1, maxLength: 32 }),
    body: Type.Optional(Text({ minLength: 1, maxLength: 1024 })),
    examples: Type.Optional(Type.Array(Text({ maxLength: 1024 }), { maxItems: 100 })),
    // Meta's creation shapes, passed on to its review as given.
    components: Type.Optional(
      Type.Array(
        Type.Object({ type: Text({ minLength: 1, maxLength: 16 }) }, { additionalProperties: true }),
        {
          minItems: 1,
          maxItems: 4,
        },
      ),
    ),
    parameter_format: Type.Optional(Type.Union([Type.Literal('POSITIONAL'), Type.Literal('NAMED')])),
    add_security_recommendation: Type.Optional(Type.Boolean()),
    code_expiration_minutes: Type.Optional(Type.Integer()),
    otp_type: Type.Optional(
      Type.Union([Type.Literal('COPY_CODE'), Type.Literal('ONE_TAP'), Type.Literal('ZERO_TAP')]),
    ),
    supported_apps: Type.Optional(
      Type.Array(
        Type.Object(
          { package_name: Text({ maxLength: 224 }), signature_hash: Text({ maxLength: 11 }) },
          { additionalProperties: false },
        ),
        { maxItems: 5 },
      ),
    ),
  },
  { additionalProperties: false },
);

/** Templates: every status (the REST API lists only approved ones), "Sync now", create and submit. */
export function registerAppTemplateRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/templates', async (request) => {
    const s = request.session();
    const templates = await listAllTemplates(ctx.db, s.workspaceId);
    const number = await numberOfWorkspace(ctx, ctx.db, s.workspaceId);
    return {
      result: true,
      templates,
      number_connected: number !== null,
      synced_at: number?.templatesSyncedAt ?? null,
    };
  });

  app.post('/templates/sync', async (request) => {
    const s = request.session();
    const number = await numberOfWorkspace(ctx, ctx.db, s.workspaceId);
    if (!number) {
      throw new ApiError(
        'no_connected_number',
        'Connect a WhatsApp number in Settings first; templates come from it',
      );
    }
    return { result: true, synced: await syncTemplates(ctx, number) };
  });

  /** Submits a new template to WhatsApp for approval (PENDING until Meta reviews it). */
  app.post('/templates', { schema: { body: NewTemplateBody } }, async (request, reply) => {
    const s = request.session();
    const template = await createTemplate(ctx, s.workspaceId, request.body);
    return reply.code(201).send({ result: true, template });
  });
}
