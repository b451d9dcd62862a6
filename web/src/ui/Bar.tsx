/** A bar filled to `pct` percent, announced as a progress bar named `label`. */
export function Bar({ label, pct, hot = false }: { label: string; pct: number; hot?: boolean }) {
  return (
    <div
      className="meter-bar"
      role="progressbar"
      aria-label={label}
      aria-valuenow={pct}
      aria-valuemin={0}
      aria-valuemax={100}
    >
      <div className={hot ? 'meter-fill hot' : 'meter-fill'} style={{ width: `${pct}%` }} />
    </div>
  );
}
