import type { AppContext } from '../../context.js';
import { CloudApiError } from './cloud-api/client.js';
import type { GraphPhoneNumber } from './cloud-api/types.js';
import { clientFor, saveNumberHealth } from './connected-numbers.js';
import type { ConnectedNumber } from './number-types.js';

export interface NumberHealth {
  verifiedName: string | null;
  qualityRating: string | null;
  messagingLimitTier: string | null;
}

const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v.slice(0, 200) : null);

/** What Meta's `GET /{phone-number-id}` says of the number, as Parley keeps it. */
export const healthOf = (info: GraphPhoneNumber): NumberHealth => ({
  verifiedName: text(info.verified_name),
  qualityRating: text(info.quality_rating),
  messagingLimitTier: text(info.messaging_limit_tier),
});

/**
 * Reads the number's verified name, quality rating and messaging limit tier from Meta and keeps them;
 * null (what was kept stays) when Meta cannot be asked or refuses: connecting does not depend on it.
 */
export async function refreshNumberHealth(
  ctx: AppContext,
  number: ConnectedNumber,
): Promise<NumberHealth | null> {
  try {
    const health = healthOf(await clientFor(ctx, number, 10_000).phoneNumber(number.phoneNumberId));
    await saveNumberHealth(ctx.db, number, health);
    return health;
  } catch (err) {
    if (!(err instanceof CloudApiError)) throw err;
    ctx.log.warn(
      { err, numberId: number.id },
      "reading the number's health from Meta failed; what was kept stays",
    );
    return null;
  }
}
