/** Minutes `tz` is ahead of UTC at the instant `ms`. */
function offsetMinutes(ms: number, tz: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A wall-clock time typed in a `datetime-local` input ("2026-11-24T09:30"), read in the time zone `tz`,
 * as ISO 8601 with that zone's offset then ("2026-11-24T09:30:00+05:30"); null when it is no time.
 */
export function zonedToIso(local: string, tz: string): string | null {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)$/.exec(local);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as number[];
  const wall = Date.UTC(y!, mo! - 1, d!, h!, mi!);
  // The offset at the guess can differ from the one at the answer across a DST change: look twice.
  let offset = offsetMinutes(wall - offsetMinutes(wall, tz) * 60_000, tz);
  offset = offsetMinutes(wall - offset * 60_000, tz);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The wall-clock time now in `tz`, as a `datetime-local` input takes it ("2026-11-24T09:30"). */
export function nowIn(tz: string, ms = Date.now()): string {
  const local = new Date(ms + offsetMinutes(ms, tz) * 60_000);
  return local.toISOString().slice(0, 16);
}

/** An instant as people in `tz` read it: "24 Nov 2026, 09:30". */
export function formatIn(iso: string, tz: string): string {
  return new Date(iso).toLocaleString(undefined, { timeZone: tz, dateStyle: 'medium', timeStyle: 'short' });
}
