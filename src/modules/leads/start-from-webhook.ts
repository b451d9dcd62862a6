import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { safeEqual } from '../../lib/constant-time.js';
import { enrollLead, findSequence, type SequenceForIntake } from '../automation/intake.js';
import { createLead } from './create-lead.js';
import { NO_CONTACT_DETAILS, readEmail, readName, readPhone } from './lead-identity.js';
import { type FirstAnswer, oncePer24Hours } from './replay-guard.js';
import { storableJson } from './storable-json.js';
import { validSignature } from './webhook-signature.js';

export interface WebhookRequest {
  sequenceId: string;
  /** The last path segment, on /api/automation/webhooks/{sequenceId}/{secret}. */
  pathSecret?: string;
  apiKey?: string;
  signature?: string;
  raw: Buffer;
}

export type WebhookStarted = FirstAnswer;

/**
 * POST /api/automation/webhooks/...: 404 unless the sequence exists, is started by a webhook and is
 * published; 401 unless the secret (path or x-api-key) or the body's HMAC matches; 400 for a body
 * that is not JSON; 422 when no lead can be made or `leadId` names no lead of the workspace.
 * A signed body seen in the last 24 hours answers as it did the first time and starts nothing.
 * `authenticated` runs once the caller is known, before the body is read (the sequence's rate limit).
 */
export async function startFromWebhook(
  ctx: AppContext,
  request: WebhookRequest,
  authenticated: () => Promise<void> = async () => {},
): Promise<WebhookStarted> {
  const sequence = await findSequence(ctx, request.sequenceId);
  if (sequence?.triggerType !== 'webhook' || !sequence.secret) {
    throw new ApiError('not_found', 'No workflow with this id is started by a webhook');
  }
  const signed = authenticate(sequence.secret, request);
  await authenticated();
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.raw.toString('utf8'));
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalid("Send a JSON object holding the lead's fields.");
  }
  const checked = storableJson(parsed);
  if (!checked.ok) throw invalid(checked.message);
  const body = checked.value as Record<string, unknown>;
  if (!sequence.publishedVersion) {
    throw new ApiError(
      'not_found',
      'The workflow is not published: publish it before starting it by webhook',
    );
  }
  if (!signed) return start(ctx, sequence, body);
  return oncePer24Hours(
    ctx,
    { workspaceId: sequence.workspaceId, sequenceId: sequence.id, raw: request.raw },
    () => start(ctx, sequence, body),
  );
}

/** Which credential is checked: the path secret, else x-api-key, else the signature. True when signed. */
function authenticate(secret: string, request: WebhookRequest): boolean {
  if (request.pathSecret !== undefined || request.apiKey !== undefined) {
    if (!safeEqual(request.pathSecret ?? request.apiKey ?? '', secret)) {
      throw new ApiError('unauthorized', 'The secret does not match');
    }
    return false;
  }
  if (request.signature === undefined) {
    throw new ApiError(
      'unauthorized',
      'Give the secret in the URL or in x-api-key, or sign the raw body: X-Webhook-Signature: sha256=<hex HMAC-SHA256>',
    );
  }
  if (!validSignature(request.signature, request.raw, secret)) {
    throw new ApiError('unauthorized', 'The signature does not match the body');
  }
  return true;
}

async function start(
  ctx: AppContext,
  sequence: SequenceForIntake,
  body: Record<string, unknown>,
): Promise<WebhookStarted> {
  if (body.leadId !== undefined) {
    const leadId = typeof body.leadId === 'string' ? body.leadId : '';
    const { leadId: _given, ...fields } = body;
    // The rest of the body joins the lead's fields, so the sequence's steps can read it.
    const { rows } = await ctx.db.query<{ contact_id: string | null }>(
      `UPDATE leads SET fields = fields || $3::jsonb, updated_at = now()
       WHERE workspace_id = $1 AND id = $2 RETURNING contact_id`,
      [sequence.workspaceId, leadId, JSON.stringify(fields)],
    );
    if (!rows[0]) throw invalid(`No lead with id "${leadId.slice(0, 64)}" in this workspace`);
    const run = await enrollLead(ctx, {
      workspaceId: sequence.workspaceId,
      sequenceId: sequence.id,
      leadId,
      contactId: rows[0].contact_id,
      payload: body,
    });
    return { leadId, runId: run.runId };
  }

  // A value the sender got wrong is dropped rather than losing the lead, as long as one way to
  // reach the person is left; the whole body is kept in the lead's fields either way.
  const email = readEmail(body.email);
  const phone = readPhone(body.phone ?? body.mobile, sequence.defaultCountryCode);
  const emailValue = email.ok ? email.value : null;
  const phoneValue = phone.ok ? phone.value : null;
  if (!emailValue && !phoneValue) {
    const problems = Object.entries({ email, phone })
      .filter(([, r]) => !r.ok)
      .map(([field, r]) => `${field}: ${(r as { message: string }).message}`);
    throw invalid(problems.length ? `No lead could be created: ${problems.join('; ')}` : NO_CONTACT_DETAILS);
  }
  const lead = {
    workspaceId: sequence.workspaceId,
    source: 'webhook' as const,
    sourceId: sequence.id,
    name: readName(body.name ?? body.full_name),
    email: emailValue,
    phone: phoneValue,
    fields: body,
  };
  // Started on the version published when the request was read, as an event's flows are.
  const created = await createLead(ctx, lead, {
    sequence: { id: sequence.id, version: sequence.publishedVersion! },
    payload: body,
  });
  return { leadId: created.id, runId: created.runId! };
}

function invalid(message: string): ApiError {
  return new ApiError('validation_error', message, [{ field: 'body', message }]);
}
