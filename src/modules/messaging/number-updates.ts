import type { AppContext } from '../../context.js';
import { storableText } from './cloud-api/error-code.js';
import { publish, runAfterCommit } from './events.js';
import { refreshNumberHealth } from './number-health.js';
import type { ConnectedNumber } from './number-types.js';
import { pauseNumber, resumeNumber } from './pause-number.js';
import { isObject, type Read } from './webhook-items.js';

/** The business account's webhook fields about its numbers, applied by applyNumberUpdate. */
export const NUMBER_FIELDS = new Set([
  'phone_number_quality_update',
  'account_update',
  'phone_number_name_update',
]);

type NumberUpdate =
  | { kind: 'quality'; event: string | null; tier: string | null }
  | { kind: 'account'; event: string; banState: string | null }
  | { kind: 'name'; decision: string; name: string | null }
  | null;

const TIER = /^TIER_(\d{1,6}K?|UNLIMITED)$/;

/**
 * Meta's messaging limit from a quality update: `current_limit` (TIER_250, TIER_1K, TIER_2K,
 * TIER_10K, TIER_100K, TIER_UNLIMITED), or `max_daily_conversations_per_business`, which replaces it
 * in 2026, as a tier or a count (1000 stands for TIER_1K).
 */
function tierOf(v: Record<string, unknown>): string | null {
  for (const given of [v.current_limit, v.max_daily_conversations_per_business]) {
    if (typeof given === 'string' && TIER.test(given)) return given;
    const count =
      typeof given === 'number'
        ? given
        : typeof given === 'string' && /^\d{1,9}$/.test(given)
          ? Number(given)
          : NaN;
    if (Number.isSafeInteger(count) && count > 0)
      return count % 1000 === 0 ? `TIER_${count / 1000}K` : `TIER_${count}`;
  }
  return null;
}

const word = (v: unknown) => (typeof v === 'string' && v.length > 0 ? storableText(v, 100) : null);
const digits = (v: string) => v.replace(/\D/g, '');

/**
 * One change of a number field, for this number: a quality update names the number by its display
 * number (a business account may hold several); an account update concerns all of the account's.
 */
export function readNumberUpdate(
  field: string,
  value: Record<string, unknown>,
  number: ConnectedNumber,
): Read<NumberUpdate> {
  const display = value.display_phone_number;
  if (
    display !== undefined &&
    (typeof display !== 'string' || digits(display) !== digits(number.displayPhone))
  )
    return { ok: true, value: null };
  const event = word(value.event);
  if (field === 'phone_number_quality_update') {
    const tier = tierOf(value);
    if (!event && !tier) return { ok: false, problem: 'quality update without event or limit' };
    return { ok: true, value: { kind: 'quality', event, tier } };
  }
  if (field === 'account_update') {
    if (!event) return { ok: false, problem: 'account update without event' };
    const ban = isObject(value.ban_info) ? word(value.ban_info.waba_ban_state) : null;
    return { ok: true, value: { kind: 'account', event, banState: ban } };
  }
  const decision = word(value.decision);
  if (!decision) return { ok: false, problem: 'name update without decision' };
  return { ok: true, value: { kind: 'name', decision, name: word(value.requested_verified_name) } };
}

// Meta's account states that stop every send from the account's numbers, and the one that lifts them.
const STOPPED = new Set(['DISABLE', 'SCHEDULE_FOR_DISABLE']);
const ACCOUNT_LOCKED = 131031;

/**
 * Keeps the number's health current from Meta's webhooks: a new messaging limit tier is stored at
 * once and published (the broadcasts waiting for the limit look again); a quality flag is read again from the Graph
 * API (the webhook says flagged or not, not the rating); an approved display name is kept; an account
 * Meta disables (or deletes) pauses the number, and one it reinstates resumes it.
 */
export async function applyNumberUpdate(ctx: AppContext, number: ConnectedNumber, update: NumberUpdate) {
  if (!update) return;
  if (update.kind === 'quality') {
    if (update.tier && (await saveTier(ctx, number, update.tier)))
      await runAfterCommit(
        await publish(ctx, ctx.db, 'number.limit_changed', { workspaceId: number.workspaceId }),
      );
    if (update.event === 'FLAGGED' || update.event === 'UNFLAGGED')
      refreshNumberHealth(ctx, number).catch((err: unknown) =>
        ctx.log.warn({ err, numberId: number.id }, 'quality read failed'),
      );
    return;
  }
  if (update.kind === 'name') {
    if (update.decision === 'APPROVED' && update.name)
      await ctx.db.query(
        'UPDATE connected_numbers SET verified_name = $3 WHERE workspace_id = $1 AND id = $2',
        [number.workspaceId, number.id, update.name],
      );
    return;
  }
  if (
    update.event === 'ACCOUNT_DELETED' ||
    (update.event === 'DISABLED_UPDATE' && STOPPED.has(update.banState ?? ''))
  ) {
    const what = update.event === 'ACCOUNT_DELETED' ? 'deleted' : 'disabled';
    await pauseNumber(ctx, number, {
      code: ACCOUNT_LOCKED,
      reason: `Meta ${what} the WhatsApp Business Account (account_update ${update.event}${update.banState ? ` ${update.banState}` : ''})`,
    });
  } else if (update.event === 'DISABLED_UPDATE' && update.banState === 'REINSTATE') {
    await resumeNumber(ctx, number.workspaceId);
  } else {
    ctx.log.info({ numberId: number.id, event: update.event }, 'account update from Meta');
  }
}

/** Stores the tier; true when it changed. */
async function saveTier(ctx: AppContext, number: ConnectedNumber, tier: string): Promise<boolean> {
  const { rows } = await ctx.db.query<{ before: string | null }>(
    `UPDATE connected_numbers n SET messaging_limit_tier = $3, health_checked_at = now()
     FROM (SELECT id, messaging_limit_tier AS before FROM connected_numbers
           WHERE workspace_id = $1 AND id = $2 FOR UPDATE) o
     WHERE n.workspace_id = $1 AND n.id = o.id RETURNING o.before`,
    [number.workspaceId, number.id, tier],
  );
  return rows.length > 0 && rows[0]!.before !== tier;
}
