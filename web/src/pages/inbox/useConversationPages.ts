import { useCallback, useEffect, useRef, useState } from 'react';
import { api, useApi } from '../../api';
import type { InboxList, InboxRow } from '../../server-types';

// The first page is reloaded on every live event: kept small. Scrolling on loads more at a time.
const PAGE = 50;
const MORE = 100;
// After a snooze's end, so that the server's clock has passed it too.
const WAKE_SLACK_MS = 500;
const DAY_MS = 86_400_000;

// Newest first by (last_message_at, contact_id), as the server pages them.
const older = (r: InboxRow, than: InboxRow) =>
  r.last_message_at < than.last_message_at ||
  (r.last_message_at === than.last_message_at && r.contact_id < than.contact_id);

interface Tail {
  key: string;
  rows: InboxRow[];
  cursor: string | null;
}

/**
 * The inbox's conversations for a filter and search: the first page (loaded again by `reload`, on
 * live events) and the pages after it, each loaded by `loadMore` from the cursor where the last one
 * ended. A reload keeps the pages scrolled through: the rows that now fall below the new first page
 * stay, the ones it holds again or that left it (resolved, say) are taken from it.
 */
export function useConversationPages(filter: string, q: string, label: string) {
  const params = new URLSearchParams({ filter, limit: String(PAGE) });
  if (q) params.set('q', q);
  if (label) params.set('label', label);
  const key = params.toString();
  const first = useApi<InboxList>(`/inbox?${key}`);
  const [tail, setTail] = useState<Tail>({ key, rows: [], cursor: null });
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<string | null>(null);
  const shown = useRef<{ key: string; rows: InboxRow[] }>({ key, rows: [] });
  const own = tail.key === key ? tail : { key, rows: [], cursor: null };

  useEffect(() => {
    const page = first.data;
    if (!page) return;
    const before = shown.current.key === key ? shown.current.rows : [];
    shown.current = { key, rows: page.conversations };
    const last = page.conversations.at(-1);
    setTail((t) => {
      if (t.key !== key || t.rows.length === 0) return t;
      if (!page.next_cursor || !last) return { key, rows: [], cursor: null };
      const now = new Set(page.conversations.map((r) => r.contact_id));
      const kept = [...before, ...t.rows].filter((r) => !now.has(r.contact_id) && older(r, last));
      return { key, rows: kept, cursor: t.cursor };
    });
  }, [first.data, key]);

  // A snooze that ends changes no row, so no live event says so: the list is read again when it ends
  // (a day at most between looks, as a timer holds no more than about 24 days).
  const wakesAt = first.data?.wakes_at ?? null;
  const { reload } = first;
  useEffect(() => {
    if (!wakesAt) return;
    const wait = Math.min(Math.max(Date.parse(wakesAt) - Date.now() + WAKE_SLACK_MS, 0), DAY_MS);
    const timer = setTimeout(reload, wait);
    return () => clearTimeout(timer);
  }, [wakesAt, reload]);

  const cursor = own.rows.length > 0 ? own.cursor : (first.data?.next_cursor ?? null);
  const loadMore = useCallback(async () => {
    if (!cursor || loadingMore) return;
    setLoadingMore(true);
    setMoreError(null);
    try {
      const more = new URLSearchParams(key);
      more.set('limit', String(MORE));
      more.set('cursor', cursor);
      const page = await api<InboxList>('GET', `/inbox?${more}`);
      setTail((t) => {
        const rows = t.key === key ? t.rows : [];
        const have = new Set(rows.map((r) => r.contact_id));
        return {
          key,
          rows: [...rows, ...page.conversations.filter((r) => !have.has(r.contact_id))],
          cursor: page.next_cursor,
        };
      });
    } catch (err) {
      setMoreError(err instanceof Error ? err.message : String(err));
    } finally {
      setLoadingMore(false);
    }
  }, [cursor, key, loadingMore]);

  const head = first.data?.conversations;
  const headIds = new Set(head?.map((r) => r.contact_id));
  return {
    rows: head ? [...head, ...own.rows.filter((r) => !headIds.has(r.contact_id))] : null,
    counts: first.data?.counts ?? null,
    hasMore: cursor !== null,
    loadMore,
    loadingMore,
    error: first.error ?? moreError,
    loading: first.loading && !first.data,
    reload,
  };
}
