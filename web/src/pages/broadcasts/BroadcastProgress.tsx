import { Bar } from '../../ui/Bar';
import type { Broadcast } from './types';

/** Recipients the broadcast is done with, one way or another. */
export const settled = (b: Broadcast) => b.counts.sent + b.counts.failed + b.counts.skipped;

/** The share of the audience settled, as a bar screen readers announce. */
export function ProgressBar({ broadcast: b, label }: { broadcast: Broadcast; label: string }) {
  const total = b.counts.audience;
  const pct =
    total > 0 ? Math.min(100, Math.floor((settled(b) / total) * 100)) : b.status === 'completed' ? 100 : 0;
  return <Bar label={label} pct={pct} />;
}

/** What "waiting for the messaging limit" means, with the number's own figures. */
export function LimitNote({ broadcast: b }: { broadcast: Broadcast }) {
  const { tier, used_24h, max_24h } = b.limit;
  return (
    <div className="note" role="status">
      <strong>Waiting for the messaging limit.</strong> WhatsApp lets this number start conversations with{' '}
      {max_24h === null ? 'a limited number of' : max_24h.toLocaleString()} different people in any 24 hours
      {tier ? ` (tier ${tier})` : ''}, and {used_24h.toLocaleString()} have been messaged in the last 24
      hours. The rest of this broadcast goes out by itself as earlier messages age past 24 hours; nothing
      needs doing. Sending good messages that people read raises the limit over time.
    </div>
  );
}

/** The broadcast's figures: each a term and its count, the replies with their window. */
export function Counts({ broadcast: b }: { broadcast: Broadcast }) {
  const c = b.counts;
  const items: [string, number][] = [
    ['Audience', c.audience],
    ['Queued', c.queued],
    ['Sent', c.sent],
    ['Delivered', c.delivered],
    ['Read', c.read],
    ['Failed', c.failed],
    ['Skipped', c.skipped],
    [`Replied within ${b.reply_window_hours} h`, c.replied],
  ];
  return (
    <>
      <dl className="stat-grid" data-testid="broadcast-counts">
        {items.map(([term, n]) => (
          <div key={term} className="stat">
            <dt className="small muted">{term}</dt>
            <dd>{n.toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      {b.failed_by_reason.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="small muted">Failed, by reason</caption>
            <thead>
              <tr>
                <th scope="col">Reason</th>
                <th scope="col">Code</th>
                <th scope="col">Recipients</th>
              </tr>
            </thead>
            <tbody>
              {b.failed_by_reason.map((r) => (
                <tr key={`${r.code}:${r.reason}`}>
                  <td>{r.reason}</td>
                  <td className="mono">{r.code ?? '—'}</td>
                  <td>{r.count.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
