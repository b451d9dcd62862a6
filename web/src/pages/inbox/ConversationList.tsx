import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { InboxRow } from '../../server-types';
import { ConversationRow } from './ConversationRow';

// Rows are about this tall (measured as they render); the list loads on within this many rows of its end.
const ROW_ESTIMATE = 74;
const LOAD_AHEAD = 10;

/**
 * The conversations as a virtual list: only the rows in view (and a few around) are in the page, so
 * a list scrolled through thousands of conversations stays light; nearing its end loads the next page.
 */
export function ConversationList({
  rows,
  current,
  hrefOf,
  search,
  hasMore,
  loadMore,
  selected,
  onSelect,
}: {
  rows: InboxRow[];
  current: string | undefined;
  hrefOf: (contactId: string) => string;
  search: string;
  hasMore: boolean;
  loadMore: () => void;
  /** The rows ticked for a bulk action. */
  selected: string[];
  onSelect: (update: (selected: string[]) => string[]) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 8,
    getItemKey: (i) => rows[i]?.contact_id ?? i,
  });
  const items = virtual.getVirtualItems();
  const lastShown = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasMore && lastShown >= rows.length - LOAD_AHEAD) loadMore();
  }, [hasMore, lastShown, rows.length, loadMore]);
  // The open conversation is brought into view (the keys move to rows not drawn yet).
  const currentIndex = current === undefined ? -1 : rows.findIndex((r) => r.contact_id === current);
  useEffect(() => {
    if (currentIndex >= 0) virtual.scrollToIndex(currentIndex, { align: 'auto' });
  }, [currentIndex, virtual]);

  return (
    <div ref={scroller} className="conversation-scroll">
      <ul className="conversation-list" style={{ height: virtual.getTotalSize() }}>
        {items.map((item) => {
          const r = rows[item.index]!;
          return (
            <li
              key={item.key}
              ref={virtual.measureElement}
              data-index={item.index}
              aria-posinset={item.index + 1}
              aria-setsize={hasMore ? -1 : rows.length}
              className={r.contact_id === current ? 'current' : undefined}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <input
                type="checkbox"
                className="row-select"
                aria-label={`Select ${r.name || `+${r.phone}`}`}
                checked={selected.includes(r.contact_id)}
                onChange={(e) => {
                  const { checked } = e.target;
                  onSelect((s) => (checked ? [...s, r.contact_id] : s.filter((x) => x !== r.contact_id)));
                }}
              />
              <ConversationRow
                row={r}
                href={hrefOf(r.contact_id)}
                current={r.contact_id === current}
                search={search}
              />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
