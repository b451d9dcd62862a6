import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AvailabilitySwitch } from './Availability';
import { api } from './api';
import { useHeadingFocusOnNavigate } from './heading-focus';
import { Untranslated } from './i18n/Untranslated';
import { useLocale } from './i18n/use-locale';
import { LanguagePicker } from './LanguagePicker';
import { useLiveInvalidation, useUnreadConversations } from './live';
import { NotificationsBell } from './pages/inbox/NotificationsBell';
import { Link, match, navigate, useLocation } from './router';
import { useSession } from './session';
import { Empty } from './ui/Empty';
import { Loading } from './ui/Loading';

// Each page's code loads when it is first opened: the first paint needs only the shell's.
const HomePage = lazy(() => import('./pages/Home').then((m) => ({ default: m.HomePage })));
const ContactsPage = lazy(() => import('./pages/Contacts').then((m) => ({ default: m.ContactsPage })));
const ContactPage = lazy(() => import('./pages/Contacts').then((m) => ({ default: m.ContactPage })));
const LeadsPage = lazy(() => import('./pages/Leads').then((m) => ({ default: m.LeadsPage })));
const LeadPage = lazy(() => import('./pages/Leads').then((m) => ({ default: m.LeadPage })));
const InboxPage = lazy(() => import('./pages/Inbox').then((m) => ({ default: m.InboxPage })));
const TemplatesPage = lazy(() => import('./pages/Templates').then((m) => ({ default: m.TemplatesPage })));
const NewTemplatePage = lazy(() =>
  import('./pages/templates/NewTemplate').then((m) => ({ default: m.NewTemplatePage })),
);
const BroadcastsPage = lazy(() => import('./pages/Broadcasts').then((m) => ({ default: m.BroadcastsPage })));
const NewBroadcastPage = lazy(() =>
  import('./pages/broadcasts/NewBroadcast').then((m) => ({ default: m.NewBroadcastPage })),
);
const BroadcastPage = lazy(() =>
  import('./pages/broadcasts/BroadcastPage').then((m) => ({ default: m.BroadcastPage })),
);
const FormsPage = lazy(() => import('./pages/Forms').then((m) => ({ default: m.FormsPage })));
const FormPage = lazy(() => import('./pages/forms/FormPage').then((m) => ({ default: m.FormPage })));
const AutomationsPage = lazy(() =>
  import('./pages/Automations').then((m) => ({ default: m.AutomationsPage })),
);
const AutomationEditor = lazy(() =>
  import('./pages/automation/Editor').then((m) => ({ default: m.AutomationEditor })),
);
const RunsPage = lazy(() => import('./pages/Runs').then((m) => ({ default: m.RunsPage })));
const RunPage = lazy(() => import('./pages/Runs').then((m) => ({ default: m.RunPage })));
const SettingsPage = lazy(() => import('./pages/Settings').then((m) => ({ default: m.SettingsPage })));

const inSection = (href: string, path: string) =>
  href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`);

interface Route {
  pattern: string;
  render: (params: Record<string, string>) => ReactNode;
  /** Its page is in the catalogs; the others still show English (Untranslated). */
  translated?: true;
}

const NAV = [
  { href: '/', label: 'nav.home', icon: '⌂' },
  { href: '/contacts', label: 'nav.contacts', icon: '◎' },
  { href: '/leads', label: 'nav.leads', icon: '◉' },
  { href: '/messages', label: 'nav.inbox', icon: '✉' },
  { href: '/templates', label: 'nav.templates', icon: '▤' },
  { href: '/broadcasts', label: 'nav.broadcasts', icon: '✺' },
  { href: '/forms', label: 'nav.forms', icon: '☰' },
  { href: '/flows', label: 'nav.flows', icon: '⟳' },
  { href: '/sequences', label: 'nav.sequences', icon: '⇶' },
  { href: '/settings', label: 'nav.settings', icon: '⚙' },
] as const;

const ROUTES: Route[] = [
  { pattern: '', render: () => <HomePage /> },
  { pattern: '/contacts', render: () => <ContactsPage /> },
  { pattern: '/contacts/:id', render: (p) => <ContactPage id={p.id!} /> },
  { pattern: '/messages', render: () => <InboxPage /> },
  { pattern: '/messages/:contactId', render: (p) => <InboxPage contactId={p.contactId!} /> },
  { pattern: '/inbox', render: () => <InboxPage /> },
  { pattern: '/inbox/:contactId', render: (p) => <InboxPage contactId={p.contactId!} /> },
  { pattern: '/templates', render: () => <TemplatesPage /> },
  { pattern: '/templates/new', render: () => <NewTemplatePage /> },
  { pattern: '/broadcasts', render: () => <BroadcastsPage /> },
  { pattern: '/broadcasts/new', render: () => <NewBroadcastPage /> },
  { pattern: '/broadcasts/:id', render: (p) => <BroadcastPage key={p.id} id={p.id!} /> },
  { pattern: '/leads', render: () => <LeadsPage /> },
  { pattern: '/leads/:id', render: (p) => <LeadPage key={p.id} id={p.id!} /> },
  { pattern: '/forms', render: () => <FormsPage /> },
  { pattern: '/forms/:id', render: (p) => <FormPage key={p.id} id={p.id!} /> },
  { pattern: '/flows', render: () => <AutomationsPage kind="flow" /> },
  { pattern: '/flows/new', render: () => <AutomationEditor kind="flow" /> },
  { pattern: '/flows/:id', render: (p) => <AutomationEditor key={p.id} kind="flow" id={p.id} /> },
  { pattern: '/sequences', render: () => <AutomationsPage kind="sequence" /> },
  { pattern: '/sequences/new', render: () => <AutomationEditor kind="sequence" /> },
  { pattern: '/sequences/:id', render: (p) => <AutomationEditor key={p.id} kind="sequence" id={p.id} /> },
  { pattern: '/runs', render: () => <RunsPage /> },
  { pattern: '/runs/:id', render: (p) => <RunPage key={p.id} id={p.id!} /> },
  { pattern: '/settings', render: () => <SettingsPage />, translated: true },
  { pattern: '/settings/:tab', render: (p) => <SettingsPage tab={p.tab} />, translated: true },
];

/** The signed-in app: sidebar (a drawer on phones), workspace switcher, the page for the path. */
export function Shell() {
  const { session, refresh } = useSession();
  const { t } = useTranslation('shell');
  const { formatNumber } = useLocale();
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  useHeadingFocusOnNavigate(path);
  // The tab names the section, so a row of Parley tabs can be told apart.
  const nav = NAV.find((n) => inSection(n.href, path));
  const section = nav ? t(nav.label) : t('notFound.title');
  useEffect(() => {
    document.title = t('tabTitle', { section });
  }, [section, t]);
  const unread = useUnreadConversations();
  useUnreadTitle(unread, path);
  useLiveInvalidation(['contact', 'refresh'], '/contacts');
  useLiveInvalidation(['lead', 'refresh'], '/leads');
  // Every filter's list, not only the one shown: another filter's cached answer would come back with
  // its old rows and its old next snooze end (whose timer reads the list again), up to 30 s old.
  useLiveInvalidation(['message', 'conversation', 'refresh'], '/inbox');
  let content: ReactNode = (
    <Empty
      icon="?"
      title={t('notFound.title')}
      action={
        <Link href="/contacts" className="btn">
          {t('notFound.action')}
        </Link>
      }
    >
      {t('notFound.body')}
    </Empty>
  );
  for (const r of ROUTES) {
    const params = match(r.pattern, path);
    if (params) {
      content = r.translated ? r.render(params) : <Untranslated>{r.render(params)}</Untranslated>;
      break;
    }
  }
  const signOut = async () => {
    await api('POST', '/logout').catch(() => {});
    navigate('/', true);
    await refresh();
  };
  const switchTo = async (id: string) => {
    await api('POST', '/session/workspace', { workspace_id: id });
    navigate('/', true);
    await refresh();
  };
  return (
    <div className={menuOpen ? 'shell menu-open' : 'shell'}>
      <a href="#main" className="skip-link">
        {t('skipToContent')}
      </a>
      <header className="topbar">
        <button
          ref={menuButton}
          type="button"
          className="btn ghost icon"
          aria-label={t('menu')}
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          ☰
        </button>
        <span className="brand">
          <span className="logo" aria-hidden="true" /> Parley
        </span>
      </header>
      <aside className="sidebar" aria-label={t('nav.main')}>
        <div className="brand sidebar-brand">
          <span className="logo" aria-hidden="true" /> Parley
        </div>
        {session.workspaces.length > 1 ? (
          <label className="ws-switch">
            <span className="sr-only">{t('workspace')}</span>
            <select value={session.workspace.id} onChange={(e) => void switchTo(e.target.value)}>
              {session.workspaces.map((w) => (
                <option key={w.id} value={w.id} dir="auto">
                  {w.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <div className="ws-name" title={session.workspace.name} dir="auto">
            {session.workspace.name}
          </div>
        )}
        <nav>
          {NAV.map((n) => {
            const active = inSection(n.href, path);
            return (
              <Link
                key={n.href}
                href={n.href}
                className={active ? 'nav-item active' : 'nav-item'}
                aria-current={active ? 'page' : undefined}
                onClick={() => setMenuOpen(false)}
              >
                <span className="nav-icon" aria-hidden="true">
                  {n.icon}
                </span>
                {t(n.label)}
                {n.href === '/messages' && unread > 0 && (
                  <span className="nav-badge" aria-hidden="true">
                    {unread > 99 ? t('nav.overflow', { max: 99 }) : formatNumber(unread)}
                  </span>
                )}
              </Link>
            );
          })}
        </nav>
        <div className="sidebar-foot">
          <div className="me">
            <div className="avatar" aria-hidden="true">
              {(session.user.name || session.user.email).slice(0, 1).toUpperCase()}
            </div>
            <div className="me-text">
              <div className="me-name">
                <bdi>{session.user.name || session.user.email}</bdi>
              </div>
              <div className="small muted">{t(`role.${session.role}`)}</div>
            </div>
          </div>
          <NotificationsBell />
          <AvailabilitySwitch />
          <LanguagePicker />
          <button type="button" className="btn ghost small" onClick={() => void signOut()}>
            {t('signOut')}
          </button>
        </div>
      </aside>
      <button
        type="button"
        className="scrim"
        aria-label={t('closeMenu')}
        tabIndex={-1}
        onClick={() => setMenuOpen(false)}
      />
      <main id="main" className="content" tabIndex={-1}>
        <Suspense fallback={<Loading />}>{content}</Suspense>
      </main>
    </div>
  );
}

const COUNT_PREFIX = /^\(\d+\+?\) /;

/** "(3) …" before whatever the tab title says while conversations wait unread (the title is read out too). */
function useUnreadTitle(unread: number, path: string): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: a page may set its own title on navigation
  useEffect(() => {
    const title = document.title.replace(COUNT_PREFIX, '');
    document.title = unread > 0 ? `(${unread > 99 ? '99+' : unread}) ${title}` : title;
  }, [unread, path]);
}
