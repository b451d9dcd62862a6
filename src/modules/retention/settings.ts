import type { Queryable } from '../../db/db.js';

/** What retention removes, each kind with its own number of days (null: kept for ever). */
export const RETENTION_KINDS = ['message_content', 'media', 'finished_runs', 'delivery_logs'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];
export type RetentionSettings = Record<`${RetentionKind}_days`, number | null>;

/** The longest a kind can be given in days (a hundred years); longer is "keep for ever" (null). */
export const MAX_RETENTION_DAYS = 36_500;

const COLUMNS = RETENTION_KINDS.map((k) => `retention_${k}_days AS ${k}_days`).join(', ');

export async function retentionOf(db: Queryable, workspaceId: string): Promise<RetentionSettings> {
  const { rows } = await db.query<RetentionSettings>(`SELECT ${COLUMNS} FROM workspaces WHERE id = $1`, [
    workspaceId,
  ]);
  return rows[0]!;
}

/** Every workspace's settings, for the daily job. */
export async function everyRetention(db: Queryable): Promise<(RetentionSettings & { id: string })[]> {
  const { rows } = await db.query<RetentionSettings & { id: string }>(
    `SELECT id, ${COLUMNS} FROM workspaces ORDER BY id`,
  );
  return rows;
}

/** A kind left undefined stays as it is; null keeps that kind for ever. */
export async function updateRetention(
  db: Queryable,
  workspaceId: string,
  changes: Partial<RetentionSettings>,
): Promise<RetentionSettings> {
  const given = RETENTION_KINDS.filter((k) => changes[`${k}_days`] !== undefined);
  if (given.length > 0) {
    await db.query(
      `UPDATE workspaces SET ${given.map((k, i) => `retention_${k}_days = $${i + 2}`).join(', ')} WHERE id = $1`,
      [workspaceId, ...given.map((k) => changes[`${k}_days`])],
    );
  }
  return retentionOf(db, workspaceId);
}
