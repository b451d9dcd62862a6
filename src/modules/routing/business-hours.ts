import type { DayName, Holiday, Schedule } from './business-hours-schemas.js';

/** What decides whether a moment is inside business hours. */
export interface Hours {
  schedule: Schedule | null;
  holidays: readonly Holiday[];
}

interface LocalTime {
  date: string;
  day: DayName;
  time: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock date, weekday and HH:MM at `at` in `timeZone` (DST applied by Intl). */
export function localTime(timeZone: string, at: Date): LocalTime {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
    });
    formats.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    date: `${part.year}-${part.month}-${part.day}`,
    day: part.weekday!.toLowerCase().slice(0, 3) as DayName,
    time: `${part.hour}:${part.minute}`,
  };
}

/**
 * Whether `at` is inside business hours: not on a holiday (a date in the time zone), and within one
 * of that weekday's intervals, `from` included and `to` excluded ("24:00": to the end of the day).
 * No schedule means always inside.
 */
export function insideBusinessHours(hours: Hours, timeZone: string, at: Date): boolean {
  if (!hours.schedule) return true;
  const local = localTime(timeZone, at);
  if (hours.holidays.some((h) => h.date === local.date)) return false;
  // Zero-padded HH:MM strings compare as times do.
  return (hours.schedule[local.day] ?? []).some((i) => i.from <= local.time && local.time < i.to);
}
