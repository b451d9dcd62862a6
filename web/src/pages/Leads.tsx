import { api, formatDate, timeAgo, useApi } from '../api';
import { ListTable, PAGE } from '../list';
import { Link, navigate, useLocation } from '../router';
import { Badge, Card, Empty, ErrorNote, Loading, PageHeader, useAction } from '../ui';

interface Lead {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  status: string;
  source: 'form' | 'webhook';
  source_id: string;
  source_name: string | null;
  contact_id: string | null;
  fields?: Record<string, unknown>;
  created_at: string;
  updated_at?: string;
}

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'won', 'lost'];

const sourceHref = (l: Lead) => (l.source === 'form' ? `/forms/${l.source_id}` : `/sequences/${l.source_id}`);

export function LeadsPage() {
  const { query } = useLocation();
  const status = query.get('status') ?? '';
  const source = query.get('source') ?? '';
  const offset = Number(query.get('offset') ?? 0) || 0;
  const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (status) params.set('status', status);
  if (source) params.set('source', source);
  const list = useApi<{ leads: Lead[]; has_next_page: boolean }>(`/leads?${params}`);
  const go = (next: { status?: string; source?: string; offset?: number }) => {
    const p = new URLSearchParams();
    const st = next.status ?? status;
    const so = next.source ?? source;
    if (st) p.set('status', st);
    if (so) p.set('source', so);
    if (next.offset) p.set('offset', String(next.offset));
    navigate(`/leads${p.size ? `?${p}` : ''}`);
  };
  return (
    <>
      <PageHeader
        title="Leads"
        description="People who filled in a form or arrived through a sequence's webhook, newest first."
        actions={
          <a className="btn" href="/api/app/leads/export" download>
            Export CSV
          </a>
        }
      />
      <div className="toolbar">
        <fieldset className="segmented">
          <legend className="sr-only">Status</legend>
          {['', ...LEAD_STATUSES].map((s) => (
            <button
              key={s || 'all'}
              type="button"
              className={s === status ? 'seg active' : 'seg'}
              aria-pressed={s === status}
              onClick={() => go({ status: s, offset: 0 })}
            >
              {s || 'All'}
            </button>
          ))}
        </fieldset>
        <label className="inline-select">
          <span className="small muted">Source</span>
          <select value={source} onChange={(e) => go({ source: e.target.value, offset: 0 })}>
            <option value="">Any</option>
            <option value="form">Forms</option>
            <option value="webhook">Webhooks</option>
          </select>
        </label>
      </div>
      <Card>
        <ListTable
          list={list}
          items={list.data?.leads}
          empty={
            status || source ? (
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

interface LeadRun {
  id: string;
  automation_id: string;
  automation_name: string | null;
  status: string;
  started_at: string;
}

export function LeadPage({ id }: { id: string }) {
  const res = useApi<{ lead: Lead; runs: LeadRun[] }>(`/leads/${encodeURIComponent(id)}`);
  const change = useAction();
  if (res.loading && !res.data) return <Loading />;
  if (res.error || !res.data) return <ErrorNote message={res.error ?? 'Not found'} onRetry={res.reload} />;
  const { lead: l, runs } = res.data;
  const fields = Object.entries(l.fields ?? {});
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
          <label className="inline-select">
            <span className="small muted">Status</span>
            <select
              aria-label="Lead status"
              value={l.status}
              disabled={change.busy}
              onChange={(e) =>
                change.run(async () => {
                  await api('PATCH', `/leads/${l.id}`, { status: e.target.value });
                  res.reload();
                })
              }
            >
              {LEAD_STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
        }
      />
      {change.error && <ErrorNote message={change.error} />}
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
                  <dt>{k}</dt>
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
                <Link href={`/sequences/${r.automation_id}`} className="grow">
                  {r.automation_id}
                </Link>
                <span className="small muted">{formatDate(r.started_at)}</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
