import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { newId } from '../../lib/ids.js';
import { sendingNumber } from '../messaging/connected-numbers.js';
import { approvedTemplate } from './approved-template.js';
import { checkAudience } from './audience.js';
import { checkValues } from './fill-values.js';
import { getBroadcast } from './get-broadcast.js';
import { scheduleDelivery } from './schedule-delivery.js';
import type { Broadcast, CreateBroadcastBody } from './schemas.js';

const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
// A start a little in the past (the form took a moment) is now.
const PAST_GRACE_MS = 60_000;

/**
 * When to start: a time with an offset as it says, one without in the workspace's time zone
 * (PostgreSQL's zone rules, the same IANA database), null for now. 422 for a time in the past.
 */
async function startTime(ctx: AppContext, sendAt: string | null | undefined, timeZone: string) {
  if (!sendAt) return null;
  const local = LOCAL_TIME.test(sendAt);
  if (!local && !WITH_OFFSET.test(sendAt))
    throw ApiError.invalid(
      'send_at',
      'Give a date and time such as 2026-12-01T09:00 (in the workspace time zone) or 2026-12-01T09:00:00+05:30.',
    );
  const { rows } = await ctx.db
    .query<{ at: Date | null }>(
      `SELECT CASE WHEN $3 THEN $1::timestamp AT TIME ZONE $2 ELSE $1::timestamptz END AS at`,
      [sendAt, timeZone, local],
    )
    .catch(() => ({ rows: [{ at: null }] }));
  const at = rows[0]?.at;
  if (!at || Number.isNaN(at.getTime()))
    throw ApiError.invalid('send_at', `${sendAt} is not a date and time that exists.`);
  if (at.getTime() < Date.now() - PAST_GRACE_MS)
    throw ApiError.invalid(
      'send_at',
      'That time has passed: choose a later one, or leave it empty to send now.',
    );
  return at;
}

/** POST /broadcasts: checked whole (number, template, values against its components, audience, time), then stored and started or scheduled. */
export async function createBroadcast(
  ctx: AppContext,
  workspaceId: string,
  input: CreateBroadcastBody,
): Promise<Broadcast> {
  if (!(await sendingNumber(ctx, workspaceId)))
    throw new ApiError(
      'no_connected_number',
      'The workspace has no connected WhatsApp number; connect one in Settings',
    );
  const template = await approvedTemplate(ctx.db, workspaceId, input.template);
  checkValues(template.needs, input.values);
  await checkAudience(ctx.db, workspaceId, input.audience, 'audience');
  const { rows: ws } = await ctx.db.query<{ time_zone: string }>(
    'SELECT time_zone FROM workspaces WHERE id = $1',
    [workspaceId],
  );
  const timeZone = ws[0]?.time_zone ?? 'UTC';
  const at = await startTime(ctx, input.send_at, timeZone);
  const status = input.draft ? 'draft' : at && at.getTime() > Date.now() ? 'scheduled' : 'sending';
  const id = newId('brd');
  await ctx.db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO broadcasts (workspace_id, id, name, status, template_name, template_language, template_category,
         audience, "values", send_at, time_zone, reply_window_hours, started_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11, $12, CASE WHEN $4 = 'sending' THEN now() END)`,
      [
        workspaceId,
        id,
        input.name.trim() || input.name,
        status,
        template.name,
        template.language,
        template.category,
        JSON.stringify(input.audience),
        JSON.stringify(input.values),
        at,
        timeZone,
        input.reply_window_hours ?? 24,
      ],
    );
    if (status !== 'draft') await scheduleDelivery(ctx, { workspaceId, broadcastId: id }, at, tx);
  });
  if (status === 'sending') ctx.queue?.wake('broadcasts.deliver');
  return getBroadcast(ctx.db, workspaceId, id);
}
