import { lazy, Suspense, useMemo } from 'react';
import { useApi } from '../../api';
import type { TimeSeries } from '../../charts/TimeChart';
import { Segmented } from '../../list';
import { Link, navigate, useLocation } from '../../router';
import type { Dashboard } from '../../server-types';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { Loading } from '../../ui/Loading';

// Chart.js loads with the charts, after the page's first paint, not in the first page's script.
const TimeChart = lazy(() => import('../../charts/TimeChart').then((m) => ({ default: m.TimeChart })));

const PERIODS = [7, 30, 90] as const;

const series = <T extends { day: string }>(rows: T[], parts: [keyof T & string, string][]): TimeSeries[] =>
  parts.map(([key, label]) => ({ label, points: rows.map((r) => ({ at: r.day, value: Number(r[key]) })) }));

/** The home page's charts: messages, leads per form and finished runs per day over 7, 30 or 90 days. */
export function DashboardCharts() {
  const { query } = useLocation();
  const asked = Number(query.get('days'));
  const days = (PERIODS as readonly number[]).includes(asked) ? asked : 30;
  const data = useApi<Dashboard>(`/dashboard?days=${days}`);
  const charts = useMemo(() => {
    const d = data.data;
    if (!d) return null;
    return {
      messages: series(d.messages, [
        ['sent', 'Sent'],
        ['delivered', 'Delivered'],
        ['read', 'Read'],
        ['failed', 'Failed'],
        ['replied', 'Replies'],
      ]),
      leads: d.leads.map((f) => ({
        label: f.form_name ?? f.form_id,
        points: f.points.map((p) => ({ at: p.day, value: p.count })),
      })),
      runs: series(d.runs, [
        ['completed', 'Completed'],
        ['failed', 'Failed'],
      ]),
    };
  }, [data.data]);
  return (
    <section className="stack" aria-labelledby="activity-heading">
      <div className="toolbar">
        <h2 id="activity-heading" className="section-title">
          Activity
        </h2>
        <Segmented
          legend="Period"
          values={PERIODS}
          value={days}
          label={(p) => `${p} days`}
          onPick={(p) => navigate(p === 30 ? '/' : `/?days=${p}`, true)}
        />
        {data.data && <span className="small muted">Days in {data.data.period.time_zone}</span>}
      </div>
      {data.error ? (
        <ErrorNote message={data.error} onRetry={data.reload} />
      ) : !charts || !data.data ? (
        <Loading />
      ) : (
        <Suspense fallback={<Loading label="Loading charts" />}>
          <div className="grid-2">
            <Card
              title="Messages"
              actions={
                <Link href="/messages" className="small">
                  Open messages
                </Link>
              }
            >
              <TimeChart title="Messages per day" series={charts.messages} />
            </Card>
            <Card
              title="Flow and sequence runs"
              actions={
                <span className="row">
                  <Link href="/runs?status=completed" className="small">
                    Completed runs
                  </Link>
                  <Link href="/runs?status=failed" className="small">
                    Failed runs
                  </Link>
                </span>
              }
            >
              <TimeChart title="Runs finished per day" series={charts.runs} />
            </Card>
            <Card
              title="Leads per form"
              actions={
                <Link href="/leads?source=form" className="small">
                  All leads
                </Link>
              }
            >
              {data.data.leads.length === 0 ? (
                <p className="muted small">No form brought a lead in these days.</p>
              ) : (
                <>
                  <TimeChart title="Leads per form per day" series={charts.leads} />
                  <ul className="chart-links">
                    {data.data.leads.map((f) => (
                      <li key={f.form_id}>
                        <Link href={`/leads?form_id=${encodeURIComponent(f.form_id)}`} className="small">
                          Leads from {f.form_name ?? f.form_id}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </Card>
          </div>
        </Suspense>
      )}
    </section>
  );
}
