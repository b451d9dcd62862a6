import { timeAgo, useApi } from '../api';
import { ListTable, PAGE, Segmented } from '../list';
import { Link, navigate, useLocation } from '../router';
import type { RunAnswer, RunList } from '../server-types';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { ErrorNote } from '../ui/ErrorNote';
import { Loading } from '../ui/Loading';
import { PageHeader } from '../ui/PageHeader';
import { automationHref, RunContact, RunStatus, RunSteps } from './runs/RunSteps';

const STATUSES = ['', 'running', 'waiting', 'completed', 'failed', 'stopped'];

/** Every flow and sequence run, newest first, by status: where the dashboard's run chart leads. */
export function RunsPage() {
  const { query } = useLocation();
  const asked = query.get('status') ?? '';
  const status = STATUSES.includes(asked) ? asked : '';
  const offset = Number(query.get('offset') ?? 0) || 0;
  const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (status) params.set('status', status);
  const list = useApi<RunList>(`/runs?${params}`);
  const go = (next: { status?: string; offset?: number }) => {
    const p = new URLSearchParams();
    const st = next.status ?? status;
    if (st) p.set('status', st);
    if (next.offset) p.set('offset', String(next.offset));
    navigate(`/runs${p.size ? `?${p}` : ''}`);
  };
  return (
    <>
      <PageHeader title="Runs" description="Each time a flow or sequence ran, newest first." />
      <div className="toolbar">
        <Segmented
          legend="Status"
          values={STATUSES}
          value={status}
          onPick={(s) => go({ status: s, offset: 0 })}
        />
      </div>
      <Card>
        <ListTable
          list={list}
          items={list.data?.runs}
          empty={<Empty icon="⟳" title={status ? `No ${status} runs` : 'No runs yet'} />}
          head={
            <>
              <th>Run</th>
              <th>Contact</th>
              <th>Status</th>
              <th className="hide-sm">Started</th>
            </>
          }
          row={(r) => (
            <tr key={r.id}>
              <td>
                <Link href={`/runs/${r.id}`} className="strong-link">
                  {r.automation_name ?? r.automation_id}
                </Link>
                <div className="small muted mono hide-sm">{r.id}</div>
              </td>
              <td>
                <RunContact run={r} />
              </td>
              <td>
                <RunStatus run={r} />
                {r.error && <div className="small field-error">{r.error}</div>}
              </td>
              <td className="muted hide-sm">{timeAgo(r.started_at)}</td>
            </tr>
          )}
          page={{ offset, hasNext: list.data?.has_next_page ?? false, onGo: (o) => go({ offset: o }) }}
        />
      </Card>
    </>
  );
}

/** One run: who it was for and what each step did, in sentences. */
export function RunPage({ id }: { id: string }) {
  const res = useApi<RunAnswer>(`/runs/${encodeURIComponent(id)}`);
  if (res.loading && !res.data) return <Loading />;
  if (res.error || !res.data) return <ErrorNote message={res.error ?? 'Not found'} onRetry={res.reload} />;
  const run = res.data.run;
  return (
    <>
      <PageHeader
        title={`Run of ${run.automation_name ?? run.automation_id}`}
        description={
          <>
            <Link href="/runs">Runs</Link> /{' '}
            <Link href={automationHref(run.automation_id)}>{run.automation_name ?? run.automation_id}</Link>
          </>
        }
      />
      <Card>
        <RunSteps run={run} />
      </Card>
    </>
  );
}
