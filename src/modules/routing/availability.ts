import { LRUCache } from 'lru-cache';
import type { Queryable } from '../../db/db.js';
import { type Availability, IDLE_MINUTES_DEFAULT } from './schemas.js';

/**
 * Whether membership `m` is available for round robin, as SQL: online and seen within the
 * workspace's idle limit (routing settings `rs`, joined by the caller; absent: the default).
 */
export const availableSql = (m: string, rs: string) =>
  `(${m}.availability = 'online' AND ${m}.last_seen_at > now() - make_interval(mins => COALESCE(${rs}.idle_minutes, ${IDLE_MINUTES_DEFAULT})))`;

const TOUCH_EVERY_MS = 60_000;
// Per process: a member's requests touch the row at most once a minute; the guarded UPDATE keeps
// several instances to about that too.
const touched = new LRUCache<string, number>({ max: 10_000 });

/** Marks a member seen now (their app requests and live stream call this), at most once a minute. */
export async function touchSeen(db: Queryable, workspaceId: string, userId: string): Promise<void> {
  const key = `${workspaceId}/${userId}`;
  const last = touched.get(key);
  if (last !== undefined && Date.now() - last < TOUCH_EVERY_MS) return;
  touched.set(key, Date.now());
  await db.query(
    `UPDATE memberships SET last_seen_at = now()
     WHERE workspace_id = $1 AND user_id = $2
       AND (last_seen_at IS NULL OR last_seen_at < now() - make_interval(secs => $3))`,
    [workspaceId, userId, TOUCH_EVERY_MS / 1000],
  );
}

/** The member's own availability, whether round robin may pick them now, and the idle limit. */
export async function availabilityOf(db: Queryable, workspaceId: string, userId: string) {
  const { rows } = await db.query<{ availability: Availability; available: boolean; idle_minutes: number }>(
    `SELECT m.availability, ${availableSql('m', 'rs')} AS available,
       COALESCE(rs.idle_minutes, ${IDLE_MINUTES_DEFAULT}) AS idle_minutes
     FROM memberships m LEFT JOIN routing_settings rs ON rs.workspace_id = m.workspace_id
     WHERE m.workspace_id = $1 AND m.user_id = $2`,
    [workspaceId, userId],
  );
  return rows[0]!;
}

/** The person chooses online or away; choosing is being seen, too. */
export async function setAvailability(
  db: Queryable,
  workspaceId: string,
  userId: string,
  availability: Availability,
) {
  await db.query(
    'UPDATE memberships SET availability = $3, last_seen_at = now() WHERE workspace_id = $1 AND user_id = $2',
    [workspaceId, userId, availability],
  );
  return availabilityOf(db, workspaceId, userId);
}
