import { useApi } from '../../api';
import { Link, useLocation } from '../../router';
import type { Satisfaction } from '../../server-types';
import { Bar } from '../../ui/Bar';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { Loading } from '../../ui/Loading';

const PERIODS = [7, 30, 90];
const rating = (n: number | null) => (n === null ? '–' : n.toFixed(2));

/** The home page's satisfaction survey figures over the dashboard's period: average, distribution, per teammate. */
export function SatisfactionCard() {
  const { query } = useLocation();
  const asked = Number(query.get('days'));
  const days = PERIODS.includes(asked) ? asked : 30;
  const data = useApi<Satisfaction>(`/satisfaction?days=${days}`);
  const d = data.data;
  return (
    <div className="section-gap">
      <Card
        title="Customer satisfaction"
        description={`Ratings from 1 to 5 over the last ${days} days, per teammate assigned at the resolve.`}
        actions={
          <Link href="/settings/survey" className="small">
            Survey settings
          </Link>
        }
      >
        {data.error ? (
          <ErrorNote message={data.error} onRetry={data.reload} />
        ) : !d ? (
          <Loading />
        ) : d.answered === 0 ? (
          <p className="muted small">
            No ratings in these days ({d.asked} {d.asked === 1 ? 'survey' : 'surveys'} sent).
          </p>
        ) : (
          <div className="grid-2">
            <div className="stack">
              <p>
                <strong className="big-number" data-testid="satisfaction-average">
                  {rating(d.average)}
                </strong>{' '}
                <span className="muted">average of 5</span>
              </p>
              <p className="small muted">
                {d.answered} {d.answered === 1 ? 'rating' : 'ratings'}, {d.asked}{' '}
                {d.asked === 1 ? 'survey' : 'surveys'} sent
              </p>
              <ul className="plain-list stack">
                {[...d.distribution].reverse().map((r) => (
                  <li key={r.rating} className="meter">
                    <div className="meter-top">
                      <span>Rated {r.rating}</span>
                      <span className="muted">{r.count}</span>
                    </div>
                    <Bar label={`Rated ${r.rating}`} pct={Math.round((r.count / d.answered) * 100)} />
                  </li>
                ))}
              </ul>
            </div>
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Ratings per teammate</caption>
                <thead>
                  <tr>
                    <th scope="col">Teammate</th>
                    <th scope="col">Ratings</th>
                    <th scope="col">Average</th>
                  </tr>
                </thead>
                <tbody>
                  {d.teammates.map((t) => (
                    <tr key={t.user_id ?? 'unassigned'}>
                      <td>{t.name ?? <span className="muted">Unassigned</span>}</td>
                      <td>{t.answered}</td>
                      <td>{rating(t.average)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        )}
      </Card>
    </div>
  );
}
