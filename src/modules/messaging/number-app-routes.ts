import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { requireManager } from '../accounts/roles.js';
import { saveTemplate } from '../templates/save-template.js';
import { connectNumber, numberOfWorkspace } from './connected-numbers.js';
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

/** Settings › Connected number: the workspace's number, and connecting the built-in simulator. */
export function registerAppNumberRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/number', async (request) => {
    const s = request.session();
    const number = await numberOfWorkspace(ctx, ctx.db, s.workspaceId);
    const simulatorAvailable = simulatorMounted(ctx);
    if (!number) return { result: true, number: null, simulator_available: simulatorAvailable };
    return {
      result: true,
      simulator_available: simulatorAvailable,
      number: {
        id: number.id,
        display_phone: number.displayPhone,
        phone_number_id: number.phoneNumberId,
        business_account_id: number.businessAccountId,
        provider: number.graphBaseUrl === localSimulatorUrl(ctx) ? 'simulator' : 'whatsapp_cloud_api',
        status: 'connected',
        webhook_url: `${ctx.config.appUrl}/api/webhooks/whatsapp/${number.id}`,
        templates_synced_at: number.templatesSyncedAt,
        connected_at: number.connectedAt,
      },
    };
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
