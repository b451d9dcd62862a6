import { useEffect, useState } from 'react';
import { navigate, useLocation } from '../router';
import { Empty } from '../ui/Empty';
import { ErrorNote } from '../ui/ErrorNote';
import { Loading } from '../ui/Loading';
import { BulkBar } from './inbox/BulkBar';
import { ConversationList } from './inbox/ConversationList';
import { ConversationView } from './inbox/ConversationView';
import { KeysHelp } from './inbox/KeysHelp';
import { useListKeys } from './inbox/keys';
import { LabelFilter } from './inbox/LabelChips';
import { LabelsButton } from './inbox/LabelsManager';
import { NotificationsToggle } from './inbox/NotificationsToggle';
import { QuickRepliesButton } from './inbox/QuickReplies';
import { SavedViews } from './inbox/SavedViews';
import { useConversationPages } from './inbox/useConversationPages';

const FILTERS = [
  { id: 'open', label: 'Open' },
  { id: 'mine', label: 'Mine' },
  { id: 'unassigned', label: 'Unassigned' },
  { id: 'snoozed', label: 'Snoozed' },
  { id: 'all', label: 'All' },
] as const;

const SEARCH_MAX = 100;

const EMPTY: Record<string, string> = {
  open: 'No open conversations',
  mine: 'Nothing assigned to you',
  unassigned: 'No unassigned conversations',
  snoozed: 'No snoozed conversations',
};

// Typing searches once it pauses this long; Enter searches at once.
const SEARCH_DELAY_MS = 250;
const COUNT_CAP = 1_000;

const countText = (n: number) => (n >= COUNT_CAP ? `${COUNT_CAP.toLocaleString()}+` : n.toLocaleString());

/**
 * The team inbox: conversations (one per contact, newest first, paged as the list scrolls) beside
 * the one open. New messages, statuses and changes by teammates arrive live; the first page is
 * loaded again when they do. The search runs as one types, and the URL keeps it (?q=).
 */
export function InboxPage({ contactId }: { contactId?: string }) {
  const { query } = useLocation();
  const filter = query.get('filter') ?? 'open';
  const q = query.get('q') ?? '';
  const label = query.get('label') ?? '';
  const [typed, setTyped] = useState(q);
  const [selected, setSelected] = useState<string[]>([]);
  // Loaded again on live events by the shell's invalidation of /inbox (Shell.tsx).
  const list = useConversationPages(filter, q, label);
  const go = (next: { filter?: string; q?: string; label?: string }) => {
    const p = new URLSearchParams({ filter: next.filter ?? filter });
    const search = next.q ?? q;
    if (search) p.set('q', search);
    if (next.label ?? label) p.set('label', next.label ?? label);
    setSelected([]);
    navigate(`/messages${contactId ? `/${contactId}` : ''}?${p}`, true);
  };
  // The URL's search changed by other means (back, a link): the box shows it.
  useEffect(() => setTyped((t) => (t.trim() === q ? t : q)), [q]);
  const wanted = typed.trim();
  // biome-ignore lint/correctness/useExhaustiveDependencies: go reads the location it is called from; only the typed text starts the wait.
  useEffect(() => {
    if (wanted === q) return;
    const timer = setTimeout(() => go({ q: wanted }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [wanted, q]);
  const rows = list.rows;
  const suffix = `?${new URLSearchParams({ filter, ...(q ? { q } : {}), ...(label ? { label } : {}) })}`;
  const open = (id: string) => navigate(`/messages/${id}${suffix}`);
  useListKeys(rows?.map((r) => r.contact_id) ?? [], contactId, open, () => navigate(`/messages${suffix}`));
  return (
    <div className={contactId ? 'inbox has-open' : 'inbox'}>
      <section className="inbox-list" aria-label="Conversations">
        <div className="inbox-head">
          <h1>Inbox</h1>
          <div className="inbox-tools">
            <KeysHelp />
            <NotificationsToggle />
            <QuickRepliesButton />
            <LabelsButton />
          </div>
        </div>
        <search className="inbox-search">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              go({ q: typed.trim() });
            }}
          >
            <label htmlFor="inbox-search" className="sr-only">
              Search conversations
            </label>
            <input
              id="inbox-search"
              type="search"
              maxLength={SEARCH_MAX}
              placeholder="Search name, phone or message"
              value={typed}
              onChange={(e) => {
                setTyped(e.target.value);
                if (!e.target.value) go({ q: '' });
              }}
            />
          </form>
        </search>
        <SavedViews
          current={{ filter: filter as 'open', ...(label ? { label } : {}), ...(q ? { q } : {}) }}
          onApply={(v) => {
            setTyped(v.q ?? '');
            go({ filter: v.filter ?? 'open', q: v.q ?? '', label: v.label ?? '' });
          }}
        />
        <fieldset className="segmented inbox-filters">
          <legend className="sr-only">Show</legend>
          {FILTERS.map((f) => (
            <button
              key={f.id}
              type="button"
              className={f.id === filter ? 'seg active' : 'seg'}
              aria-pressed={f.id === filter}
              aria-describedby={list.counts ? `inbox-count-${f.id}` : undefined}
              onClick={() => go({ filter: f.id })}
            >
              {f.label}
              {list.counts && (
                <span className="seg-count" aria-hidden="true">
                  {countText(list.counts[f.id])}
                </span>
              )}
            </button>
          ))}
          {list.counts &&
            FILTERS.map((f) => (
              <span key={f.id} id={`inbox-count-${f.id}`} className="sr-only">
                {countText(list.counts![f.id])} conversations
              </span>
            ))}
        </fieldset>
        <LabelFilter value={label} onChange={(id) => go({ label: id })} />
        {rows && (
          <BulkBar
            selected={selected}
            shown={rows.map((r) => r.contact_id)}
            onSelect={setSelected}
            onDone={list.reload}
          />
        )}
        {list.loading && <Loading />}
        {list.error && <ErrorNote message={list.error} onRetry={list.reload} />}
        {rows?.length === 0 && (
          <Empty
            icon="✉"
            title={q ? 'Nothing matches the search' : (EMPTY[filter] ?? 'No conversations yet')}
          >
            {q
              ? 'Search looks at names, phone numbers and (from three characters) the text of every message.'
              : 'Conversations appear here as customers write in, and when a message is sent to a contact.'}
          </Empty>
        )}
        {rows && rows.length > 0 && (
          <ConversationList
            rows={rows}
            current={contactId}
            hrefOf={(id) => `/messages/${id}${suffix}`}
            search={q}
            hasMore={list.hasMore}
            loadMore={list.loadMore}
            selected={selected}
            onSelect={setSelected}
          />
        )}
        {list.loadingMore && <Loading />}
      </section>
      <section className="inbox-thread" aria-label="Conversation">
        {contactId ? (
          <ConversationView key={contactId} contactId={contactId} back={`/messages${suffix}`} />
        ) : (
          <Empty icon="✉" title="Pick a conversation">
            Choose one on the left to read and reply.
          </Empty>
        )}
      </section>
    </div>
  );
}
