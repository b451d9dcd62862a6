import { useState } from 'react';
import { FIELD_LIMITS } from '../../../src/lib/field-limits';
import { api, formatDate, timeAgo, useApi } from '../api';
import { ArchiveButton, ArchivedToggle } from '../confirm';
import { ListTable, PAGE, Segmented } from '../list';
import { MemberOptions, useMembers } from '../members';
import { Link, navigate, useLocation } from '../router';
import type { LeadAnswer, LeadList, ListedLead } from '../server-types';
import { Badge } from '../ui/Badge';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { ErrorNote } from '../ui/ErrorNote';
import { Loading } from '../ui/Loading';
import { PageHeader } from '../ui/PageHeader';
import { submitHandler } from '../ui/submit-handler';
import { useAction } from '../ui/use-action';
import { LeadNotes } from './leads/LeadNotes';

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'won', 'lost'];

const sourceHref = (l: ListedLead) =>
  l.source === 'form' ? `/forms/${l.source_id}` : `/sequences/${l.source_id}`;

const FILTERS = ['status', 'source', 'form_id', 'owner', 'q', 'archived'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

export function LeadsPage() {
  const { query } = useLocation();
  const current = Object.fromEntries(FILTERS.map((k) => [k, query.get(k) ?? ''])) as Required<Filters>;
  const { status, source } = current;
  const archived = current.archived === 'true';
  const offset = Number(query.get('offset') ?? 0) || 0;
  const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  for (const k of FILTERS) if (current[k]) params.set(k, current[k]);
  const list = useApi<LeadList>(`/leads?${params}`);
  const forms = useApi<{ forms: { id: string; name: string }[] }>('/forms').data?.forms ?? [];
  const members = useMembers();
  const [search, setSearch] = useState(current.q);
  const go = (next: Filters & { offset?: number }) => {
    const p = new URLSearchParams();
    for (const k of FILTERS) {
      const v = next[k] ?? current[k];
      if (v) p.set(k, v);
    }
    if (next.offset) p.set('offset', String(next.offset));
    navigate(`/leads${p.size ? `?${p}` : ''}`);
  };
  const filtered = FILTERS.some((k) => current[k]);
  return (
    <>
      <PageHeader
        title="Leads"
        description="People who filled in a form or arrived through a sequence's webhook, newest first."
        actions={
          <>
            <ArchivedToggle value={archived} onChange={(v) => go({ archived: v ? 'true' : '', offset: 0 })} />
            <a className="btn" href="/api/app/leads/export" download>
              Export CSV
            </a>
          </>
        }
      />
      <div className="toolbar">
        <Segmented
          legend="Status"
          values={['', ...LEAD_STATUSES]}
          value={status}
          onPick={(s) => go({ status: s, offset: 0 })}
        />
        <label className="inline-select">
          <span className="small muted">Source</span>
          <select value={source} onChange={(e) => go({ source: e.target.value, offset: 0 })}>
            <option value="">Any</option>
            <option value="form">Forms</option>
            <option value="webhook">Webhooks</option>
          </select>
        </label>
        <label className="inline-select">
          <span className="small muted">Form</span>
          <select value={current.form_id} onChange={(e) => go({ form_id: e.target.value, offset: 0 })}>
            <option value="">Any</option>
            {current.form_id && !forms.some((f) => f.id === current.form_id) && (
              <option value={current.form_id}>{current.form_id}</option>
            )}
            {forms.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-select">
          <span className="small muted">Owner</span>
          <select value={current.owner} onChange={(e) => go({ owner: e.target.value, offset: 0 })}>
            <option value="">Anyone</option>
            <option value="none">Nobody</option>
            <MemberOptions members={members} current={current.owner} />
          </select>
        </label>
        <form className="search" onSubmit={submitHandler(() => go({ q: search.trim(), offset: 0 }))}>
          <input
            type="search"
            aria-label="Search leads"
            placeholder="Name, phone, e-mail or any field"
            value={search}
            maxLength={FIELD_LIMITS.leadSearch}
            onChange={(e) => setSearch(e.target.value)}
          />
          <button type="submit" className="btn">
            Search
          </button>
        </form>
      </div>
      <Card>
        <ListTable
          list={list}
          items={list.data?.leads}
          empty={
            filtered ? (
              <Empty icon="◉" title="No leads match these filters" />
            ) : (
              <Empty
                icon="◉"
                title="No leads yet"
                action={
                  <Link href="/forms" className="btn primary">
                    Create a form
                  </Link>
                }
              >
                Publish a form on your site, or post leads to a sequence's webhook URL from Zapier, your CRM
                or an ad platform.
              </Empty>
            )
          }
          head={
            <>
              <th>Lead</th>
              <th>Status</th>
              <th className="hide-sm">Owner</th>
              <th className="hide-sm">Source</th>
              <th className="hide-sm">Received</th>
            </>
          }
          row={(l) => (
            <tr key={l.id} className="clickable" onClick={() => navigate(`/leads/${l.id}`)}>
              <td>
                <Link href={`/leads/${l.id}`} className="strong-link">
                  {l.name || l.email || (l.phone && `+${l.phone}`) || l.id}
                </Link>
                <div className="small muted">
                  {[l.email, l.phone && `+${l.phone}`].filter(Boolean).join(' · ')}
                </div>
              </td>
              <td>
                <Badge>{l.status}</Badge>
              </td>
              <td className="hide-sm">{l.owner_name ?? <span className="muted">Nobody</span>}</td>
              <td className="hide-sm">
                {l.source === 'form' ? 'Form' : 'Webhook'}
                {l.source_name && <div className="small muted">{l.source_name}</div>}
              </td>
              <td className="muted hide-sm">{timeAgo(l.created_at)}</td>
            </tr>
          )}
          page={{ offset, hasNext: list.data?.has_next_page ?? false, onGo: (o) => go({ offset: o }) }}
        />
      </Card>
    </>
  );
}

export function LeadPage({ id }: { id: string }) {
  const res = useApi<LeadAnswer>(`/leads/${encodeURIComponent(id)}`);
  const members = useMembers();
  const change = useAction();
  if (res.loading && !res.data) return <Loading />;
  if (res.error || !res.data) return <ErrorNote message={res.error ?? 'Not found'} onRetry={res.reload} />;
  const { lead: l, runs, notes } = res.data;
  const fields = Object.entries(l.fields ?? {});
  const patch = (body: Record<string, unknown>) =>
    change.run(async () => {
      await api('PATCH', `/leads/${l.id}`, body);
      res.reload();
    });
  return (
    <>
      <PageHeader
        title={l.name || l.email || (l.phone ? `+${l.phone}` : 'Lead')}
        description={
          <>
            <Link href="/leads">Leads</Link> / received {formatDate(l.created_at)}
          </>
        }
        actions={
          <>
            <ArchiveButton
              base="/leads"
              id={l.id}
              archived={l.archived_at !== null}
              what="lead"
              effect="Its sequences go on; it is kept for your counts and export."
              onDone={res.reload}
            />
            <label className="inline-select">
              <span className="small muted">Owner</span>
              <select
                aria-label="Lead owner"
                value={l.owner_id ?? ''}
                disabled={change.busy}
                onChange={(e) => patch({ owner_id: e.target.value || null })}
              >
                <option value="">Nobody</option>
                <MemberOptions members={members} current={l.owner_id} name={l.owner_name} />
              </select>
            </label>
            <label className="inline-select">
              <span className="small muted">Status</span>
              <select
                aria-label="Lead status"
                value={l.status}
                disabled={change.busy}
                onChange={(e) => patch({ status: e.target.value })}
              >
                {LEAD_STATUSES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </label>
          </>
        }
      />
      {change.error && <ErrorNote message={change.error} />}
      {l.archived_at && (
        <p className="notice" role="status">
          Archived {formatDate(l.archived_at)}: it is hidden from the list of leads.
        </p>
      )}
      <div className="grid-2">
        <Card title="Details">
          <dl className="facts">
            <dt>Name</dt>
            <dd>{l.name ?? '—'}</dd>
            <dt>E-mail</dt>
            <dd>{l.email ?? '—'}</dd>
            <dt>Phone</dt>
            <dd className="mono">{l.phone ? `+${l.phone}` : '—'}</dd>
            <dt>Status</dt>
            <dd>
              <Badge>{l.status}</Badge>
            </dd>
            <dt>Source</dt>
            <dd>
              <Link href={sourceHref(l)}>
                {l.source === 'form' ? 'Form' : 'Webhook'}
                {l.source_name ? ` · ${l.source_name}` : ''}
              </Link>
            </dd>
            <dt>Contact</dt>
            <dd>{l.contact_id ? <Link href={`/contacts/${l.contact_id}`}>Open contact</Link> : '—'}</dd>
          </dl>
        </Card>
        <Card title="Submitted fields" description="Everything that arrived with the lead.">
          {fields.length === 0 ? (
            <p className="muted small">No other fields.</p>
          ) : (
            <dl className="facts">
              {fields.map(([k, v]) => (
                <div key={k} className="fact-pair">
                  <dt title={l.labels?.[k] ? k : undefined}>{l.labels?.[k] || k}</dt>
                  <dd className="mono break">{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
                </div>
              ))}
            </dl>
          )}
        </Card>
      </div>
      <Card title="Sequences">
        {runs.length === 0 ? (
          <p className="muted small">No sequence has run for this lead.</p>
        ) : (
          <ul className="list">
            {runs.map((r) => (
              <li key={r.id} className="list-row">
                <Badge>{r.status}</Badge>
                <Link href={`/runs/${r.id}`} className="grow">
                  {r.automation_name ?? r.automation_id}
                </Link>
                <span className="small muted">{formatDate(r.started_at)}</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <LeadNotes leadId={l.id} notes={notes} onAdded={res.reload} />
    </>
  );
}
