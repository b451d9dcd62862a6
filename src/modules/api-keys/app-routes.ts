import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { NameText } from '../../api/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';
import { requireManager } from '../accounts/roles.js';
import { IdParams } from '../accounts/schemas.js';
import { audited, userActor } from '../audit/record-audit.js';
import { createApiKey } from './create-api-key.js';
import { listApiKeys } from './list-api-keys.js';
import { revokeApiKey } from './revoke-api-key.js';
import { ApiKeyListResult, NewApiKeyResult } from './schemas.js';

const KeyBody = Type.Object(
  { name: Type.Optional(NameText({ maxLength: FIELD_LIMITS.apiKeyName })) },
  { additionalProperties: false },
);
/** Settings › Developer: API keys (shown once, revocable). */
export function registerAppApiKeyRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/api-keys', { schema: { response: { 200: ApiKeyListResult } } }, async (request) => ({
    result: true as const,
    api_keys: await listApiKeys(ctx.db, request.session().workspaceId),
  }));

  app.post(
    '/api-keys',
    { schema: { body: KeyBody, response: { 201: NewApiKeyResult } } },
    async (request, reply) => {
      const s = request.session();
      requireManager(s.role);
      const name = request.body.name?.trim() ?? '';
      const key = await audited(
        ctx.db,
        (tx) => createApiKey(tx, s.workspaceId, name),
        (created) => ({
          workspaceId: s.workspaceId,
          actor: userActor(s),
          action: 'create',
          entityType: 'api_key',
          entityId: created.id,
          changes: { name, display_prefix: created.displayPrefix },
        }),
      );
      return reply
        .code(201)
        .send({ result: true as const, id: key.id, key: key.key, display_prefix: key.displayPrefix });
    },
  );

  app.delete('/api-keys/:id', { schema: { params: IdParams } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    const hash = await audited(
      ctx.db,
      async (tx) => {
        const revoked = await revokeApiKey(tx, request.params.id, s.workspaceId);
        if (!revoked) throw new ApiError('not_found', 'No live API key with that id');
        return revoked;
      },
      () => ({
        workspaceId: s.workspaceId,
        actor: userActor(s),
        action: 'revoke',
        entityType: 'api_key',
        entityId: request.params.id,
      }),
    );
    // At once on this instance; the other instances' watchers drop it within seconds.
    ctx.keys.forget(hash);
    return { result: true };
  });
}
