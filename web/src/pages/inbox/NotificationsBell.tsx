import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Static } from 'typebox';
import type { NotificationList } from '../../../../src/modules/inbox/notifications';
import { api, timeAgo } from '../../api';
import { useLocale } from '../../i18n/use-locale';
import { withElements } from '../../i18n/with-elements';
import './mentions.css';
import { useLiveReload } from '../../live';
import { navigate } from '../../router';

type Notifications = Static<typeof NotificationList>;
type Notice = Notifications['notifications'][number];
const PAGE = 20;

/**
 * The bell in the shell: how many mentions wait unread, and the list of them (who mentioned you, in
 * which conversation, when). Opening one goes to its conversation and marks it read. Kept live.
 */
export function NotificationsBell() {
  const { t } = useTranslation('shell');
  const { formatNumber } = useLocale();
  const [data, setData] = useState<Notifications | null>(null);
  const [open, setOpen] = useState(false);
  const bell = useRef<HTMLButtonElement>(null);
  // Pages after the first, loaded by "Older mentions"; the first is read again on live events.
  const [older, setOlder] = useState<{ rows: Notice[]; cursor: string | null } | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const load = () => {
    api<Notifications>('GET', `/notifications?limit=${PAGE}`).then(setData, () => {});
  };
  const cursor = older ? older.cursor : (data?.next_cursor ?? null);
  const loadOlder = async () => {
    if (!cursor) return;
    setLoadingOlder(true);
    const page = await api<Notifications>(
      'GET',
      `/notifications?limit=${PAGE}&cursor=${encodeURIComponent(cursor)}`,
    ).catch(() => null);
    setLoadingOlder(false);
    if (page)
      setOlder((o) => ({ rows: [...(o?.rows ?? []), ...page.notifications], cursor: page.next_cursor }));
  };
  const head = data?.notifications ?? [];
  const headIds = new Set(head.map((n) => n.id));
  const shown = [...head, ...(older?.rows.filter((n) => !headIds.has(n.id)) ?? [])];
  useEffect(load, []);
  useLiveReload(['notification', 'refresh'], load, 500);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      setOpen(false);
      bell.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  const unread = data?.unread ?? 0;
  const read = async (body: { ids: string[] } | { all: true }) => {
    const r = await api<{ unread: number }>('POST', '/notifications/read', body).catch(() => null);
    if (!r) return;
    load();
    const now = new Date().toISOString();
    const done = (n: Notice) => 'all' in body || body.ids.includes(n.id);
    setOlder(
      (o) => o && { ...o, rows: o.rows.map((n) => (done(n) ? { ...n, read_at: n.read_at ?? now } : n)) },
    );
  };
  const openOne = (n: Notice) => {
    setOpen(false);
    if (!n.read_at) void read({ ids: [n.id] });
    navigate(`/messages/${encodeURIComponent(n.contact_id)}`);
  };
  return (
    <div className="notifications">
      <button
        ref={bell}
        type="button"
        className="btn ghost small notifications-bell"
        aria-expanded={open}
        aria-controls="notifications-panel"
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">@</span> {t('mentions.title')}
        {unread > 0 && (
          <span className="nav-badge">
            <span aria-hidden="true">
              {unread > 99 ? t('nav.overflow', { max: 99 }) : formatNumber(unread)}
            </span>
            <span className="sr-only"> {t('mentions.unread', { count: unread })}</span>
          </span>
        )}
      </button>
      {open && (
        <section id="notifications-panel" className="notifications-panel" aria-label={t('mentions.title')}>
          <div className="notifications-head">
            <h2 className="small">{t('mentions.title')}</h2>
            {unread > 0 && (
              <button type="button" className="btn ghost small" onClick={() => void read({ all: true })}>
                {t('mentions.markAllRead')}
              </button>
            )}
          </div>
          {data && data.notifications.length === 0 && <p className="small muted">{t('mentions.none')}</p>}
          <ul className="notifications-list">
            {shown.map((n) => (
              <li key={n.id} className={n.read_at ? undefined : 'unread'}>
                <button type="button" className="notification" onClick={() => openOne(n)}>
                  <span>
                    {n.contact_name === null
                      ? withElements((v) => t('mentions.mentionedInAConversation', { author: v.author }), {
                          author: <Name>{n.author_name}</Name>,
                        })
                      : withElements(
                          (v) =>
                            t('mentions.mentionedIn', { author: v.author, conversation: v.conversation }),
                          {
                            author: <Name>{n.author_name}</Name>,
                            conversation: <Name>{n.contact_name}</Name>,
                          },
                        )}
                    {!n.read_at && <span className="sr-only"> {t('mentions.unreadNotice')}</span>}
                  </span>
                  <span className="small muted truncate" dir="auto">
                    {n.excerpt}
                  </span>
                  <span className="small muted">{timeAgo(n.created_at)}</span>
                </button>
              </li>
            ))}
          </ul>
          {cursor && (
            <button
              type="button"
              className="btn ghost small"
              disabled={loadingOlder}
              onClick={() => void loadOlder()}
            >
              {loadingOlder ? t('mentions.loading') : t('mentions.older')}
            </button>
          )}
        </section>
      )}
    </div>
  );
}

/** A person's or customer's name in a sentence: bold, and isolated, so an Arabic name keeps its direction in English text and the reverse. */
function Name({ children }: { children: string }) {
  return (
    <strong>
      <bdi>{children}</bdi>
    </strong>
  );
}
