import type { Db } from '../../db/db.js';

/** One row of live_events (migrations/0027_live_events.sql). */
export interface LiveEventRow {
  id: string;
  workspace_id: string;
  kind: string;
  contact_id: string | null;
  message_id: string | null;
  direction: string | null;
  /** Set for one member's own event (a notice, 0044): only their streams carry it. */
  user_id: string | null;
}

// Ids are taken as rows are written, not as they commit: an id skipped by a read may belong to a
// transaction still in flight, so it is looked for again this long (or it was rolled back).
const GAP_MS = 30_000;
// More ids than this skipped at once (a large statement in flight, or rolled back): not followed one
// by one; the hub tells its streams to refresh instead.
const MAX_GAPS = 10_000;
// Rows every instance read long ago are deleted this often, those read this long before.
const PRUNE_AFTER_MS = 5 * 60_000;
const READ_LIMIT = 2_000;
/** How far below the newest row reading starts looking for ids still in flight. */
export const BEGIN_LOOKBACK = 1_000;

const READ_SQL = `SELECT id::text AS id, workspace_id, kind, contact_id, message_id, direction, user_id FROM live_events
  WHERE id > $1 OR id = ANY ($2::bigint[]) ORDER BY id LIMIT ${READ_LIMIT}`;

/**
 * Reads live_events after a cursor, each row once, in id order except for late commits, which come
 * when they commit. Started from the newest row when the hub first watches a workspace (nothing
 * committed earlier is of interest), stopped when it watches none.
 */
export class LiveEventFeed {
  #cursor: number | undefined;
  readonly #gaps = new Map<number, number>();
  #prune = { at: 0, through: 0 };

  constructor(
    private readonly query: Db['query'],
    private readonly deliver: (row: LiveEventRow) => void,
    private readonly overflowed: () => void,
  ) {}

  /**
   * From after `newest`, the last id committed when the hub began watching, and the ids below it not
   * among `committed` then (in flight then, or rolled back); false when already reading.
   */
  begin(newest: number, committed: number[]): boolean {
    if (this.#cursor !== undefined) return false;
    this.#cursor = newest;
    this.#prune = { at: Date.now(), through: newest };
    const seen = new Set(committed);
    const now = Date.now();
    for (let id = Math.max(1, newest - BEGIN_LOOKBACK + 1); id < newest; id++)
      if (!seen.has(id)) this.#gaps.set(id, now);
    return true;
  }

  end(): void {
    this.#cursor = undefined;
    this.#gaps.clear();
  }

  async read(): Promise<void> {
    if (this.#cursor === undefined) return;
    const { rows } = await this.query<LiveEventRow>(READ_SQL, [this.#cursor, [...this.#gaps.keys()]]);
    const now = Date.now();
    for (const row of rows) {
      const id = Number(row.id);
      if (this.#cursor === undefined) return;
      if (!this.#gaps.delete(id)) {
        if (id <= this.#cursor) continue;
        if (this.#gaps.size + (id - this.#cursor - 1) > MAX_GAPS) this.overflowed();
        else for (let gap = this.#cursor + 1; gap < id; gap++) this.#gaps.set(gap, now);
        this.#cursor = id;
      }
      this.deliver(row);
    }
    for (const [gap, since] of this.#gaps) if (now - since > GAP_MS) this.#gaps.delete(gap);
    if (this.#cursor !== undefined && now - this.#prune.at >= PRUNE_AFTER_MS) {
      await this.query('DELETE FROM live_events WHERE id <= $1', [this.#prune.through]);
      this.#prune = { at: now, through: this.#cursor };
    }
  }
}
