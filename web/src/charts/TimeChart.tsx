import {
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'react';

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Legend, Tooltip);

export interface TimeSeries {
  label: string;
  /** `at`: an ISO date (`2026-11-23`) or date-time; one point per moment, oldest first. */
  points: { at: string; value: number }[];
}

// Distinct at a glance (no violet beside the indigo: the dashboard's fifth line looked like its first)
// and each at least 3:1 against white (WCAG 1.4.11); a dash per line for who cannot tell colours apart.
const COLOURS = ['#4f46e5', '#0f766e', '#b45309', '#dc2626', '#374151', '#0369a1', '#be185d', '#4d7c0f'];
const DASHES = [[], [6, 3], [2, 3], [10, 3, 2, 3]];

// A date (`2026-11-23`: a UTC day, the dashboard's) or a moment (a broadcast's minutes and hours).
const day = (at: string) =>
  at.length === 10
    ? new Date(`${at}T00:00:00Z`).toLocaleDateString(undefined, {
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      })
    : new Date(at).toLocaleString(undefined, {
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      });

const total = (s: TimeSeries) => s.points.reduce((sum, p) => sum + p.value, 0);

/** The chart in words, for a screen reader: each series' total over the period. */
function chartSummary(title: string, series: TimeSeries[]): string {
  const points = series[0]?.points ?? [];
  if (series.length === 0 || points.length === 0) return `${title}: no data.`;
  const span = `${day(points[0]!.at)} to ${day(points.at(-1)!.at)}`;
  return `${title}, ${span}: ${series.map((s) => `${s.label} ${total(s)}`).join(', ')}.`;
}

/**
 * A line per series over time (Chart.js on a canvas), with the same figures in a visually hidden
 * table and the totals as the canvas's accessible name.
 */
export function TimeChart({ series, title }: { series: TimeSeries[]; title: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const labels = (series[0]?.points ?? []).map((p) => day(p.at));
  useEffect(() => {
    if (!canvas.current) return;
    const points = series[0]?.points ?? [];
    const chart = new Chart(canvas.current, {
      type: 'line',
      data: {
        labels: points.map((p) => day(p.at)),
        datasets: series.map((s, i) => ({
          label: s.label,
          data: s.points.map((p) => p.value),
          borderColor: COLOURS[i % COLOURS.length],
          backgroundColor: COLOURS[i % COLOURS.length],
          borderDash: DASHES[i % DASHES.length],
          tension: 0.25,
          pointRadius: points.length > 31 ? 0 : 2,
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
        plugins: {
          // Each series drawn as its line, dash and all.
          legend: {
            position: 'bottom',
            labels: { usePointStyle: true, pointStyle: 'line', pointStyleWidth: 28 },
          },
        },
      },
    });
    return () => chart.destroy();
  }, [series]);
  const summary = chartSummary(title, series);
  return (
    <figure className="time-chart">
      <div className="time-chart-canvas">
        <canvas ref={canvas} role="img" aria-label={summary} />
      </div>
      {/* Wrapped: a table is never narrower than its cells, so a hidden one of its own would widen a phone's page. */}
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              {series.map((s) => (
                <th key={s.label} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, i) => (
              <tr key={series[0]!.points[i]!.at}>
                <th scope="row">{label}</th>
                {series.map((s) => (
                  <td key={s.label}>{s.points[i]?.value ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              {series.map((s) => (
                <td key={s.label}>{total(s)}</td>
              ))}
            </tr>
          </tfoot>
        </table>
      </div>
    </figure>
  );
}
