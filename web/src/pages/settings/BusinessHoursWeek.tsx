import type { BusinessHours } from '../../server-types';

export type Schedule = NonNullable<BusinessHours['schedule']>;
type DayName = keyof Schedule;
type Interval = { from: string; to: string };

const DAYS: [DayName, string][] = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
];
const MAX_INTERVALS = 3;

/** Mondays to Fridays 09:00 to 17:00: where a new schedule starts. */
export const OFFICE_HOURS: Schedule = Object.fromEntries(
  DAYS.map(([d]) => [d, d === 'sat' || d === 'sun' ? [] : [{ from: '09:00', to: '17:00' }]]),
);

/** The first problem the server found at or under `key`, for the field it belongs to. */
const problemAt = (errors: Record<string, string>, key: string) =>
  Object.entries(errors).find(([f]) => f === key || f.startsWith(`${key}.`))?.[1];

/** The week's opening times: each day closed or open in up to three intervals (HH:MM, 24:00 as an end). */
export function WeekEditor({
  schedule,
  errors,
  readOnly,
  onChange,
}: {
  schedule: Schedule;
  errors: Record<string, string>;
  readOnly: boolean;
  onChange: (s: Schedule) => void;
}) {
  const setDay = (day: DayName, intervals: Interval[]) => onChange({ ...schedule, [day]: intervals });
  return (
    <fieldset className="stack hours-week">
      <legend>Opening times</legend>
      {DAYS.map(([day, label]) => {
        const intervals = schedule[day] ?? [];
        const dayError = errors[`schedule.${day}`];
        return (
          <div key={day} className="hours-day">
            <label className="check">
              <input
                type="checkbox"
                checked={intervals.length > 0}
                disabled={readOnly}
                onChange={(e) => setDay(day, e.target.checked ? [{ from: '09:00', to: '17:00' }] : [])}
              />{' '}
              {label} {intervals.length === 0 && <span className="muted">closed</span>}
            </label>
            {intervals.map((interval, n) => {
              const at = `schedule.${day}.${n}`;
              const error = problemAt(errors, `${at}.from`) ?? problemAt(errors, `${at}.to`);
              const set = (patch: Partial<Interval>) =>
                setDay(
                  day,
                  intervals.map((x, k) => (k === n ? { ...x, ...patch } : x)),
                );
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: intervals have no id; their place is what the errors name
                <div key={n} className="row hours-interval">
                  <input
                    aria-label={`${label} opens (${n + 1})`}
                    className="time-input"
                    placeholder="09:00"
                    value={interval.from}
                    disabled={readOnly}
                    aria-invalid={Boolean(error)}
                    onChange={(e) => set({ from: e.target.value })}
                  />
                  <span>to</span>
                  <input
                    aria-label={`${label} closes (${n + 1})`}
                    className="time-input"
                    placeholder="17:30"
                    value={interval.to}
                    disabled={readOnly}
                    aria-invalid={Boolean(error)}
                    onChange={(e) => set({ to: e.target.value })}
                  />
                  {!readOnly && (
                    <button
                      type="button"
                      className="btn small"
                      aria-label={`Remove ${label}'s opening time ${n + 1}`}
                      onClick={() =>
                        setDay(
                          day,
                          intervals.filter((_, k) => k !== n),
                        )
                      }
                    >
                      Remove
                    </button>
                  )}
                  {error && <span className="field-error">{error}</span>}
                </div>
              );
            })}
            {!readOnly && intervals.length > 0 && intervals.length < MAX_INTERVALS && (
              <button
                type="button"
                className="btn small"
                onClick={() => setDay(day, [...intervals, { from: '', to: '' }])}
              >
                Add opening time on {label}
              </button>
            )}
            {dayError && <p className="field-error">{dayError}</p>}
          </div>
        );
      })}
    </fieldset>
  );
}

type Holiday = BusinessHours['holidays'][number];

/** Days closed all day (a date in the workspace's time zone), each with a name. */
export function HolidaysEditor({
  holidays,
  errors,
  readOnly,
  onChange,
}: {
  holidays: Holiday[];
  errors: Record<string, string>;
  readOnly: boolean;
  onChange: (h: Holiday[]) => void;
}) {
  const set = (n: number, patch: Partial<Holiday>) =>
    onChange(holidays.map((h, k) => (k === n ? { ...h, ...patch } : h)));
  return (
    <fieldset className="stack hours-week">
      <legend>Holidays (closed all day)</legend>
      {holidays.length === 0 && <p className="small muted">No holidays.</p>}
      {holidays.map((h, n) => {
        const error = problemAt(errors, `holidays.${n}.date`) ?? problemAt(errors, `holidays.${n}.name`);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: holidays have no id; their place is what the errors name
          <div key={n} className="row hours-interval">
            <input
              type="date"
              aria-label={`Holiday ${n + 1} date`}
              value={h.date}
              disabled={readOnly}
              aria-invalid={Boolean(problemAt(errors, `holidays.${n}.date`))}
              onChange={(e) => set(n, { date: e.target.value })}
            />
            <input
              aria-label={`Holiday ${n + 1} name`}
              placeholder="Christmas"
              maxLength={100}
              value={h.name}
              disabled={readOnly}
              aria-invalid={Boolean(problemAt(errors, `holidays.${n}.name`))}
              onChange={(e) => set(n, { name: e.target.value })}
            />
            {!readOnly && (
              <button
                type="button"
                className="btn small"
                aria-label={`Remove holiday ${n + 1}`}
                onClick={() => onChange(holidays.filter((_, k) => k !== n))}
              >
                Remove
              </button>
            )}
            {error && <span className="field-error">{error}</span>}
          </div>
        );
      })}
      {errors.holidays && <p className="field-error">{errors.holidays}</p>}
      {!readOnly && (
        <div>
          <button
            type="button"
            className="btn small"
            onClick={() => onChange([...holidays, { date: '', name: '' }])}
          >
            Add a holiday
          </button>
        </div>
      )}
    </fieldset>
  );
}
