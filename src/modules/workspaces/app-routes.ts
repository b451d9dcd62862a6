import { Type } from 'typebox';
import type { RestApp } from '../../api/rest-app.js';
import { Text } from '../../api/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';
import { requireManager } from '../accounts/roles.js';
import { CountryCode, WorkspaceName } from '../accounts/schemas.js';
import { getWorkspace } from './get-workspace.js';
import { UsageResult, WorkspaceResult } from './schemas.js';
import { updateWorkspace } from './update-workspace.js';
import { usageOf } from './usage.js';

// A bound on what is read; update-workspace.ts says in words what is too long or too many.
const Keywords = Type.Array(Text({ maxLength: 1000 }), { maxItems: 200 });
const Confirmation = Type.Union([Text({ maxLength: FIELD_LIMITS.consentReply }), Type.Null()]);

const WorkspaceBody = Type.Object(
  {
    name: Type.Optional(WorkspaceName),
    default_country_code: Type.Optional(CountryCode),
    opt_out_keywords: Type.Optional(Keywords),
    opt_in_keywords: Type.Optional(Keywords),
    opt_out_confirmation: Type.Optional(Confirmation),
    opt_in_confirmation: Type.Optional(Confirmation),
    time_zone: Type.Optional(
      Text({
        minLength: 1,
        maxLength: 64,
        description: 'IANA time zone, such as Asia/Kolkata: broadcast times are read in it',
      }),
    ),
    mark_read: Type.Optional(
      Type.Boolean({ description: 'Opening a conversation marks its customer messages read on WhatsApp' }),
    ),
  },
  { additionalProperties: false },
);

/** Settings › General, Plan and usage (Connected number: messaging/number-app-routes.ts). */
export function registerSettingsRoutes(app: RestApp): void {
  const { ctx } = app;

  app.get('/workspace', { schema: { response: { 200: WorkspaceResult } } }, async (request) => ({
    result: true as const,
    workspace: await getWorkspace(ctx.db, request.session().workspaceId),
  }));

  app.patch('/workspace', { schema: { body: WorkspaceBody } }, async (request) => {
    const s = request.session();
    requireManager(s.role);
    await updateWorkspace(ctx.db, s.workspaceId, request.body);
    return { result: true };
  });

  app.get('/usage', { schema: { response: { 200: UsageResult } } }, async (request) => ({
    result: true as const,
    ...(await usageOf(ctx.db, request.session().workspaceId)),
  }));
}
