import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { canManage, requireManager } from '../accounts/roles.js';
import { saveTemplate } from '../templates/save-template.js';
import { checkNumber } from './check-number.js';
import { connectCloudNumber } from './connect-cloud-number.js';
import { connectNumber, numberOfWorkspace } from './connected-numbers.js';
import { disconnectWorkspaceNumber } from './disconnect-number.js';
import { numberViewOfWorkspace, numberWebhook } from './number-view.js';
import { ConnectNumberBody, NumberResult } from './schemas.js';
import { registerWithSimulator, simulatorConnection, simulatorMounted } from './simulator-link.js';

// What a workspace connected to the built-in simulator starts with, so there is something to send.
const SAMPLE_TEMPLATES = [
  { name: 'welcome', language: 'en', category: 'MARKETING', body: 'Hi {{1}}, welcome to {{2}}!' },
  { name: 'order_update', language: 'en', category: 'UTILITY', body: 'Your order {{1}} is now {{2}}.' },
] as const;

/** Settings › Connected number: the workspace's number; connecting a real one, the simulator; disconnecting. */
export function registerAppNumberRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/number', { schema: { response: { 200: NumberResult } } }, async (request) => {
    const s = request.session();
    return {
      result: true as const,
      simulator_available: simulatorMounted(ctx),
      webhook: numberWebhook(ctx, canManage(s.role)),
      number: await numberViewOfWorkspace(ctx, s.workspaceId),
    };
  });

  /** Connects a real WhatsApp number, checked with the Graph API first. */
  app.post('/number', { schema: { body: ConnectNumberBody } }, async (request, reply) => {
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
    await disconnectWorkspaceNumber(ctx, s.workspaceId);
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
