import type { FastifyRequest } from 'fastify';
import { answerErrorsWith, restEnvelope } from '../api/error-handler.js';
import { ApiError } from '../api/errors.js';
import type { RestApp } from '../api/rest-app.js';
import { ErrorResponse } from '../api/schema.js';
import { authenticate } from '../modules/api-keys/authenticate.js';
import { registerAuditRoutes } from '../modules/audit/routes.js';
import { registerEventRoutes } from '../modules/automation/routes.js';
import { registerAutomationRoutes } from '../modules/automation/v1-routes.js';
import { registerRunRoutes } from '../modules/automation/v1-run-routes.js';
import { registerBroadcastRoutes } from '../modules/broadcasts/routes.js';
import { registerContactRoutes } from '../modules/contacts/routes.js';
import { registerDashboardRoutes } from '../modules/dashboard/routes.js';
import { registerFormRoutes } from '../modules/forms/routes.js';
import { idempotencyHooks } from '../modules/idempotency/hooks.js';
import { registerLabelRoutes } from '../modules/inbox/label-v1-routes.js';
import { registerQuickReplyRoutes } from '../modules/inbox/v1-quick-reply-routes.js';
import { registerConversationRoutes } from '../modules/inbox/v1-routes.js';
import { registerLeadRoutes } from '../modules/leads/routes.js';
import { registerMediaRoutes } from '../modules/media/routes.js';
import { registerMessageRoutes } from '../modules/messaging/routes.js';
import { registerNumberRoutes } from '../modules/messaging/v1-number-routes.js';
import { rateLimit } from '../modules/rate-limit/hook.js';
import { registerRetentionRoutes } from '../modules/retention/routes.js';
import { registerRoutingRoutes } from '../modules/routing/v1-routes.js';
import { registerHeaderSampleRoute } from '../modules/templates/header-sample-routes.js';
import { registerTemplateRoutes } from '../modules/templates/routes.js';
import { registerWebhookRoutes } from '../modules/webhooks/routes.js';
import { registerWorkspaceRoutes } from '../modules/workspaces/routes.js';

export const REST_BODY_LIMIT = 256 * 1024;

/** REST API v1: API-key authentication, the per-key rate limit and the error envelope for everything under it. */
export async function restV1(app: RestApp): Promise<void> {
  app.addSchema(ErrorResponse);
  // The interface is JSON only: a text/plain body is refused with 415 rather than read as a string.
  app.removeContentTypeParser('text/plain');

  answerErrorsWith(app, restEnvelope);

  app.decorateRequest('auth', null);
  app.decorateRequest('idempotencyKey', null);
  app.decorateRequest('principal', function principal() {
    if (!this.auth) throw new ApiError('unauthorized', 'Authentication required');
    return this.auth;
  });
  app.addHook('onRequest', ignoreTypeOfNoBody);
  app.addHook('onRequest', authenticate(app.ctx.keys));
  app.addHook('onRequest', rateLimit(app.ctx.limiter));
  // Only routes marked `config: { idempotent: true }` pay for the Idempotency-Key hooks.
  const idempotency = idempotencyHooks(app.ctx.db);
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [...toArray(route.preHandler), idempotency.preHandler];
    route.onSend = [...toArray(route.onSend), idempotency.onSend];
  });

  registerContactRoutes(app);
  registerTemplateRoutes(app);
  registerMessageRoutes(app);
  registerNumberRoutes(app);
  registerEventRoutes(app);
  registerBroadcastRoutes(app);
  registerAutomationRoutes(app);
  registerLabelRoutes(app);
  registerConversationRoutes(app);
  registerDashboardRoutes(app);
  registerRunRoutes(app);
  registerRoutingRoutes(app);
  registerQuickReplyRoutes(app);
  registerAuditRoutes(app);
  registerLeadRoutes(app);
  registerFormRoutes(app);
  registerWebhookRoutes(app);
  registerWorkspaceRoutes(app);
  registerRetentionRoutes(app);
  await registerMediaRoutes(app);
  await registerHeaderSampleRoute(app);
}

/**
 * Many clients send `Content-Type: application/json` on every request (a curl habit, a client's
 * default headers). On a route that takes no body, a request that sends none is taken as it is,
 * instead of Fastify's 400 (an empty JSON body) or 415 (a type it does not read). The multipart
 * scopes (uploads, CSV imports) answer a missing body themselves.
 */
async function ignoreTypeOfNoBody(request: FastifyRequest): Promise<void> {
  const h = request.headers;
  if (h['content-type'] === undefined || request.routeOptions.schema?.body) return;
  if (h['transfer-encoding'] !== undefined || (h['content-length'] ?? '0') !== '0') return;
  if (request.server.hasContentTypeParser('multipart/form-data')) return;
  delete h['content-type'];
}

function toArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
