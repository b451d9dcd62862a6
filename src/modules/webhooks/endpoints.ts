import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';

export const WEBHOOK_EVENTS = [
  'message.status',
  'message.received',
  'lead.created',
  'flow.run.finished',
  'contact.opted_out',
  'contact.opted_in',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Adds an endpoint; its signing secret (Standard Webhooks `whsec_...`) is shown once and stored sealed. */
export async function createEndpoint(
  ctx: AppContext,
  workspaceId: string,
  url: string,
  events: string[] = [...WEBHOOK_EVENTS],
): Promise<{ id: string; secret: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw ApiError.validation('url', 'the URL is not valid');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw ApiError.validation('url', 'the URL must be http or https');
  const unknown = events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (unknown.length)
    throw ApiError.validation(
      'events',
      `unknown: ${unknown.join(', ')} (known: ${WEBHOOK_EVENTS.join(', ')})`,
    );
  const id = newId('we');
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  await ctx.db.query(
    'INSERT INTO webhook_endpoints (workspace_id, id, url, secret_enc, events) VALUES ($1, $2, $3, $4, $5)',
    [workspaceId, id, parsed.toString(), ctx.secrets.seal(secret), events],
  );
  return { id, secret };
}
