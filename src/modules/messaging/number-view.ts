import type { Static } from 'typebox';
import type { AppContext } from '../../context.js';
import { appWebhookUrl, webhookVerifyToken } from './connect-cloud-number.js';
import { numberOfWorkspace } from './connected-numbers.js';
import { numberProblem } from './number-problems.js';
import type { StoredNumber } from './number-types.js';
import type { ConnectedNumberView, NumberWebhook } from './schemas.js';
import { localSimulatorUrl } from './simulator-link.js';

/** The workspace's number as Settings › Connected number and REST v1 show it (null when none), secrets left out. */
export async function numberViewOfWorkspace(
  ctx: AppContext,
  workspaceId: string,
): Promise<Static<typeof ConnectedNumberView> | null> {
  const number = await numberOfWorkspace(ctx, ctx.db, workspaceId);
  return number && numberView(ctx, number);
}

function numberView(ctx: AppContext, number: StoredNumber): Static<typeof ConnectedNumberView> {
  return {
    id: number.id,
    display_phone: number.displayPhone,
    phone_number_id: number.phoneNumberId,
    business_account_id: number.businessAccountId,
    provider: number.graphBaseUrl === localSimulatorUrl(ctx) ? 'simulator' : 'whatsapp_cloud_api',
    status: number.paused ? 'paused' : 'connected',
    paused: number.paused && {
      at: number.paused.at.toISOString(),
      code: number.paused.code,
      reason: number.paused.reason,
      what_to_do: numberProblem(number.paused.code),
    },
    webhook_url: `${ctx.config.appUrl}/api/webhooks/whatsapp/${number.id}`,
    verified_name: number.verifiedName,
    quality_rating: number.qualityRating,
    messaging_limit_tier: number.messagingLimitTier,
    templates_synced_at: number.templatesSyncedAt?.toISOString() ?? null,
    connected_at: number.connectedAt.toISOString(),
  };
}

/** What Meta's app settings need; the verify token only for those who may connect a number. */
export function numberWebhook(ctx: AppContext, mayConnect: boolean): Static<typeof NumberWebhook> {
  return {
    callback_url: appWebhookUrl(ctx),
    ...(mayConnect ? { verify_token: webhookVerifyToken(ctx) } : {}),
  };
}
