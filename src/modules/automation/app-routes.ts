import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { Done, Text } from '../../api/schema.js';
import type { AppContext } from '../../context.js';
import { IdParams } from '../accounts/schemas.js';
import type { Session } from '../accounts/sessions.js';
import { registerArchiveRoutes } from '../audit/archive-routes.js';
import { type AuditEntry, audited, recordAudit, userActor } from '../audit/record-audit.js';
import {
  type AutomationView,
  getAutomation,
  listAutomations,
  statusOf,
  webhookLinks,
} from './list-automations.js';
import { getRun, listRuns } from './list-runs.js';
import { replaceSequenceSecret } from './rotate-secret.js';
import { runCounts } from './run-counts.js';
import { createAutomation, publishAutomation, unpublishAutomation, updateDraft } from './save-automation.js';
import {
  AutomationListResult,
  AutomationResult,
  NewAutomationResult,
  PublishResult,
  RunListResult,
  RunResult,
} from './schemas.js';
import { sendWarnings } from './send-warnings.js';

const Kind = Type.Union([Type.Literal('flow'), Type.Literal('sequence')]);
const ListQuery = Type.Object({ kind: Type.Optional(Kind), archived: Type.Boolean({ default: false }) });
// The definition is checked by the automation module itself (parseDefinition), with its own messages.
const CreateBody = Type.Object(
  { kind: Kind, definition: Type.Unknown(), publish: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
const DraftBody = Type.Object({ definition: Type.Unknown() }, { additionalProperties: false });
const RunParams = Type.Object({ id: Text({ minLength: 1, maxLength: 64 }) });
const RunStatus = Type.Unsafe<'running' | 'waiting' | 'completed' | 'failed' | 'stopped'>({
  type: 'string',
  enum: ['running', 'waiting', 'completed', 'failed', 'stopped'],
});
const RunsQuery = Type.Object({
  status: Type.Optional(RunStatus),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
});

function present(ctx: AppContext, a: AutomationView) {
  const { secret: _secret, ...rest } = a;
  return {
    ...rest,
    status: statusOf(a),
    warnings: sendWarnings(a.draft),
    unpublished_changes: a.published_version !== null && a.published_version !== a.draft_version,
    webhook: webhookLinks(ctx, a),
  };
}

/** Flows and sequences: the builder's drafts, publish and unpublish, webhook secrets, run history. */
export function registerAppAutomationRoutes(app: RestApp): void {
  const { ctx } = app;

  const found = async (workspaceId: string, id: string) => {
    const a = await getAutomation(ctx, workspaceId, id);
    if (!a) throw new ApiError('not_found', 'No flow or sequence with that id');
    return a;
  };
  // Saves that span several statements of their own are recorded as they return.
  const record = (s: Session, a: { id: string; kind: 'flow' | 'sequence' }, action: AuditEntry['action']) =>
    recordAudit(ctx.db, {
      workspaceId: s.workspaceId,
      actor: userActor(s),
      action,
      entityType: a.kind,
      entityId: a.id,
      ...(action === 'update' ? { changes: { fields: ['definition'] } } : {}),
    });

  app.get(
    '/automations',
    { schema: { querystring: ListQuery, response: { 200: AutomationListResult } } },
    async (request) => {
      const s = request.session();
      const list = await listAutomations(ctx, s.workspaceId, request.query.kind, request.query.archived);
      const stats = await runCounts(ctx.db, s.workspaceId);
      return {
        result: true as const,
        automations: list.map((a) => ({
          ...present(ctx, a),
          runs: stats.get(a.id)?.runs ?? 0,
          last_run_at: stats.get(a.id)?.last_run_at ?? null,
        })),
      };
    },
  );

  app.get(
    '/automations/:id',
    { schema: { params: IdParams, response: { 200: AutomationResult } } },
    async (request) => {
      const s = request.session();
      const a = await found(s.workspaceId, request.params.id);
      const runs = await listRuns(ctx, s.workspaceId, { automationId: a.id, limit: 50 });
      return { result: true as const, automation: present(ctx, a), runs };
    },
  );

  app.post(
    '/automations',
    { schema: { body: CreateBody, response: { 201: NewAutomationResult } } },
    async (request, reply) => {
      const s = request.session();
      const { kind, definition, publish } = request.body;
      const saved = await createAutomation(ctx, s.workspaceId, definition, {
        publish: publish ?? false,
        expectKind: kind,
      });
      await record(s, saved, 'create');
      if (saved.published_version !== null) await record(s, saved, 'publish');
      return reply.code(201).send({ result: true as const, id: saved.id, kind: saved.kind });
    },
  );

  app.put(
    '/automations/:id',
    { schema: { params: IdParams, body: DraftBody, response: { 200: Done } } },
    async (request) => {
      const s = request.session();
      const a = await found(s.workspaceId, request.params.id);
      await updateDraft(ctx, s.workspaceId, request.params.id, request.body.definition);
      await record(s, a, 'update');
      return { result: true as const };
    },
  );

  app.post(
    '/automations/:id/publish',
    { schema: { params: IdParams, response: { 200: PublishResult } } },
    async (request) => {
      const s = request.session();
      const a = await found(s.workspaceId, request.params.id);
      const version = await publishAutomation(ctx, s.workspaceId, request.params.id);
      await record(s, a, 'publish');
      return { result: true as const, version };
    },
  );

  app.post(
    '/automations/:id/unpublish',
    { schema: { params: IdParams, response: { 200: Done } } },
    async (request) => {
      const s = request.session();
      const a = await found(s.workspaceId, request.params.id);
      await audited(
        ctx.db,
        (tx) => unpublishAutomation(tx, s.workspaceId, a.id),
        () => ({
          workspaceId: s.workspaceId,
          actor: userActor(s),
          action: 'unpublish',
          entityType: a.kind,
          entityId: a.id,
        }),
      );
      return { result: true as const };
    },
  );

  app.post(
    '/automations/:id/rotate-secret',
    { schema: { params: IdParams, response: { 200: Done } } },
    async (request) => {
      const s = request.session();
      const a = await found(s.workspaceId, request.params.id);
      await replaceSequenceSecret(ctx, s.workspaceId, a, userActor(s));
      return { result: true as const };
    },
  );

  // Archiving unpublishes in the same transaction: nothing starts it until restored and published again.
  registerArchiveRoutes(
    app,
    '/automations',
    {
      table: 'automations',
      entityType: (row) => (row.kind === 'sequence' ? 'sequence' : 'flow'),
      notFound: 'No flow or sequence with that id',
      also: (tx, c) => (c.archived ? unpublishAutomation(tx, c.workspaceId, c.id) : Promise.resolve()),
    },
    true,
  );

  app.get(
    '/runs',
    { schema: { querystring: RunsQuery, response: { 200: RunListResult } } },
    async (request) => {
      const { status, limit, offset } = request.query;
      const rows = await listRuns(ctx, request.session().workspaceId, { status, limit: limit + 1, offset });
      return {
        result: true as const,
        runs: rows.slice(0, limit),
        has_next_page: rows.length > limit,
        limit,
        offset,
      };
    },
  );

  app.get('/runs/:id', { schema: { params: RunParams, response: { 200: RunResult } } }, async (request) => {
    const run = await getRun(ctx, request.session().workspaceId, request.params.id);
    if (!run) throw new ApiError('not_found', 'No run with that id');
    return { result: true as const, run };
  });
}
