import { Type } from 'typebox';
import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { Text } from '../../http/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';
import { requireManager } from '../accounts/roles.js';
import { IdParams } from '../accounts/schemas.js';
import { createApiKey } from './create-api-key.js';
import { listApiKeys } from './list-api-keys.js';
import { revokeApiKey } from './revoke-api-key.js';

const KeyBody = Type.Object(
  { name: Type.Optional(Text({ maxLength: FIELD_LIMITS.apiKeyName })) },
  { additionalProperties: false },
);
/** Settings › Developer: API keys (shown once, revocable). */
export function registerAppApiKeyRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/api-keys', async (request) => ({
    result: true,
    api_keys: await listApiKeys(ctx.db, request.session().workspaceId),
  }));

  app.post('/api-keys', { schema: { body: KeyBody } }, async (request, reply) => {
    const s = request.session();
    requireManager(s.role);
    const key = await createApiKey(ctx.db, s.workspaceId, request.body.name?.trim() ?? '');
    return reply
      .code(201)
      .send({ result: true, id: key.id, key: key.key, display_prefix: key.displayPrefix });
  });

  app.delete('/api-keys/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    const hash = await revokeApiKey(ctx.db, request.params.id, s.workspaceId);
    if (!hash) throw new ApiError('not_found', 'No live API key with that id');
    // At once on this instance; the other instances' watchers drop it within seconds.
    ctx.keys.forget(hash);
    return { result: true };
  });
}
