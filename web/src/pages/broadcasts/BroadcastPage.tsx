import { lazy, Suspense, useState } from 'react';
import { api, formatDate, useApi } from '../../api';
import { useLiveReload } from '../../live';
import { Link } from '../../router';
import type { BroadcastAnswer, BroadcastTimeline } from '../../server-types';
import { useSession } from '../../session';
import { Badge } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { Loading } from '../../ui/Loading';
import { Modal } from '../../ui/Modal';
import { PageHeader } from '../../ui/PageHeader';
import { useAction } from '../../ui/use-action';
import { Counts, LimitNote, ProgressBar } from './BroadcastProgress';
import { Recipients } from './Recipients';
import { BROADCAST_EVENTS, type BroadcastStatus, PAUSED_REASON, STATUS_LABEL } from './types';
import { formatIn } from './zoned-time';

// chart.js is the page's heaviest part: it loads after the figures, and never with the first page.
const TimeChart = lazy(() => import('../../charts/TimeChart').then((m) => ({ default: m.TimeChart })));

// The controls each status offers (cancel, asked first, is offered until the broadcast ends).
const MOVES: { to: 'pause' | 'resume'; label: string; from: BroadcastStatus[] }[] = [
  { to: 'pause', label: 'Pause', from: ['sending', 'scheduled', 'waiting_for_limit'] },
  { to: 'resume', label: 'Resume', from: ['paused'] },
  { to: 'resume', label: 'Start sending', from: ['draft'] },
];

/** One broadcast, kept live from the workspace's events (also after it completes): progress, figures, the controls, the chart and each recipient. */
export function BroadcastPage({ id }: { id: string }) {
  const { session } = useSession();
  const one = useApi<BroadcastAnswer>(`/broadcasts/${id}`);
  const timeline = useApi<BroadcastTimeline>(`/broadcasts/${id}/timeline`);
  const [tick, setTick] = useState(0);
  const [asking, setAsking] = useState(false);
  const control = useAction();
  const b = one.data?.broadcast;
  const { reload: reloadOne } = one;
  const { reload: reloadTimeline } = timeline;
  // Figures move with message statuses and replies, also long after the broadcast completed.
  useLiveReload(BROADCAST_EVENTS, () => {
    reloadOne();
    reloadTimeline();
    setTick((t) => t + 1);
  });

  if (one.loading && !one.data) return <Loading />;
  if (!b) return <ErrorNote message={one.error ?? 'This broadcast cannot be found.'} onRetry={one.reload} />;
  const move = (to: 'pause' | 'resume' | 'cancel') =>
    control.run(async () => {
      await api('POST', `/broadcasts/${id}/${to}`);
      setAsking(false);
      one.reload();
      setTick((t) => t + 1);
    });
  const canManage = session.can_manage;
  const points = timeline.data?.points ?? [];
  // A broadcast cancelled while scheduled never drew its audience: no figures, no recipients to show.
  const neverStarted = b.status === 'cancelled' && !b.started_at;
  return (
    <>
      <PageHeader
        title={b.name}
        description={
          <>
            <Link href="/broadcasts">Broadcasts</Link> / Template <strong>{b.template.name}</strong> (
            {b.template.language}, {b.template.category.toLowerCase()})
          </>
        }
        actions={
          canManage && (
            <>
              {MOVES.filter((m) => m.from.includes(b.status)).map((m) => (
                <button
                  key={m.label}
                  type="button"
                  className={m.to === 'resume' ? 'btn primary' : 'btn'}
                  disabled={control.busy}
                  onClick={() => void move(m.to)}
                >
                  {m.label}
                </button>
              ))}
              {b.status !== 'completed' && b.status !== 'cancelled' && (
                <button
                  type="button"
                  className="btn danger"
                  disabled={control.busy}
                  onClick={() => setAsking(true)}
                >
                  Cancel broadcast
                </button>
              )}
            </>
          )
        }
      />
      {control.error && <ErrorNote message={control.error} />}
      <Card>
        <div className="stack" aria-live="polite">
          <div className="row wrap">
            <span data-testid="broadcast-status">
              <Badge tone={b.status === 'waiting_for_limit' ? 'amber' : undefined}>
                {STATUS_LABEL[b.status]}
              </Badge>
            </span>
            <span className="small muted">
              {b.status === 'scheduled' && b.send_at
                ? `Goes out ${formatIn(b.send_at, b.time_zone)} (${b.time_zone})`
                : b.completed_at
                  ? `Finished ${formatDate(b.completed_at)}`
                  : b.cancelled_at
                    ? `Cancelled ${formatDate(b.cancelled_at)}`
                    : b.started_at
                      ? `Started ${formatDate(b.started_at)}`
                      : `Created ${formatDate(b.created_at)}`}
            </span>
          </div>
          {neverStarted ? (
            <p data-testid="never-started">
              Cancelled before it started: nobody was sent it, and its audience was never drawn.
            </p>
          ) : (
            <ProgressBar broadcast={b} label="Recipients done" />
          )}
          {b.status === 'waiting_for_limit' && <LimitNote broadcast={b} />}
          {b.status === 'paused' && b.paused_reason && (
            <p className="small" data-testid="paused-reason">
              {PAUSED_REASON[b.paused_reason]}
            </p>
          )}
          {!neverStarted && <Counts broadcast={b} />}
        </div>
      </Card>
      {!neverStarted && (
        <>
          <Card title="Delivered and read over time">
            {points.length === 0 ? (
              <p className="small muted">Nothing sent yet.</p>
            ) : (
              <Suspense fallback={<Loading label="Loading the chart" />}>
                <TimeChart
                  title="Delivered and read"
                  series={[
                    { label: 'Delivered', points: points.map((p) => ({ at: p.at, value: p.delivered })) },
                    { label: 'Read', points: points.map((p) => ({ at: p.at, value: p.read })) },
                  ]}
                />
              </Suspense>
            )}
          </Card>
          <Card title="Recipients">
            <Recipients broadcastId={id} tick={tick} />
          </Card>
        </>
      )}
      {asking && (
        <Modal title="Cancel this broadcast?" onClose={() => setAsking(false)}>
          <div className="stack">
            <p>
              Messages already sent stay sent; nobody else in the audience gets it. A cancelled broadcast
              cannot be resumed.
            </p>
            <div className="row">
              <button
                type="button"
                className="btn danger"
                disabled={control.busy}
                onClick={() => void move('cancel')}
              >
                Yes, cancel it
              </button>
              <button type="button" className="btn" onClick={() => setAsking(false)}>
                Keep it
              </button>
            </div>
          </div>
        </Modal>
      )}
    </>
  );
}
