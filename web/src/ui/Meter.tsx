import { Bar } from './Bar';

export function Meter({ label, used, limit }: { label: string; used: number; limit: number }) {
  const pct = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 100;
  return (
    <div className="meter">
      <div className="meter-top">
        <span>{label}</span>
        <span className="muted">
          <strong>{used.toLocaleString()}</strong> of {limit.toLocaleString()}
        </span>
      </div>
      <Bar label={label} pct={pct} hot={pct >= 90} />
    </div>
  );
}
