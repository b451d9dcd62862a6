import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { sendingNumber } from '../messaging/connected-numbers.js';
import { approvedTemplate } from './approved-template.js';
import { completeIfSettled } from './complete-broadcast.js';
import type { BroadcastRow } from './get-broadcast.js';
import { currentTier, tierMax, usedLast24h } from './messaging-limit.js';
import { claimRecipients, type Feed, releaseBatch } from './release-batch.js';
import { scheduleDelivery } from './schedule-delivery.js';
import type { BroadcastStatus, PausedReason } from './schemas.js';
import { snapshotAudience } from './snapshot-audience.js';

// The lease a delivery holds, renewed every second while it runs (keepLease): a killed delivery's
// lapses within seconds, and the drain hands its broadcast on (reviveLapsedDeliveries).
const LEASE_SECONDS = 6;
const RENEW_MS = 1_000;
const BATCH = 200;
/** Batches whose sends may be on their way while the next is claimed and stored (a second of them at 1,000/s). */
const IN_FLIGHT_BATCHES = 5;
/** How often a broadcast whose recipients are all released looks whether the network has taken them all. */
const SETTLE_CHECK_MS = 3_000;
/** A job hands on to a fresh one after this long, so no job outlives its expiry. */
const SLICE_MS = 4 * 60_000;
/** A broadcast at its limit looks again at least this often (the tier may have been raised). */
const LIMIT_RECHECK_MS = 10 * 60_000;

type Leased = Pick<
  BroadcastRow,
  | 'id'
  | 'status'
  | 'template_name'
  | 'template_language'
  | 'template_category'
  | 'audience'
  | 'values'
  | 'snapshot_done'
> & { snapshot_after: string | null };

type Job = { workspaceId: string; broadcastId: string };

/**
 * Takes (or renews) the broadcast's lease for a delivery that may go on: sending, waiting for the
 * limit, or scheduled and due. A scheduled one becomes sending here, once, whichever job gets it.
 */
async function lease(ctx: AppContext, job: Job, owner: string): Promise<Leased | null> {
  const { rows } = await ctx.db.query<Leased>(
    `UPDATE broadcasts SET status = CASE WHEN status = 'scheduled' THEN 'sending' ELSE status END,
       started_at = coalesce(started_at, now()), lease_owner = $3,
       lease_until = now() + make_interval(secs => ${LEASE_SECONDS}), updated_at = now()
     WHERE workspace_id = $1 AND id = $2
       AND (status IN ('sending', 'waiting_for_limit') OR (status = 'scheduled' AND send_at <= now() + interval '1 second'))
       AND (lease_until IS NULL OR lease_until < now() OR lease_owner = $3)
     RETURNING id, status, template_name, template_language, template_category, audience, "values",
       snapshot_done, snapshot_after`,
    [job.workspaceId, job.broadcastId, owner],
  );
  return rows[0] ?? null;
}

async function setStatus(
  ctx: AppContext,
  job: Job,
  owner: string,
  status: BroadcastStatus,
  {
    waitingUntil = null,
    pausedReason = null,
  }: { waitingUntil?: Date | null; pausedReason?: PausedReason | null } = {},
) {
  await ctx.db.query(
    `UPDATE broadcasts SET status = $4, waiting_until = $5, paused_reason = $6, updated_at = now()
     WHERE workspace_id = $1 AND id = $2 AND lease_owner = $3 AND status IN ('sending', 'waiting_for_limit')`,
    [job.workspaceId, job.broadcastId, owner, status, waitingUntil, pausedReason],
  );
}

/** A job that could not take the lease comes back when the holder's runs out, if the broadcast still needs one. */
async function retryLater(ctx: AppContext, job: Job) {
  const { rows } = await ctx.db.query<{
    status: BroadcastStatus;
    lease_until: Date | null;
    send_at: Date | null;
  }>('SELECT status, lease_until, send_at FROM broadcasts WHERE workspace_id = $1 AND id = $2', [
    job.workspaceId,
    job.broadcastId,
  ]);
  const b = rows[0];
  if (!b) return;
  if (b.status === 'scheduled' && b.send_at) await scheduleDelivery(ctx, job, b.send_at);
  else if ((b.status === 'sending' || b.status === 'waiting_for_limit') && b.lease_until)
    await scheduleDelivery(ctx, job, new Date(b.lease_until.getTime() + 1_000));
}

/**
 * The broadcasts.deliver job: snapshots the audience, then releases recipients a batch at a time
 * through the send path while the broadcast is sending, never past the number's messaging limit
 * (unique recipients in a rolling 24 hours; at it the broadcast waits for the window to free), and
 * completes it once every message is settled. At least once like every job; at most one message per
 * recipient by the messages' source keys, and one delivery at a time by the lease.
 */
export async function deliverBroadcast(ctx: AppContext, job: Job): Promise<void> {
  const owner = randomUUID();
  const b = await lease(ctx, job, owner);
  if (!b) return retryLater(ctx, job);
  let next: Date | null = null;
  const renewing = keepLease(ctx, job, owner);
  try {
    next = await deliver(ctx, job, owner, b);
  } finally {
    clearInterval(renewing);
    await ctx.db.query(
      'UPDATE broadcasts SET lease_owner = NULL, lease_until = NULL WHERE workspace_id = $1 AND id = $2 AND lease_owner = $3',
      [job.workspaceId, job.broadcastId, owner],
    );
  }
  if (next) await scheduleDelivery(ctx, job, next);
}

/** Delivers while it may; answers when the next job should look again (null: done or stopped). */
async function deliver(ctx: AppContext, job: Job, owner: string, b: Leased): Promise<Date | null> {
  const number = await sendingNumber(ctx, job.workspaceId);
  if (!number) {
    await setStatus(ctx, job, owner, 'paused', { pausedReason: 'no_connected_number' });
    ctx.log.warn({ broadcastId: b.id }, 'broadcast paused: the workspace has no connected number');
    return null;
  }
  if (number.paused) {
    await setStatus(ctx, job, owner, 'paused', { pausedReason: 'number_paused' });
    return null;
  }
  const template = await approvedTemplate(ctx.db, job.workspaceId, {
    name: b.template_name,
    language: b.template_language,
  }).catch(() => null);
  await snapshotAudience(ctx.db, job.workspaceId, b);
  if (!(await anyToRelease(ctx, job))) return settle(ctx, job);
  const max = tierMax(await currentTier(ctx, number));
  let left =
    max === null ? Number.POSITIVE_INFINITY : max - (await usedLast24h(ctx.db, job.workspaceId)).used;
  // About five seconds of sends at the number's rate: the lease and the limit are looked at between batches.
  const batch = Math.max(1, Math.min(BATCH, number.messagesPerSecond * 5));
  const until = Date.now() + SLICE_MS;
  const feed: Feed = { nextStoreAt: 0 };
  let leftovers = true;
  const going = stillGoing(ctx, job, owner);
  // Batches before this one may still have sends on their way: they settle while the next are stored.
  const inFlight: Promise<void>[] = [];
  const settledAll = () => Promise.all(inFlight.splice(0));
  try {
    for (;;) {
      const current = await lease(ctx, job, owner);
      if (!current) return null;
      if (left <= 0 && max !== null) {
        await settledAll();
        const { used, freesAt } = await usedLast24h(ctx.db, job.workspaceId);
        left = max - used;
        if (left <= 0) {
          const at = new Date(
            Math.min((freesAt?.getTime() ?? Date.now()) + 1_000, Date.now() + LIMIT_RECHECK_MS),
          );
          await setStatus(ctx, job, owner, 'waiting_for_limit', { waitingUntil: at });
          return at;
        }
      }
      if (current.status === 'waiting_for_limit') await setStatus(ctx, job, owner, 'sending');
      const claimed = await claimRecipients(ctx, job.workspaceId, b.id, Math.min(batch, left), leftovers);
      // Leftovers come first: once a claim holds others too, none are left.
      leftovers = claimed.every((c) => c.leftover);
      if (!claimed.length) break;
      left -= claimed.length;
      if (!template) {
        // The template is no longer approved: nothing can be sent; each recipient says why.
        await ctx.db.query(
          `UPDATE broadcast_recipients SET state = 'skipped', error_title = 'The template is no longer approved'
           WHERE workspace_id = $1 AND broadcast_id = $2 AND state = 'releasing'`,
          [job.workspaceId, b.id],
        );
        continue;
      }
      const released = await releaseBatch(
        ctx,
        { workspaceId: job.workspaceId, id: b.id, values: b.values },
        number,
        template,
        claimed,
        going,
        feed,
      );
      released.settled.catch(() => {});
      inFlight.push(released.settled);
      if (inFlight.length > IN_FLIGHT_BATCHES) await inFlight.shift();
      if (released.stopped) {
        await settledAll();
        const reason = released.stopped.code as PausedReason;
        await setStatus(ctx, job, owner, 'paused', { pausedReason: reason });
        ctx.log.warn({ broadcastId: b.id, reason: released.stopped.message }, 'broadcast paused');
        return null;
      }
      if (Date.now() > until) {
        await settledAll();
        return new Date();
      }
    }
    await settledAll();
  } finally {
    await Promise.allSettled(inFlight);
  }
  return settle(ctx, job);
}

/** Every recipient released: completed once the network has taken them all, else looked at again soon. */
async function settle(ctx: AppContext, job: Job): Promise<Date | null> {
  if (await completeIfSettled(ctx, job.workspaceId, job.broadcastId)) return null;
  return new Date(Date.now() + SETTLE_CHECK_MS);
}

async function anyToRelease(ctx: AppContext, job: Job): Promise<boolean> {
  const { rows } = await ctx.db.query(
    `SELECT 1 FROM broadcast_recipients WHERE workspace_id = $1 AND broadcast_id = $2
       AND state IN ('pending', 'releasing') LIMIT 1`,
    [job.workspaceId, job.broadcastId],
  );
  return rows.length > 0;
}

/**
 * Renews the delivery's lease every second while it runs, whatever it is waiting for (a batch whose
 * sends settle slowly, the store of the next): renewed only between sends and batches, a live
 * delivery's lease could lapse and a second delivery start.
 */
export function keepLease(ctx: AppContext, job: Job, owner: string): NodeJS.Timeout {
  return setInterval(() => {
    ctx.db
      .query(
        `UPDATE broadcasts SET lease_until = now() + make_interval(secs => ${LEASE_SECONDS})
         WHERE workspace_id = $1 AND id = $2 AND lease_owner = $3`,
        [job.workspaceId, job.broadcastId, owner],
      )
      .catch(() => {});
  }, RENEW_MS);
}

/**
 * Whether the broadcast is still to be sent (not paused or cancelled) by this delivery, still its
 * lease's holder (keepLease renews it): asked before each send, it reads the database at most every
 * quarter second.
 */
function stillGoing(ctx: AppContext, job: Job, owner: string): () => Promise<boolean> {
  let checked = 0;
  let going: Promise<boolean> = Promise.resolve(true);
  return () => {
    if (Date.now() - checked < 250) return going;
    checked = Date.now();
    going = ctx.db
      .query<{ status: BroadcastStatus }>(
        'SELECT status FROM broadcasts WHERE workspace_id = $1 AND id = $2 AND lease_owner = $3',
        [job.workspaceId, job.broadcastId, owner],
      )
      .then(({ rows }) => rows[0]?.status === 'sending' || rows[0]?.status === 'waiting_for_limit');
    return going;
  };
}

/**
 * broadcasts.sweep: a broadcast that should be delivering but has no live delivery (its job lost
 * with a process that died between steps) gets a job again.
 */
export async function sweepBroadcasts(ctx: AppContext): Promise<number> {
  const { rows } = await ctx.db.query<{ workspace_id: string; id: string }>(
    `SELECT workspace_id, id FROM broadcasts
     WHERE (lease_until IS NULL OR lease_until < now()) AND updated_at < now() - interval '1 minute'
       AND (status = 'sending' OR (status = 'scheduled' AND send_at <= now())
         OR (status = 'waiting_for_limit' AND waiting_until <= now()))
     LIMIT 100`,
  );
  for (const r of rows) await scheduleDelivery(ctx, { workspaceId: r.workspace_id, broadcastId: r.id });
  return rows.length;
}

/** A lease this long past its end was a dead delivery's: its holder renews it every second. */
const LAPSED_SECONDS = 1;
const REVIVE_AT_ONCE = 20;

/**
 * The broadcasts.sweep queue's drain, every second in each worker: a delivery whose lease lapsed (its
 * process killed mid-send) is handed a job at once, with the dead lease cleared in the same
 * transaction so it is found once. Left to pg-boss, the killed job came back only after its worker was
 * found dead and its retry's backoff ran out, and to the minute's sweep after a minute more: 50 to 90
 * s of silence per kill in the broadcast bench, against a lease of 20 s then.
 */
export async function reviveLapsedDeliveries(ctx: AppContext): Promise<boolean> {
  const found = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ workspace_id: string; id: string }>(
      `UPDATE broadcasts SET lease_owner = NULL, lease_until = NULL
       WHERE (workspace_id, id) IN (
         SELECT workspace_id, id FROM broadcasts
         WHERE status IN ('sending', 'waiting_for_limit')
           AND lease_until < now() - make_interval(secs => ${LAPSED_SECONDS})
         LIMIT ${REVIVE_AT_ONCE} FOR UPDATE SKIP LOCKED)
       RETURNING workspace_id, id`,
    );
    for (const r of rows)
      await scheduleDelivery(ctx, { workspaceId: r.workspace_id, broadcastId: r.id }, null, tx);
    return rows.length;
  });
  if (found > 0) {
    ctx.log.warn({ found }, 'broadcasts whose delivery died were given a job again');
    ctx.queue?.wake('broadcasts.deliver');
  }
  return found === REVIVE_AT_ONCE;
}
