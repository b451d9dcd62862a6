import { ApiError } from '../api/errors.js';
import type { AppContext } from '../context.js';
import { migrate } from '../db/migrate.js';
import { Queue } from '../jobs/queue.js';
import { createResetLink } from '../modules/accounts/reset-tokens.js';
import { userByEmail } from '../modules/accounts/users.js';
import { createApiKey } from '../modules/api-keys/create-api-key.js';
import { revokeApiKey } from '../modules/api-keys/revoke-api-key.js';
import { findSequence, rotateSequenceSecret } from '../modules/automation/intake.js';
import {
  createAutomation,
  publishAutomation,
  unpublishAutomation,
} from '../modules/automation/save-automation.js';
import { snapshotDatabase } from '../modules/backups/snapshot-database.js';
import { createForm } from '../modules/forms/create-form.js';
import { embedSnippets } from '../modules/forms/embed-snippets.js';
import {
  type ConnectNumberInput,
  connectNumber,
  numberOfWorkspace,
} from '../modules/messaging/connected-numbers.js';
import { refreshNumberHealth } from '../modules/messaging/number-health.js';
import { localSimulatorUrl, registerWithSimulator } from '../modules/messaging/simulator-link.js';
import { createTemplate, type NewTemplate } from '../modules/templates/create-template.js';
import { syncTemplates } from '../modules/templates/sync-templates.js';
import { createEndpoint } from '../modules/webhooks/endpoints.js';
import { createWorkspace } from '../modules/workspaces/create-workspace.js';
import { setPlan } from '../modules/workspaces/plans.js';
import { requireWorkspace } from '../modules/workspaces/require-workspace.js';
import { seedDemo } from './demo.js';

/**
 * The operator commands that touch the database. The CLI runs them directly, or hands them to the
 * running server over its control socket when that server owns the embedded database.
 */
const commands = {
  migrate: async (ctx: AppContext) => {
    const applied = await migrate(ctx.db);
    // The job queue's schema too (pg-boss migrates its own, and moves pg-boss 10's jobs): a running
    // server's queue did so when it started.
    if (!ctx.queue) await (await Queue.start(ctx.db, { work: false, log: ctx.log })).stop();
    return { applied };
  },

  'workspace.create': async (
    ctx: AppContext,
    input: { name: string; defaultCountryCode?: string; plan?: string },
  ) => {
    const workspace = await createWorkspace(ctx.db, input);
    const key = await createApiKey(ctx.db, workspace.id, 'Created with the workspace');
    return { workspace_id: workspace.id, api_key: key.key };
  },

  'apikey.create': async (ctx: AppContext, input: { workspaceId: string; name?: string }) => {
    await requireWorkspace(ctx.db, input.workspaceId);
    const key = await createApiKey(ctx.db, input.workspaceId, input.name);
    return { id: key.id, key: key.key };
  },

  'apikey.revoke': async (ctx: AppContext, input: { id: string }) => {
    const hash = await revokeApiKey(ctx.db, input.id);
    if (!hash) throw new ApiError('not_found', `no active API key with id ${input.id}`);
    ctx.keys.forget(hash);
    return { id: input.id, revoked: true };
  },

  'plan.set': async (
    ctx: AppContext,
    input: { name: string; contacts: number; monthlyLeads: number; messagesPerMonth: number },
  ) => {
    const plan = await setPlan(ctx.db, input.name, input);
    return {
      name: plan.name,
      contacts: plan.contacts,
      monthly_leads: plan.monthlyLeads,
      messages_per_month: plan.messagesPerMonth,
    };
  },

  'number.connect': async (ctx: AppContext, input: ConnectNumberInput & { workspaceId: string }) => {
    const { workspaceId, ...connection } = input;
    await requireWorkspace(ctx.db, workspaceId);
    const { id } = await connectNumber(ctx, workspaceId, connection);
    const number = (await numberOfWorkspace(ctx, ctx.db, workspaceId))!;
    if (number.graphBaseUrl === localSimulatorUrl(ctx)) await registerWithSimulator(ctx, number);
    const health = await refreshNumberHealth(ctx, number);
    const synced = await syncTemplates(ctx, number).catch((err: Error) => err);
    return {
      id,
      messages_per_second: number.messagesPerSecond,
      verified_name: health?.verifiedName ?? null,
      quality_rating: health?.qualityRating ?? null,
      messaging_limit_tier: health?.messagingLimitTier ?? null,
      webhook_url: `${ctx.config.appUrl}/api/webhooks/whatsapp/${id}`,
      templates_synced: typeof synced === 'number' ? synced : null,
      ...(typeof synced === 'number' ? {} : { sync_error: synced.message }),
    };
  },

  'templates.sync': async (ctx: AppContext, input: { workspaceId: string }) => {
    const number = await numberOfWorkspace(ctx, ctx.db, input.workspaceId);
    if (!number)
      throw new ApiError('no_connected_number', `workspace ${input.workspaceId} has no connected number`);
    return { synced: await syncTemplates(ctx, number) };
  },

  'templates.create': async (ctx: AppContext, input: NewTemplate & { workspaceId: string }) => {
    const { workspaceId, ...template } = input;
    await requireWorkspace(ctx.db, workspaceId);
    return createTemplate(ctx, workspaceId, template);
  },

  'webhook.create': async (
    ctx: AppContext,
    input: { workspaceId: string; url: string; events?: string[] },
  ) => {
    await requireWorkspace(ctx.db, input.workspaceId);
    return createEndpoint(ctx, input.workspaceId, input.url, input.events);
  },

  'form.create': async (ctx: AppContext, input: { workspaceId: string; name?: string; inactive?: boolean }) =>
    createForm(ctx.db, input.workspaceId, { name: input.name, active: !input.inactive }),

  'form.embed': async (ctx: AppContext, input: { workspaceId: string; id: string }) => {
    const codes = await embedSnippets(ctx.db, ctx.config.appUrl, input.workspaceId, input.id);
    if (!codes) throw new ApiError('not_found', `no form ${input.id} in workspace ${input.workspaceId}`);
    return codes;
  },

  'automation.create': async (
    ctx: AppContext,
    input: { workspaceId: string; kind: 'flow' | 'sequence'; definition: unknown; publish?: boolean },
  ) => {
    await requireWorkspace(ctx.db, input.workspaceId);
    // A sequence is live once created (its webhook URL is what the operator came for); a flow waits for --publish.
    const saved = await createAutomation(ctx, input.workspaceId, input.definition, {
      publish: input.kind === 'sequence' || !!input.publish,
      expectKind: input.kind,
    });
    return input.kind === 'flow'
      ? { id: saved.id, published: saved.published_version !== null }
      : { id: saved.id, secret: saved.secret };
  },

  'automation.publish': async (
    ctx: AppContext,
    input: { workspaceId: string; id: string; publish: boolean },
  ) => {
    if (input.publish)
      return { id: input.id, published_version: await publishAutomation(ctx, input.workspaceId, input.id) };
    await unpublishAutomation(ctx.db, input.workspaceId, input.id);
    return { id: input.id, published_version: null };
  },

  'sequence.rotateSecret': async (ctx: AppContext, input: { id: string }) => {
    const sequence = await findSequence(ctx, input.id);
    const secret =
      sequence?.triggerType === 'webhook'
        ? await rotateSequenceSecret(ctx, sequence.workspaceId, sequence.id)
        : null;
    if (!secret) throw new ApiError('not_found', `no sequence ${input.id} started by a webhook`);
    return { id: input.id, secret };
  },

  'user.resetPassword': async (ctx: AppContext, input: { email: string }) => {
    const user = await userByEmail(ctx.db, input.email);
    if (!user) throw new ApiError('not_found', `no user with e-mail ${input.email}`);
    const link = await createResetLink(ctx.db, ctx.config.appUrl, user.id);
    return { email: user.email, url: link.url, expires_at: link.expiresAt.toISOString() };
  },

  demo: (ctx: AppContext) => seedDemo(ctx),

  // `parley backup` asks the server that owns the embedded database for a copy of its files.
  'backup.snapshot': async (ctx: AppContext, input: { pid: number }) => {
    if (!Number.isSafeInteger(input?.pid) || input.pid <= 0)
      throw new ApiError('bad_request', 'pid: a process id');
    return snapshotDatabase(ctx.db, ctx.config.dataDir, input.pid);
  },
};

export type CommandName = keyof typeof commands;
export type CommandInput<N extends CommandName> = Parameters<(typeof commands)[N]>[1];

export async function runCommand(ctx: AppContext, name: string, input: unknown): Promise<unknown> {
  if (!Object.hasOwn(commands, name)) throw new ApiError('bad_request', `unknown command ${name}`);
  const command = commands[name as CommandName] as (ctx: AppContext, input: unknown) => Promise<unknown>;
  return command(ctx, input);
}
