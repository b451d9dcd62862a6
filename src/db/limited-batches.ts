import type { Entry } from './batches.js';

/**
 * How a batch takes places under a limit (the plan's month of messages or leads): `tryAll` takes one
 * place for each entry of a group in one statement and answers them, or takes none and answers
 * false. Entries are grouped by `group` (the rows they count on); a group the limit cannot take whole
 * is tried an entry at a time, and once one is refused the rest of the group are refused without
 * asking again, so the limit stays exact and a full month costs one statement, not one per entry.
 */
export function allOrOneByOne<T, R>(
  group: (item: T) => string,
  tryAll: (entries: Entry<T, R>[]) => Promise<boolean>,
  refusal: () => Error,
): (batch: Entry<T, R>[]) => Promise<void> {
  const tryGroup = async (entries: Entry<T, R>[]) => {
    if (entries.length > 1 && (await tryAll(entries))) return;
    let full = false;
    for (const entry of entries) {
      full ||= !(await tryAll([entry]));
      if (full) entry.reject(refusal());
    }
  };
  return async (batch) => {
    const groups = new Map<string, Entry<T, R>[]>();
    for (const e of batch) {
      const key = group(e.item);
      groups.set(key, [...(groups.get(key) ?? []), e]);
    }
    await Promise.all([...groups.values()].map(tryGroup));
  };
}
