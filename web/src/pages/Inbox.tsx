import { useState } from 'react';
import { timeAgo, useApi } from '../api';
import { useLiveReload } from '../live';
import { Link, navigate, useLocation } from '../router';
import type { InboxList, InboxRow } from '../server-types';
import { Badge } from '../ui/Badge';
import { Empty } from '../ui/Empty';
import { ErrorNote } from '../ui/ErrorNote';
import { Loading } from '../ui/Loading';
import { BulkBar } from './inbox/BulkBar';
import { ConversationView } from './inbox/ConversationView';
import { KeysHelp } from './inbox/KeysHelp';
import { rowId, useListKeys } from './inbox/keys';
import { LabelChips, LabelFilter } from './inbox/LabelChips';
import { LabelsButton } from './inbox/LabelsManager';
import { NotificationsToggle } from './inbox/NotificationsToggle';
import { PresenceMarker } from './inbox/Presence';
import { QuickRepliesButton } from './inbox/QuickReplies';
import { SavedViews } from './inbox/SavedViews';
import { STATE_LABELS } from './inbox/types';

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

const preview = (r: InboxRow) =>
  r.last_content_removed
    ? 'Content removed'
    : r.last_type === 'template'
      ? `Template ${r.last_template_name}`
      : (r.last_text ?? (r.last_type ? `(${r.last_type})` : ''));

/**
 * The team inbox: conversations (one per contact, newest first) beside the one open. New messages,
 * statuses and changes by teammates arrive live; the list is loaded again when they do.
 */
export function InboxPage({ contactId }: { contactId?: string }) {
  const { query } = useLocation();
  const filter = query.get('filter') ?? 'open';
  const q = query.get('q') ?? '';
  const label = query.get('label') ?? '';
  const [typed, setTyped] = useState(q);
  const [selected, setSelected] = useState<string[]>([]);
  const params = new URLSearchParams({ filter, limit: '50' });
  if (q) params.set('q', q);
  if (label) params.set('label', label);
  const list = useApi<InboxList>(`/inbox?${params}`);
  useLiveReload(['message', 'conversation', 'refresh'], list.reload);
  const go = (next: { filter?: string; q?: string; label?: string }) => {
    const p = new URLSearchParams({ filter: next.filter ?? filter });
    const search = next.q ?? q;
    if (search) p.set('q', search);
    if (next.label ?? label) p.set('label', next.label ?? label);
    setSelected([]);
    navigate(`/messages${contactId ? `/${contactId}` : ''}?${p}`, true);
  };
  const rows = list.data?.conversations;
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
              onClick={() => go({ filter: f.id })}
            >
              {f.label}
            </button>
          ))}
        </fieldset>
        <LabelFilter value={label} onChange={(id) => go({ label: id })} />
        {rows && rows.length > 0 && (
          <BulkBar
            selected={selected}
            shown={rows.map((r) => r.contact_id)}
            onSelect={setSelected}
            onDone={list.reload}
          />
        )}
        {list.loading && !list.data && <Loading />}
        {list.error && <ErrorNote message={list.error} onRetry={list.reload} />}
        {rows?.length === 0 && (
          <Empty
            icon="✉"
            title={q ? 'Nothing matches the search' : (EMPTY[filter] ?? 'No conversations yet')}
          >
            {q
              ? 'Search looks at names, phone numbers and the text of recent messages.'
              : 'Conversations appear here as customers write in, and when a message is sent to a contact.'}
          </Empty>
        )}
        <ul className="conversation-list">
          {rows?.map((r) => (
            <li key={r.contact_id} className={r.contact_id === contactId ? 'current' : undefined}>
              <input
                type="checkbox"
                className="row-select"
                aria-label={`Select ${r.name || `+${r.phone}`}`}
                checked={selected.includes(r.contact_id)}
                onChange={(e) =>
                  setSelected((s) =>
                    e.target.checked ? [...s, r.contact_id] : s.filter((x) => x !== r.contact_id),
                  )
                }
              />
              <Link
                href={`/messages/${r.contact_id}${suffix}`}
                className="conversation-row"
                id={rowId(r.contact_id)}
                data-row={r.contact_id}
                aria-current={r.contact_id === contactId ? 'page' : undefined}
              >
                <span className="conversation-top">
                  <strong className="truncate">{r.name || `+${r.phone}`}</strong>
                  <PresenceMarker contactId={r.contact_id} />
                  <span className="small muted">{timeAgo(r.last_message_at)}</span>
                </span>
                <span className="conversation-bottom">
                  <span className="truncate muted small">
                    {r.last_direction === 'outbound' ? 'You: ' : ''}
                    {preview(r)}
                  </span>
                  {r.unread > 0 && (
                    <span className="unread-badge" title={`${r.unread} unread`}>
                      {r.unread >= 100 ? '99+' : r.unread}
                      <span className="sr-only"> unread</span>
                    </span>
                  )}
                </span>
                <span className="conversation-tags">
                  {r.state !== 'open' && (
                    <Badge tone={r.state === 'resolved' ? 'green' : 'amber'}>{STATE_LABELS[r.state]}</Badge>
                  )}
                  <LabelChips labels={r.labels} />
                  {r.team_name !== null && <span className="small muted">{r.team_name}</span>}
                  {r.assignee_name !== null && (
                    <span className="small muted">→ {r.assignee_name || 'Teammate'}</span>
                  )}
                  {r.bot_name !== null && (
                    <span className="small muted">
                      <Badge tone="blue">Bot</Badge> {r.bot_name}
                    </span>
                  )}
                </span>
              </Link>
            </li>
          ))}
        </ul>
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
