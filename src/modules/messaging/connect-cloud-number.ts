import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { newSecret } from '../../lib/ids.js';
import { syncTemplates } from '../templates/sync-templates.js';
import { CloudApiClient, CloudApiError } from './cloud-api/client.js';
import {
  connectNumber,
  numberOfWorkspace,
  numbersByPhoneNumberId,
  saveNumberHealth,
} from './connected-numbers.js';

export interface CloudNumberInput {
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
}

/**
 * The verify token Meta's app settings are given with the app-level callback URL: one per server,
 * derived from PARLEY_SECRET_KEY, so every process answers the handshake alike and nothing is stored.
 */
export function webhookVerifyToken(ctx: AppContext): string {
  return `parley_${ctx.secrets.derive('whatsapp-webhook-verify-token').slice(0, 32)}`;
}

/** The one callback URL for Meta's app settings; it routes each payload by its phone_number_id. */
export function appWebhookUrl(ctx: AppContext): string {
  return `${ctx.config.appUrl}/api/webhooks/whatsapp`;
}

/** Graph error codes worth naming to the person filling the form. */
const INVALID_TOKEN = 190;
const NO_SUCH_OBJECT = 100;
const NO_PERMISSION = new Set([10, 200, 294]);

/** What Meta's refusal means for the form, in plain words, on the field at fault. */
function formError(err: unknown, idField: 'phone_number_id' | 'business_account_id'): ApiError {
  if (!(err instanceof CloudApiError)) throw err;
  if (err.transient || err.httpStatus === 0) {
    return new ApiError(
      'unavailable',
      `Parley could not reach Meta to check the number (${err.message}); try again`,
    );
  }
  if (err.code === INVALID_TOKEN || err.httpStatus === 401) {
    return ApiError.invalid('access_token', 'Meta did not accept this access token');
  }
  if (NO_PERMISSION.has(err.code) || err.httpStatus === 403) {
    return ApiError.invalid(
      'access_token',
      'This access token lacks the whatsapp_business_messaging and whatsapp_business_management permissions',
    );
  }
  if (err.code === NO_SUCH_OBJECT) {
    return idField === 'phone_number_id'
      ? ApiError.invalid(
          'phone_number_id',
          'Meta knows no phone number with this id that this access token can use',
        )
      : ApiError.invalid(
          'business_account_id',
          'Meta knows no WhatsApp Business Account with this id that this access token can use',
        );
  }
  return ApiError.invalid(idField, `Meta refused this number (${err.message})`);
}

/**
 * Connects a real WhatsApp number: the token must read the number from the Graph API, the app is
 * subscribed to the business account's webhooks, then the number is stored (secrets sealed), what
 * Meta says of it kept and its templates synced. Nothing is stored when Meta refuses.
 */
export async function connectCloudNumber(ctx: AppContext, workspaceId: string, input: CloudNumberInput) {
  const others = await numbersByPhoneNumberId(ctx, input.phoneNumberId);
  if (others.some((n) => n.workspaceId !== workspaceId)) {
    throw ApiError.invalid('phone_number_id', 'This number is connected to another workspace on this server');
  }
  const client = new CloudApiClient({
    baseUrl: ctx.config.graphApiUrl,
    version: ctx.config.graphApiVersion,
    accessToken: input.accessToken,
    timeoutMs: 15_000,
  });
  const info = await client.phoneNumber(input.phoneNumberId).catch((err: unknown) => {
    throw formError(err, 'phone_number_id');
  });
  await client.subscribeApp(input.businessAccountId).catch((err: unknown) => {
    throw formError(err, 'business_account_id');
  });
  await connectNumber(ctx, workspaceId, {
    ...input,
    displayPhone: text(info.display_phone_number) ?? input.phoneNumberId,
    // Meta is told the server-wide token (webhookVerifyToken); this one only guards the old per-number URL.
    verifyToken: newSecret('verify_'),
    graphBaseUrl: ctx.config.graphApiUrl,
  });
  const number = (await numberOfWorkspace(ctx, ctx.db, workspaceId))!;
  await saveNumberHealth(ctx.db, number, {
    verifiedName: text(info.verified_name),
    qualityRating: text(info.quality_rating),
    messagingLimitTier: text(info.messaging_limit_tier),
  });
  const synced = await syncTemplates(ctx, number).catch((err: Error) => err);
  return {
    id: number.id,
    templates_synced: typeof synced === 'number' ? synced : null,
    ...(typeof synced === 'number' ? {} : { sync_error: synced.message }),
  };
}

const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v.slice(0, 200) : null);
