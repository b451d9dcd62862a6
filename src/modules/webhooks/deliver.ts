import { Webhook } from 'standardwebhooks';
import { fetch } from 'undici';
import type { AppContext } from '../../context.js';
import { readCapped } from '../../lib/read-capped.js';
import { assertAllowedHost, guardedAgent } from './safe-fetch.js';

export class DeliveryFailedError extends Error {}

let agents: { strict: ReturnType<typeof guardedAgent>; open: ReturnType<typeof guardedAgent> } | undefined;

/**
 * The `webhooks.deliver` job: one signed POST (Standard Webhooks: webhook-id, webhook-timestamp,
 * webhook-signature). A non-2xx answer or a network error throws so the queue retries with backoff;
 * after the last try the delivery is marked failed.
 */
export async function deliverWebhook(
  ctx: AppContext,
  data: { workspaceId: string; deliveryId: string },
  lastTry: boolean,
): Promise<void> {
  const { rows } = await ctx.db.query<{ url: string; secret_enc: string; payload: unknown; status: string }>(
    `SELECT e.url, e.secret_enc, d.payload, d.status FROM webhook_deliveries d
     JOIN webhook_endpoints e ON e.workspace_id = d.workspace_id AND e.id = d.endpoint_id
     WHERE d.workspace_id = $1 AND d.id = $2`,
    [data.workspaceId, data.deliveryId],
  );
  const row = rows[0];
  if (row?.status !== 'pending') return;
  const body = JSON.stringify(row.payload);
  const now = new Date();
  const signature = new Webhook(ctx.secrets.open(row.secret_enc)).sign(data.deliveryId, now, body);
  agents ??= { strict: guardedAgent(false), open: guardedAgent(true) };
  let status = 0;
  let error: string | null = null;
  try {
    assertAllowedHost(row.url, ctx.config.allowPrivateWebhooks);
    const res = await fetch(row.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': data.deliveryId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
        'user-agent': 'Parley-Webhooks/1',
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
      dispatcher: ctx.config.allowPrivateWebhooks ? agents.open : agents.strict,
    });
    status = res.status;
    // Only the status counts; a few KiB are read so a short answer still ends on a reusable
    // connection, and a huge or endless one is cut off there.
    await readCapped(res.body, 4096).catch(() => {});
  } catch (err) {
    error =
      (err as Error).cause instanceof Error
        ? ((err as Error).cause as Error).message
        : (err as Error).message;
  }
  const delivered = status >= 200 && status < 300;
  await ctx.db.query(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = $3, last_error = $4,
       status = CASE WHEN $5 THEN 'delivered' WHEN $6 THEN 'failed' ELSE status END,
       delivered_at = CASE WHEN $5 THEN now() ELSE delivered_at END
     WHERE workspace_id = $1 AND id = $2`,
    [
      data.workspaceId,
      data.deliveryId,
      status || null,
      error ?? (delivered ? null : `HTTP ${status}`),
      delivered,
      lastTry,
    ],
  );
  if (!delivered && !lastTry) throw new DeliveryFailedError(error ?? `HTTP ${status}`);
}
