import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { newId, newSecret } from '../../lib/ids.js';
import { type Definition, kindOf, parseDefinition } from './definition.js';
import { checkTemplateSteps } from './steps/template-values.js';

export interface SavedAutomation {
  id: string;
  kind: 'flow' | 'sequence';
  /** Webhook sequences only; shown when created (and readable later by the workspace's team). */
  secret: string | null;
  published_version: number | null;
}

const notFound = (id: string) => new ApiError('not_found', `No flow or sequence ${id}`);

function triggerColumns(d: Definition) {
  return {
    type: d.trigger.type,
    event: d.trigger.type === 'event' ? d.trigger.event : null,
    formId: d.trigger.type === 'form_submitted' ? (d.trigger.form_id ?? null) : null,
  };
}

/**
 * A definition checked for its shape, its graph and the workspace's templates. Done before a save's
 * transaction: the embedded database answers nothing else while one is open.
 */
export async function checkDefinition(
  ctx: AppContext,
  workspaceId: string,
  input: unknown,
): Promise<Definition> {
  const definition = parseDefinition(input);
  await checkTemplateSteps(ctx, workspaceId, definition);
  return definition;
}

/**
 * Creates a flow or sequence from a definition (validated here), optionally publishing it at once.
 * `within` writes more in the same transaction (an audit entry, an idempotent request's answer).
 */
export async function createAutomation(
  ctx: AppContext,
  workspaceId: string,
  input: unknown,
  options: {
    publish?: boolean;
    expectKind?: 'flow' | 'sequence';
    within?: (tx: Queryable, saved: SavedAutomation) => Promise<void>;
  } = {},
): Promise<SavedAutomation> {
  const definition = await checkDefinition(ctx, workspaceId, input);
  const kind = kindOf(definition.trigger);
  if (options.expectKind && options.expectKind !== kind) {
    throw ApiError.validation(
      'definition.trigger',
      kind === 'flow'
        ? 'a sequence is started by a webhook, a form or a new lead, not by an event: use "flow create"'
        : 'a flow is started by an event (trigger {"type": "event", "event": "..."}): use "sequence create"',
    );
  }
  const id = newId(kind === 'flow' ? 'fl' : 'sq');
  const secret = definition.trigger.type === 'webhook' ? newSecret('whsec_') : null;
  const t = triggerColumns(definition);
  return ctx.db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO automations (workspace_id, id, kind, name, trigger_type, trigger_event, trigger_form_id, secret_enc, draft)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
      [
        workspaceId,
        id,
        kind,
        definition.name,
        t.type,
        t.event,
        t.formId,
        secret ? ctx.secrets.seal(secret) : null,
        JSON.stringify(definition),
      ],
    );
    const published = options.publish ? await publishVersion(tx, workspaceId, id) : null;
    const saved: SavedAutomation = { id, kind, secret, published_version: published };
    await options.within?.(tx, saved);
    return saved;
  });
}

/**
 * Replaces the draft. The trigger's kind cannot change (a flow stays a flow); published versions are
 * untouched until the next publish.
 */
export async function updateDraft(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  input: unknown,
): Promise<void> {
  const definition = await checkDefinition(ctx, workspaceId, input);
  await writeDraft(ctx, ctx.db, workspaceId, id, definition);
}

/**
 * Writes a checked definition as the new draft version. `triggerField` names the trigger in a
 * refusal as the caller's body does.
 */
export async function writeDraft(
  ctx: AppContext,
  q: Queryable,
  workspaceId: string,
  id: string,
  definition: Definition,
  triggerField = 'definition.trigger',
): Promise<void> {
  const t = triggerColumns(definition);
  const { rows } = await q.query<{ kind: string; secret_enc: string | null }>(
    'SELECT kind, secret_enc FROM automations WHERE workspace_id = $1 AND id = $2',
    [workspaceId, id],
  );
  const current = rows[0];
  if (!current) throw notFound(id);
  if (current.kind !== kindOf(definition.trigger)) {
    throw ApiError.validation(
      triggerField,
      `a ${current.kind} keeps its kind: its trigger cannot become a ${kindOf(definition.trigger)} trigger`,
    );
  }
  const secret =
    t.type === 'webhook' && !current.secret_enc ? ctx.secrets.seal(newSecret('whsec_')) : current.secret_enc;
  await q.query(
    `UPDATE automations SET name = $3, draft = $4::jsonb, draft_version = draft_version + 1, trigger_type = $5,
       trigger_event = $6, trigger_form_id = $7, secret_enc = $8, updated_at = now()
     WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, id, definition.name, JSON.stringify(definition), t.type, t.event, t.formId, secret],
  );
}

/**
 * Publishes the draft as a new immutable version (or keeps the latest when the draft has not changed
 * since) and makes it the one new runs start on. Returns the published version number.
 */
export async function publishAutomation(ctx: AppContext, workspaceId: string, id: string): Promise<number> {
  return ctx.db.transaction((tx) => publishVersion(tx, workspaceId, id));
}

/** publishAutomation inside the caller's transaction. */
export async function publishVersion(tx: Queryable, workspaceId: string, id: string): Promise<number> {
  const { rows } = await tx.query<{ draft_version: number; latest: number | null; archived: boolean }>(
    `SELECT a.draft_version, a.archived_at IS NOT NULL AS archived, (SELECT max(version) FROM automation_versions v
       WHERE v.workspace_id = a.workspace_id AND v.automation_id = a.id) AS latest
     FROM automations a WHERE a.workspace_id = $1 AND a.id = $2 FOR UPDATE`,
    [workspaceId, id],
  );
  const a = rows[0];
  if (!a) throw notFound(id);
  if (a.archived) throw new ApiError('conflict', 'This is archived: restore it before publishing it');
  if (a.latest !== a.draft_version) {
    await tx.query(
      `INSERT INTO automation_versions (workspace_id, automation_id, version, definition)
       SELECT workspace_id, id, draft_version, draft FROM automations WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id],
    );
  }
  await tx.query(
    'UPDATE automations SET published_version = draft_version, updated_at = now() WHERE workspace_id = $1 AND id = $2',
    [workspaceId, id],
  );
  return a.draft_version;
}

/** Stops new runs; runs already under way go on to their end on the version they started on. */
export async function unpublishAutomation(db: Queryable, workspaceId: string, id: string): Promise<void> {
  const { rows } = await db.query(
    `UPDATE automations SET published_version = NULL, updated_at = now() WHERE workspace_id = $1 AND id = $2
     RETURNING id`,
    [workspaceId, id],
  );
  if (!rows[0]) throw notFound(id);
}
