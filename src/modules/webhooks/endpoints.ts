import { randomBytes } from 'node:crypto';
import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { newId } from '../../lib/ids.js';
import { privateAddressOf } from './safe-fetch.js';

export const WEBHOOK_EVENTS = [
  'message.status',
  'message.received',
  'lead.created',
  'flow.run.finished',
  'contact.opted_out',
  'contact.opted_in',
  'broadcast.completed',
  'number.paused',
  'number.resumed',
  'conversation.created',
  'conversation.assigned',
  'conversation.resolved',
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
    throw ApiError.invalid('url', 'Enter a full web address, such as https://example.com/hook.');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw ApiError.invalid('url', 'Use an address starting with https:// or http://.');
  const blocked = ctx.config.allowPrivateWebhooks ? null : await privateAddressOf(parsed);
  if (blocked)
    throw ApiError.invalid(
      'url',
      `${blocked} is a private or local address, which webhooks may not reach. The server's operator can allow such addresses with the setting WEBHOOKS_ALLOW_PRIVATE=true.`,
    );
  const unknown = events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (unknown.length)
    throw ApiError.invalid(
      'events',
      `Unknown events: ${unknown.join(', ')}. Choose from ${WEBHOOK_EVENTS.join(', ')}.`,
    );
  const id = newId('we');
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  await ctx.db.query(
    'INSERT INTO webhook_endpoints (workspace_id, id, url, secret_enc, events) VALUES ($1, $2, $3, $4, $5)',
    [workspaceId, id, parsed.toString(), ctx.secrets.seal(secret), events],
  );
  return { id, secret };
}
