import { randomInt } from 'node:crypto';
import { Type } from 'typebox';
import { ApiError } from '../../http/errors.js';
import type { RestApp } from '../../http/rest-app.js';
import { newSecret } from '../../lib/ids.js';
import { isCallingCode } from '../../lib/phone.js';
import { requireManager } from '../accounts/roles.js';
import { CountryCode, WorkspaceName } from '../accounts/schemas.js';
import { connectNumber, numberOfWorkspace } from '../messaging/connected-numbers.js';
import { localSimulatorUrl, registerWithSimulator } from '../messaging/simulator-link.js';
import { saveTemplate } from '../templates/save-template.js';
import { usageOf } from './usage.js';

const WorkspaceBody = Type.Object(
  { name: Type.Optional(WorkspaceName), default_country_code: Type.Optional(CountryCode) },
  { additionalProperties: false },
);

// What a workspace connected to the built-in simulator starts with, so there is something to send.
const SAMPLE_TEMPLATES = [
  { name: 'welcome', language: 'en', category: 'MARKETING', body: 'Hi {{1}}, welcome to {{2}}!' },
  { name: 'order_update', language: 'en', category: 'UTILITY', body: 'Your order {{1}} is now {{2}}.' },
] as const;

/** Settings › General, Connected number, Plan and usage. */
export function registerSettingsRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/workspace', async (request) => {
    const s = request.session();
    const { rows } = await ctx.db.query(
      'SELECT id, name, default_country_code, plan, created_at FROM workspaces WHERE id = $1',
      [s.workspaceId],
    );
    return { result: true, workspace: rows[0] };
  });

  app.patch('/workspace', { schema: { body: WorkspaceBody } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    const { name, default_country_code } = request.body;
    const cc =
      default_country_code === undefined ? undefined : default_country_code?.replace(/^\+/, '') || null;
    if (cc && !isCallingCode(cc)) {
      throw ApiError.validation(
        'default_country_code',
        `${cc} is not a known calling code (for example 91 or 1)`,
      );
    }
    if (name !== undefined && !name.trim()) throw ApiError.validation('name', 'must not be blank');
    // updated_at moves so every instance's API key cache picks up the new default country code.
    await ctx.db.query(
      `UPDATE workspaces SET name = COALESCE($2, name),
         default_country_code = CASE WHEN $3 THEN $4 ELSE default_country_code END, updated_at = now()
       WHERE id = $1`,
      [s.workspaceId, name?.trim() ?? null, cc !== undefined, cc ?? null],
    );
    return { result: true };
  });

  app.get('/number', async (request) => {
    const s = request.session();
    const number = await numberOfWorkspace(ctx, ctx.db, s.workspaceId);
    const simulatorAvailable = ctx.db.kind === 'pglite' || ctx.config.simulator;
    if (!number) return { result: true, number: null, simulator_available: simulatorAvailable };
    const { rows } = await ctx.db.query<{ templates_synced_at: Date | null; created_at: Date }>(
      'SELECT templates_synced_at, created_at FROM connected_numbers WHERE workspace_id = $1',
      [s.workspaceId],
    );
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
        templates_synced_at: rows[0]?.templates_synced_at ?? null,
        connected_at: rows[0]?.created_at ?? null,
      },
    };
  });

  /** Connects the built-in WhatsApp simulator as the workspace's number (as `parley demo` does). */
  app.post('/number/simulator', async (request, reply) => {
    const s = request.session();
    requireManager(s.role);
    if (!(ctx.db.kind === 'pglite' || ctx.config.simulator)) {
      throw new ApiError('conflict', 'The simulator is not mounted on this server');
    }
    if (await numberOfWorkspace(ctx, ctx.db, s.workspaceId)) {
      throw new ApiError('conflict', 'A number is already connected to this workspace');
    }
    for (const t of SAMPLE_TEMPLATES) await saveTemplate(ctx.db, s.workspaceId, { ...t, status: 'APPROVED' });
    await connectNumber(ctx, s.workspaceId, {
      phoneNumberId: String(100_000_000_000_000 + randomInt(999_999_999_999)),
      businessAccountId: String(200_000_000_000_000 + randomInt(999_999_999_999)),
      displayPhone: '+1 555 0100',
      accessToken: newSecret('EAAsim'),
      appSecret: newSecret(''),
      verifyToken: newSecret('verify_'),
      graphBaseUrl: localSimulatorUrl(ctx),
    });
    const number = await numberOfWorkspace(ctx, ctx.db, s.workspaceId);
    await registerWithSimulator(ctx, number!);
    return reply.code(201).send({ result: true, id: number!.id });
  });

  app.get('/usage', async (request) => ({
    result: true,
    ...(await usageOf(ctx.db, request.session().workspaceId)),
  }));
}
