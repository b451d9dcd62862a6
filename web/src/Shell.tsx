import { lazy, type ReactNode, Suspense, useState } from 'react';
import { api } from './api';
import { Link, match, navigate, useLocation } from './router';
import { useSession } from './session';
import { Empty, Loading } from './ui';

// Each page's code loads when it is first opened: the first paint needs only the shell's.
const HomePage = lazy(() => import('./pages/Home').then((m) => ({ default: m.HomePage })));
const ContactsPage = lazy(() => import('./pages/Contacts').then((m) => ({ default: m.ContactsPage })));
const ContactPage = lazy(() => import('./pages/Contacts').then((m) => ({ default: m.ContactPage })));
const LeadsPage = lazy(() => import('./pages/Leads').then((m) => ({ default: m.LeadsPage })));
const LeadPage = lazy(() => import('./pages/Leads').then((m) => ({ default: m.LeadPage })));
const MessagesPage = lazy(() => import('./pages/Messages').then((m) => ({ default: m.MessagesPage })));
const ConversationPage = lazy(() =>
  import('./pages/Messages').then((m) => ({ default: m.ConversationPage })),
);
const TemplatesPage = lazy(() => import('./pages/Templates').then((m) => ({ default: m.TemplatesPage })));
const NewTemplatePage = lazy(() =>
  import('./pages/templates/NewTemplate').then((m) => ({ default: m.NewTemplatePage })),
);
const FormsPage = lazy(() => import('./pages/Forms').then((m) => ({ default: m.FormsPage })));
const FormPage = lazy(() => import('./pages/Forms').then((m) => ({ default: m.FormPage })));
const AutomationsPage = lazy(() =>
  import('./pages/Automations').then((m) => ({ default: m.AutomationsPage })),
);
const AutomationEditor = lazy(() =>
  import('./pages/automation/Editor').then((m) => ({ default: m.AutomationEditor })),
);
const SettingsPage = lazy(() => import('./pages/Settings').then((m) => ({ default: m.SettingsPage })));

interface Route {
  pattern: string;
  render: (params: Record<string, string>) => ReactNode;
}

const NAV = [
  { href: '/', label: 'Home', icon: '⌂' },
  { href: '/contacts', label: 'Contacts', icon: '◎' },
  { href: '/leads', label: 'Leads', icon: '◉' },
  { href: '/messages', label: 'Messages', icon: '✉' },
  { href: '/templates', label: 'Templates', icon: '▤' },
  { href: '/forms', label: 'Forms', icon: '☰' },
  { href: '/flows', label: 'Flows', icon: '⟳' },
  { href: '/sequences', label: 'Sequences', icon: '⇶' },
  { href: '/settings', label: 'Settings', icon: '⚙' },
];

const ROUTES: Route[] = [
  { pattern: '', render: () => <HomePage /> },
  { pattern: '/contacts', render: () => <ContactsPage /> },
  { pattern: '/contacts/:id', render: (p) => <ContactPage id={p.id!} /> },
  { pattern: '/messages', render: () => <MessagesPage /> },
  { pattern: '/messages/:contactId', render: (p) => <ConversationPage contactId={p.contactId!} /> },
  { pattern: '/templates', render: () => <TemplatesPage /> },
  { pattern: '/templates/new', render: () => <NewTemplatePage /> },
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
  { pattern: '/settings', render: () => <SettingsPage /> },
  { pattern: '/settings/:tab', render: (p) => <SettingsPage tab={p.tab} /> },
];

/** The signed-in app: sidebar (a drawer on phones), workspace switcher, the page for the path. */
export function Shell() {
  const { session, refresh } = useSession();
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  let content: ReactNode = (
    <Empty
      icon="?"
      title="Nothing here"
      action={
        <Link href="/contacts" className="btn">
          Go to contacts
        </Link>
      }
    >
      This address does not match a page of the app.
    </Empty>
  );
  for (const r of ROUTES) {
    const params = match(r.pattern, path);
    if (params) {
      content = r.render(params);
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
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="btn ghost icon"
          aria-label="Menu"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          ☰
        </button>
        <span className="brand">
          <span className="logo" aria-hidden="true" /> Parley
        </span>
      </header>
      <aside className="sidebar" aria-label="Main">
        <div className="brand sidebar-brand">
          <span className="logo" aria-hidden="true" /> Parley
        </div>
        {session.workspaces.length > 1 ? (
          <label className="ws-switch">
            <span className="sr-only">Workspace</span>
            <select value={session.workspace.id} onChange={(e) => void switchTo(e.target.value)}>
              {session.workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <div className="ws-name" title={session.workspace.name}>
            {session.workspace.name}
          </div>
        )}
        <nav>
          {NAV.map((n) => {
            const active = n.href === '/' ? path === '/' : path === n.href || path.startsWith(`${n.href}/`);
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
                {n.label}
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
              <div className="me-name">{session.user.name || session.user.email}</div>
              <div className="small muted">{session.role}</div>
            </div>
          </div>
          <button type="button" className="btn ghost small" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </aside>
      <button
        type="button"
        className="scrim"
        aria-label="Close menu"
        tabIndex={-1}
        onClick={() => setMenuOpen(false)}
      />
      <main id="main" className="content">
        <Suspense fallback={<Loading />}>{content}</Suspense>
      </main>
    </div>
  );
}
