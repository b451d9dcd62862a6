import type { FastifyRequest } from 'fastify';
import { answerErrorsWith, restEnvelope } from '../api/error-handler.js';
import { ApiError } from '../api/errors.js';
import type { RestApp } from '../api/rest-app.js';
import { registerAuthRoutes } from '../modules/accounts/auth-routes.js';
import { registerPasswordResetRoutes } from '../modules/accounts/password-reset-routes.js';
import { registerPreferenceRoutes } from '../modules/accounts/preference-routes.js';
import { csrfMatches, currentSession, type Session } from '../modules/accounts/sessions.js';
import { registerTeamRoutes } from '../modules/accounts/team-routes.js';
import { registerAppApiKeyRoutes } from '../modules/api-keys/app-routes.js';
import { registerAppAuditRoutes } from '../modules/audit/app-routes.js';
import { registerAppAutomationRoutes } from '../modules/automation/app-routes.js';
import { registerAppBroadcastRoutes } from '../modules/broadcasts/app-routes.js';
import { registerAppContactRoutes } from '../modules/contacts/app-routes.js';
import { registerAppDashboardRoutes } from '../modules/dashboard/app-routes.js';
import { registerAppFormRoutes } from '../modules/forms/app-routes.js';
import { registerAppInboxRoutes } from '../modules/inbox/app-routes.js';
import { registerAppConversationRoutes } from '../modules/inbox/conversation-app-routes.js';
import { registerAppLabelRoutes } from '../modules/inbox/label-app-routes.js';
import { registerAppNotificationRoutes } from '../modules/inbox/notification-app-routes.js';
import { registerAppLeadRoutes } from '../modules/leads/app-routes.js';
import { registerLiveRoutes } from '../modules/live/app-routes.js';
import { registerAppMediaRoutes } from '../modules/media/app-routes.js';
import { registerAppMessageRoutes } from '../modules/messaging/app-routes.js';
import { registerAppNumberRoutes } from '../modules/messaging/number-app-routes.js';
import { registerAppSimulatorCustomerRoutes } from '../modules/messaging/simulator-customer-routes.js';
import { registerAppRetentionRoutes } from '../modules/retention/app-routes.js';
import { registerAppRoutingRoutes } from '../modules/routing/app-routes.js';
import { touchSeen } from '../modules/routing/availability.js';
import { registerBusinessHoursRoutes } from '../modules/routing/business-hours-routes.js';
import { registerAppSatisfactionRoutes } from '../modules/routing/satisfaction-routes.js';
import { registerAppTemplateRoutes } from '../modules/templates/app-routes.js';
import { registerAppHeaderSampleRoute } from '../modules/templates/header-sample-routes.js';
import { registerAppWebhookRoutes } from '../modules/webhooks/app-routes.js';
import { registerSettingsRoutes } from '../modules/workspaces/app-routes.js';

declare module 'fastify' {
  interface FastifyRequest {
    appSession: Session | null;
    /** The signed-in session; only on /api/app routes that are not public. */
    session(): Session;
  }
  interface FastifyContextConfig {
    /** An /api/app route reachable without a session (first-run setup, sign-in, invitations). */
    public?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-parley-csrf';

/**
 * The web app's JSON API: cookie sessions, CSRF checks on every state-changing request (the session's
 * token in `x-parley-csrf`, and an Origin, when sent, that is this server's), the REST error envelope.
 */
export async function appApi(app: RestApp): Promise<void> {
  app.removeContentTypeParser('text/plain');
  answerErrorsWith(app, restEnvelope);

  app.decorateRequest('appSession', null);
  app.decorateRequest('session', function session() {
    if (!this.appSession) throw new ApiError('unauthorized', 'Sign in first');
    return this.appSession;
  });
  app.addHook('onRequest', async (request) => {
    request.appSession = await currentSession(app.ctx, request);
    const isPublic = request.routeOptions.config?.public === true;
    if (!isPublic && !request.appSession)
      throw new ApiError('unauthorized', 'Your session has ended; sign in again');
    // A person using the app is around: routing counts them available while online (routing/availability.ts).
    if (request.appSession)
      await touchSeen(app.ctx.db, request.appSession.workspaceId, request.appSession.userId);
    if (SAFE_METHODS.has(request.method)) return;
    checkOrigin(app, request);
    const presented = request.headers[CSRF_HEADER];
    if (typeof presented !== 'string' || presented.length === 0) {
      throw new ApiError('csrf_failed', `Missing the ${CSRF_HEADER} header`);
    }
    if (!isPublic && !csrfMatches(request.appSession!, presented)) {
      throw new ApiError('csrf_failed', 'The CSRF token does not match this session; reload the page');
    }
  });
  // Nothing here may be cached by a shared cache: answers are per user.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  registerAuthRoutes(app);
  registerPreferenceRoutes(app);
  registerPasswordResetRoutes(app);
  registerTeamRoutes(app);
  registerSettingsRoutes(app);
  registerAppRetentionRoutes(app);
  registerBusinessHoursRoutes(app);
  registerAppNumberRoutes(app);
  registerAppSimulatorCustomerRoutes(app);
  registerAppApiKeyRoutes(app);
  registerAppWebhookRoutes(app);
  registerAppContactRoutes(app);
  registerAppMessageRoutes(app);
  registerAppInboxRoutes(app);
  registerAppConversationRoutes(app);
  registerAppLabelRoutes(app);
  registerAppNotificationRoutes(app);
  registerLiveRoutes(app);
  await registerAppMediaRoutes(app);
  registerAppTemplateRoutes(app);
  await registerAppHeaderSampleRoute(app);
  registerAppAutomationRoutes(app);
  registerAppBroadcastRoutes(app);
  registerAppLeadRoutes(app);
  registerAppFormRoutes(app);
  registerAppAuditRoutes(app);
  registerAppDashboardRoutes(app);
  registerAppSatisfactionRoutes(app);
  registerAppRoutingRoutes(app);
}

/**
 * A browser always sends Origin on a cross-site POST; when present it must be this server's, as
 * APP_URL says. Not the Host header: a page whose name was made to resolve to this server (DNS
 * rebinding) sends its own name as both.
 */
function checkOrigin(app: RestApp, request: FastifyRequest): void {
  if (request.headers['sec-fetch-site'] === 'cross-site') {
    throw new ApiError('csrf_failed', 'Cross-site requests are not accepted');
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const ours = new URL(app.ctx.config.appUrl);
  if (!sameServer(origin, ours)) {
    throw new ApiError(
      'csrf_failed',
      `Requests from ${origin} are not accepted; this server is ${ours.origin} (its APP_URL)`,
    );
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * APP_URL's origin, or, when APP_URL is a loopback address, the same port under another loopback
 * name (a browser on this machine opened localhost): a rebinding page cannot send those.
 */
function sameServer(origin: string, ours: URL): boolean {
  if (origin === ours.origin) return true;
  if (!LOOPBACK.has(ours.hostname) || !URL.canParse(origin)) return false;
  const theirs = new URL(origin);
  return LOOPBACK.has(theirs.hostname) && theirs.protocol === ours.protocol && theirs.port === ours.port;
}
