import type { FastifyInstance } from 'fastify';
import type { SimNumber, SimState } from './state.js';
import { deliver } from './webhooks.js';

const TIER = /^TIER_(\d+K?|UNLIMITED)$/;
const RATINGS = new Set(['GREEN', 'YELLOW', 'RED', 'UNKNOWN']);

/** A business account change about its numbers, as Meta sends it (entry id: the account). */
function accountChange(number: SimNumber, field: string, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      { id: number.businessAccountId, time: Math.floor(Date.now() / 1000), changes: [{ field, value }] },
    ],
  };
}

/**
 * Control routes that change what Meta says of a number and send the webhook Meta sends for it:
 * `phone_number_quality_update` (a new messaging limit tier, a quality flag), `account_update` (the
 * business account disabled, reinstated...) and `phone_number_name_update` (a display name decided).
 */
export function numberUpdateRoutes(app: FastifyInstance, state: SimState): void {
  const numberOf = (id: string) => state.numbers.get(id);

  app.post<{
    Params: { phoneNumberId: string };
    Body: { event?: unknown; current_limit?: unknown; quality_rating?: unknown };
  }>('/numbers/:phoneNumberId/quality_update', async (request, reply) => {
    const number = numberOf(request.params.phoneNumberId);
    if (!number) return reply.code(404).send({ error: 'no such number' });
    const { event, current_limit: limit, quality_rating: rating } = request.body ?? {};
    if (limit !== undefined && (typeof limit !== 'string' || !TIER.test(limit)))
      return reply.code(400).send({
        error: 'current_limit is one of TIER_250, TIER_1K, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED',
      });
    if (rating !== undefined && (typeof rating !== 'string' || !RATINGS.has(rating)))
      return reply.code(400).send({ error: 'quality_rating is one of GREEN, YELLOW, RED, UNKNOWN' });
    if (event !== undefined && (typeof event !== 'string' || !/^[A-Z_]{1,40}$/.test(event)))
      return reply
        .code(400)
        .send({ error: 'event is one of Meta’s, such as UPGRADE, DOWNGRADE, FLAGGED, UNFLAGGED' });
    if (limit === undefined && rating === undefined && event === undefined)
      return reply.code(400).send({ error: 'give current_limit, quality_rating or event' });
    const before = number.messagingLimitTier ?? 'TIER_1K';
    if (limit) number.messagingLimitTier = limit;
    if (rating) number.qualityRating = rating;
    const value = {
      display_phone_number: number.displayPhone.replace(/\D/g, ''),
      event: event ?? (rating ? (rating === 'RED' ? 'FLAGGED' : 'UNFLAGGED') : 'UPGRADE'),
      ...(limit ? { old_limit: before } : {}),
      current_limit: number.messagingLimitTier ?? 'TIER_1K',
    };
    return {
      delivered_status: await deliver(number, accountChange(number, 'phone_number_quality_update', value)),
    };
  });

  app.post<{
    Params: { phoneNumberId: string };
    Body: { event?: unknown; ban_state?: unknown; violation_type?: unknown };
  }>('/numbers/:phoneNumberId/account_update', async (request, reply) => {
    const number = numberOf(request.params.phoneNumberId);
    if (!number) return reply.code(404).send({ error: 'no such number' });
    const { event, ban_state: ban, violation_type: violation } = request.body ?? {};
    if (typeof event !== 'string' || !/^[A-Z_]{1,60}$/.test(event))
      return reply
        .code(400)
        .send({ error: 'event is one of Meta’s, such as DISABLED_UPDATE, ACCOUNT_VIOLATION' });
    const value = {
      event,
      ...(typeof ban === 'string'
        ? { ban_info: { waba_ban_state: ban, waba_ban_date: new Date().toDateString() } }
        : {}),
      ...(typeof violation === 'string' ? { violation_info: { violation_type: violation } } : {}),
    };
    return { delivered_status: await deliver(number, accountChange(number, 'account_update', value)) };
  });

  app.post<{ Params: { phoneNumberId: string }; Body: { verified_name?: unknown; decision?: unknown } }>(
    '/numbers/:phoneNumberId/name_update',
    async (request, reply) => {
      const number = numberOf(request.params.phoneNumberId);
      if (!number) return reply.code(404).send({ error: 'no such number' });
      const { verified_name: name, decision = 'APPROVED' } = request.body ?? {};
      if (typeof name !== 'string' || name.length === 0 || name.length > 200)
        return reply.code(400).send({ error: 'verified_name is required' });
      if (decision !== 'APPROVED' && decision !== 'REJECTED' && decision !== 'DEFERRED')
        return reply.code(400).send({ error: 'decision is APPROVED, REJECTED or DEFERRED' });
      if (decision === 'APPROVED') number.verifiedName = name;
      const value = {
        display_phone_number: number.displayPhone.replace(/\D/g, ''),
        decision,
        requested_verified_name: name,
        rejection_reason: decision === 'REJECTED' ? 'NAME_FORMAT_UNACCEPTABLE' : 'NONE',
      };
      return {
        delivered_status: await deliver(number, accountChange(number, 'phone_number_name_update', value)),
      };
    },
  );
}
