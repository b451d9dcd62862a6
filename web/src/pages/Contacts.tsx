import { useEffect, useState } from 'react';
import { api, formatDate, useApi } from '../api';
import { ConfirmButton } from '../confirm';
import { ListTable, PAGE } from '../list';
import { Link, navigate, useLocation } from '../router';
import type { Contact, ContactDetail, ContactList } from '../server-types';
import { useSession } from '../session';
import { Badge } from '../ui/Badge';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { ErrorNote } from '../ui/ErrorNote';
import { Loading } from '../ui/Loading';
import { PageHeader } from '../ui/PageHeader';
import { useAction } from '../ui/use-action';
import { DetailsForm, TagsEditor, TraitsEditor } from './contacts/ContactEditors';
import { ImportContacts } from './contacts/ImportContacts';
import { NewContact } from './contacts/NewContact';

export function ContactsPage() {
  const { query } = useLocation();
  const q = query.get('q') ?? '';
  const tag = query.get('tag') ?? '';
  const offset = Number(query.get('offset') ?? 0) || 0;
  const [text, setText] = useState(q);
  const [importing, setImporting] = useState(false);
  const [adding, setAdding] = useState(false);
  useEffect(() => setText(q), [q]);
  const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (q) params.set('q', q);
  if (tag) params.set('tag', tag);
  const list = useApi<ContactList>(`/contacts?${params}`);
  const go = (next: { q?: string; tag?: string; offset?: number }) => {
    const p = new URLSearchParams();
    const nq = next.q ?? q;
    const nt = next.tag ?? tag;
    if (nq) p.set('q', nq);
    if (nt) p.set('tag', nt);
    if (next.offset) p.set('offset', String(next.offset));
    navigate(`/contacts${p.size ? `?${p}` : ''}`);
  };
  useEffect(() => {
    if (text === q) return;
    const t = setTimeout(() => go({ q: text, offset: 0 }), 300);
    return () => clearTimeout(t);
  });
  return (
    <>
      <PageHeader
        title="Contacts"
        description="Everyone you message or who writes in. Added here, by the REST API, forms, events, inbound messages and CSV imports."
        actions={
          <>
            <button type="button" className="btn primary" onClick={() => setAdding(true)}>
              New contact
            </button>
            <button type="button" className="btn" onClick={() => setImporting(true)}>
              Import CSV
            </button>
            <a className="btn" href="/api/app/contacts/export" download>
              Export CSV
            </a>
          </>
        }
      />
      {adding && <NewContact onClose={() => setAdding(false)} />}
      {importing && <ImportContacts onClose={() => setImporting(false)} onImported={list.reload} />}
      <div className="toolbar">
        <input
          type="search"
          className="search"
          aria-label="Search contacts"
          placeholder="Search by phone, name or e-mail"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        {tag && (
          <button
            type="button"
            className="chip"
            onClick={() => go({ tag: '', offset: 0 })}
            aria-label={`Remove tag filter ${tag}`}
          >
            tag: {tag} ✕
          </button>
        )}
      </div>
      <Card>
        <ListTable
          list={list}
          items={list.data?.contacts}
          empty={
            q || tag ? (
              <Empty icon="⌕" title="No contacts match">
                Try part of the number, a name or an e-mail address.
              </Empty>
            ) : (
              <Empty icon="◎" title="No contacts yet">
                Add them with <code>POST /api/v1/contacts</code> (create a key under{' '}
                <Link href="/settings/developer">Settings › Developer</Link>), or they appear as customers
                write to your number.
              </Empty>
            )
          }
          head={
            <>
              <th>Contact</th>
              <th>Phone</th>
              <th className="hide-sm">Tags</th>
              <th className="hide-sm">Added</th>
            </>
          }
          row={(c) => (
            <tr key={c.id} className="clickable" onClick={() => navigate(`/contacts/${c.id}`)}>
              <td>
                <Link href={`/contacts/${c.id}`} className="strong-link">
                  {c.name || `+${c.phone}`}
                </Link>
                {c.opted_out && (
                  <>
                    {' '}
                    <Badge tone="red">opted out</Badge>
                  </>
                )}
                {c.email && <div className="small muted">{c.email}</div>}
              </td>
              <td className="mono">+{c.phone}</td>
              <td className="hide-sm">
                <div className="tags">
                  {c.tags.slice(0, 4).map((t) => (
                    <button
                      key={t}
                      type="button"
                      className="tag"
                      onClick={(e) => {
                        e.stopPropagation();
                        go({ tag: t, offset: 0 });
                      }}
                    >
                      {t}
                    </button>
                  ))}
                </div>
              </td>
              <td className="muted hide-sm">{formatDate(c.created_at)}</td>
            </tr>
          )}
          page={{ offset, hasNext: list.data?.has_next_page ?? false, onGo: (o) => go({ offset: o }) }}
        />
      </Card>
    </>
  );
}

export function ContactPage({ id }: { id: string }) {
  const res = useApi<ContactDetail>(`/contacts/${encodeURIComponent(id)}`);
  const { session } = useSession();
  if (res.loading && !res.data) return <Loading />;
  if (res.error || !res.data) return <ErrorNote message={res.error ?? 'Not found'} onRetry={res.reload} />;
  const { contact: c, timeline } = res.data;
  const remove = async () => {
    await api('DELETE', `/contacts/${encodeURIComponent(c.id)}`);
    navigate('/contacts');
  };
  return (
    <>
      <PageHeader
        title={c.name || `+${c.phone}`}
        description={
          <>
            <Link href="/contacts">Contacts</Link> / {c.name ? `+${c.phone}` : 'contact'}
          </>
        }
        actions={
          <>
            <Link href={`/messages/${c.id}`} className="btn primary">
              Open conversation
            </Link>
            {session.can_manage && (
              <ConfirmButton
                danger
                label="Delete contact"
                title={`Delete ${c.name || `+${c.phone}`}?`}
                confirmLabel="Delete contact"
                onConfirm={remove}
              >
                <p>
                  Their details, tags, traits and received files are erased. Messages, leads and runs stay in
                  your counts without their phone, name or content, and their running flows stop. This cannot
                  be undone.
                </p>
              </ConfirmButton>
            )}
          </>
        }
      />
      <div className="grid-2">
        <div className="stack">
          <Card title="Details">
            <dl className="facts">
              <dt>Phone</dt>
              <dd className="mono">+{c.phone}</dd>
              <dt>Marketing</dt>
              <dd>
                <OptOut contact={c} onChange={res.reload} />
              </dd>
              <dt>Last wrote in</dt>
              <dd>{formatDate(c.last_inbound_at)}</dd>
              <dt>Added</dt>
              <dd>{formatDate(c.created_at)}</dd>
            </dl>
            <DetailsForm key={c.id} contact={c} onSaved={res.reload} />
          </Card>
          <Card title="Tags">
            <TagsEditor contact={c} onSaved={res.reload} />
          </Card>
          <Card title="Traits">
            <TraitsEditor contact={c} onSaved={res.reload} />
          </Card>
        </div>
        <Card title="Timeline">
          {timeline.length === 0 ? (
            <p className="muted">Nothing has happened with this contact yet.</p>
          ) : (
            <ol className="timeline">
              {timeline.map((t) => (
                <li key={`${t.kind}-${t.id}`} className={`tl-${t.kind}`}>
                  <div className="tl-dot" aria-hidden="true" />
                  <div>
                    <div className="row wrap">
                      <strong>{t.title}</strong>
                      {t.status && <Badge>{t.status}</Badge>}
                    </div>
                    {t.detail && <div className="tl-detail">{t.detail}</div>}
                    <div className="small muted">{formatDate(t.at)}</div>
                  </div>
                </li>
              ))}
            </ol>
          )}
        </Card>
      </div>
    </>
  );
}

/** Whether the contact gets marketing templates; any teammate can record a customer's request. */
function OptOut({ contact, onChange }: { contact: Contact; onChange: () => void }) {
  const { busy, error, run } = useAction();
  const toggle = () =>
    run(async () => {
      await api('PUT', `/contacts/${encodeURIComponent(contact.id)}/opt-out`, {
        opted_out: !contact.opted_out,
      });
      onChange();
    });
  return (
    <div className="stack">
      <div className="row wrap">
        {contact.opted_out ? (
          <span>
            <Badge tone="red">opted out</Badge> since {formatDate(contact.opted_out_at)}
          </span>
        ) : (
          <span>Opted in</span>
        )}
        <button type="button" className="btn small" disabled={busy} onClick={toggle}>
          {contact.opted_out ? 'Opt back in' : 'Mark as opted out'}
        </button>
      </div>
      {error && <ErrorNote message={error} />}
    </div>
  );
}
