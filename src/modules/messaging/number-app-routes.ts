import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { canManage, requireManager } from '../accounts/roles.js';
import { saveTemplate } from '../templates/save-template.js';
import { checkNumber } from './check-number.js';
import { appWebhookUrl, connectCloudNumber, webhookVerifyToken } from './connect-cloud-number.js';
import { connectNumber, disconnectNumber, numberOfWorkspace } from './connected-numbers.js';
import { numberProblem } from './number-problems.js';
import { NumberResult } from './schemas.js';
import {
  localSimulatorUrl,
  registerWithSimulator,
  simulatorConnection,
  simulatorMounted,
} from './simulator-link.js';

// What a workspace connected to the built-in simulator starts with, so there is something to send.
const SAMPLE_TEMPLATES = [
  { name: 'welcome', language: 'en', category: 'MARKETING', body: 'Hi {{1}}, welcome to {{2}}!' },
  { name: 'order_update', language: 'en', category: 'UTILITY', body: 'Your order {{1}} is now {{2}}.' },
] as const;

// Meta's ids are numbers; tokens and secrets are opaque, printable and short.
const GraphId = Type.String({ pattern: '^[0-9]{1,32}$' });
const Opaque = Type.String({ minLength: 1, maxLength: 1024, pattern: '^[\\x21-\\x7e]+$' });
const ConnectBody = Type.Object(
  { phone_number_id: GraphId, business_account_id: GraphId, access_token: Opaque, app_secret: Opaque },
  { additionalProperties: false },
);

/** Settings › Connected number: the workspace's number; connecting a real one, the simulator; disconnecting. */
export function registerAppNumberRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/number', { schema: { response: { 200: NumberResult } } }, async (request) => {
    const s = request.session();
    const number = await numberOfWorkspace(ctx, ctx.db, s.workspaceId);
    const simulatorAvailable = simulatorMounted(ctx);
    // What Meta's app settings need; the verify token is for those who may connect a number.
    const webhook = {
      callback_url: appWebhookUrl(ctx),
      ...(canManage(s.role) ? { verify_token: webhookVerifyToken(ctx) } : {}),
    };
    if (!number)
      return { result: true as const, number: null, simulator_available: simulatorAvailable, webhook };
    return {
      result: true as const,
      simulator_available: simulatorAvailable,
      webhook,
      number: {
        id: number.id,
        display_phone: number.displayPhone,
        phone_number_id: number.phoneNumberId,
        business_account_id: number.businessAccountId,
        provider:
          number.graphBaseUrl === localSimulatorUrl(ctx)
            ? ('simulator' as const)
            : ('whatsapp_cloud_api' as const),
        status: number.paused ? ('paused' as const) : ('connected' as const),
        paused: number.paused && {
          at: number.paused.at.toISOString(),
          code: number.paused.code,
          reason: number.paused.reason,
          what_to_do: numberProblem(number.paused.code),
        },
        webhook_url: `${ctx.config.appUrl}/api/webhooks/whatsapp/${number.id}`,
        verified_name: number.verifiedName,
        quality_rating: number.qualityRating,
        messaging_limit_tier: number.messagingLimitTier,
        templates_synced_at: number.templatesSyncedAt?.toISOString() ?? null,
        connected_at: number.connectedAt.toISOString(),
      },
    };
  });

  /** Connects a real WhatsApp number, checked with the Graph API first. */
  app.post('/number', { schema: { body: ConnectBody } }, async (request, reply) => {
    const s = request.session();
    requireManager(s.role);
    const b = request.body;
    const connected = await connectCloudNumber(ctx, s.workspaceId, {
      phoneNumberId: b.phone_number_id,
      businessAccountId: b.business_account_id,
      accessToken: b.access_token,
      appSecret: b.app_secret,
    });
    return reply.code(201).send({ result: true, ...connected });
  });

  /** "Check again": Meta reads the number with its stored token, and a paused number resumes. */
  app.post('/number/check', async (request) => {
    const s = request.session();
    requireManager(s.role);
    return { result: true, ...(await checkNumber(ctx, s.workspaceId)) };
  });

  /** Removes the number and its credentials; sends answer no_connected_number from then on. */
  app.delete('/number', async (request) => {
    const s = request.session();
    requireManager(s.role);
    const disconnected = await disconnectNumber(ctx.db, s.workspaceId);
    ctx.sending.forget(s.workspaceId);
    if (!disconnected) throw new ApiError('no_connected_number', 'This workspace has no connected number');
    return { result: true };
  });

  /** Connects the built-in WhatsApp simulator as the workspace's number (as `parley demo` does). */
  app.post('/number/simulator', async (request, reply) => {
    const s = request.session();
    requireManager(s.role);
    if (!simulatorMounted(ctx)) {
      throw new ApiError('conflict', 'The simulator is not mounted on this server');
    }
    if (await numberOfWorkspace(ctx, ctx.db, s.workspaceId)) {
      throw new ApiError('conflict', 'A number is already connected to this workspace');
    }
    for (const t of SAMPLE_TEMPLATES) await saveTemplate(ctx.db, s.workspaceId, { ...t, status: 'APPROVED' });
    await connectNumber(ctx, s.workspaceId, simulatorConnection(ctx));
    const number = await numberOfWorkspace(ctx, ctx.db, s.workspaceId);
    await registerWithSimulator(ctx, number!);
    return reply.code(201).send({ result: true, id: number!.id });
  });
}
