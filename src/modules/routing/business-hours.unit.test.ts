import { describe, expect, it } from 'vitest';
import { type Hours, insideBusinessHours } from './business-hours.js';

const weekdays = (from: string, to: string) => {
  const day = [{ from, to }];
  return { mon: day, tue: day, wed: day, thu: day, fri: day, sat: [], sun: [] };
};
const hours = (schedule: Hours['schedule'], holidays: Hours['holidays'] = []): Hours => ({
  schedule,
  holidays,
});
const inside = (h: Hours, zone: string, iso: string) => insideBusinessHours(h, zone, new Date(iso));

describe('insideBusinessHours', () => {
  it('is always inside without a schedule, even on a holiday', () => {
    expect(
      inside(hours(null, [{ date: '2026-12-25', name: 'Christmas' }]), 'UTC', '2026-12-25T03:00:00Z'),
    ).toBe(true);
  });

  it('includes an interval’s start and excludes its end, in the workspace time zone', () => {
    const h = hours(weekdays('09:00', '17:30'));
    // Friday 2026-11-27 in Kolkata (UTC+5:30): 09:00 is 03:30 UTC, 17:30 is 12:00 UTC.
    expect(inside(h, 'Asia/Kolkata', '2026-11-27T03:29:59Z')).toBe(false);
    expect(inside(h, 'Asia/Kolkata', '2026-11-27T03:30:00Z')).toBe(true);
    expect(inside(h, 'Asia/Kolkata', '2026-11-27T11:59:59Z')).toBe(true);
    expect(inside(h, 'Asia/Kolkata', '2026-11-27T12:00:00Z')).toBe(false);
    // The same instant in UTC is another local time.
    expect(inside(h, 'UTC', '2026-11-27T03:30:00Z')).toBe(false);
  });

  it('reads the weekday in the time zone: late Friday in New York is Saturday in UTC', () => {
    const h = hours({ fri: [{ from: '18:00', to: '24:00' }] });
    expect(inside(h, 'America/New_York', '2026-11-28T02:00:00Z')).toBe(true); // Fri 21:00 EST
    expect(inside(h, 'UTC', '2026-11-28T02:00:00Z')).toBe(false); // Sat 02:00 UTC
  });

  it('takes 24:00 as the end of the day, and the next day from 00:00', () => {
    const h = hours({ mon: [{ from: '22:00', to: '24:00' }], tue: [{ from: '00:00', to: '02:00' }] });
    expect(inside(h, 'UTC', '2026-11-23T23:59:59Z')).toBe(true); // Mon
    expect(inside(h, 'UTC', '2026-11-24T00:00:00Z')).toBe(true); // Tue, midnight
    expect(inside(h, 'UTC', '2026-11-24T01:59:00Z')).toBe(true);
    expect(inside(h, 'UTC', '2026-11-24T02:00:00Z')).toBe(false);
    expect(inside(h, 'UTC', '2026-11-24T22:30:00Z')).toBe(false); // Tue evening: Monday's hours only
  });

  it('closes a holiday all day, by its date in the time zone', () => {
    const h = hours(weekdays('00:00', '24:00'), [{ date: '2026-12-25', name: 'Christmas' }]);
    // Friday 2026-12-25 00:30 in Kolkata is still the 24th in UTC.
    expect(inside(h, 'Asia/Kolkata', '2026-12-24T19:00:00Z')).toBe(false);
    expect(inside(h, 'UTC', '2026-12-24T19:00:00Z')).toBe(true);
    expect(inside(h, 'UTC', '2026-12-25T19:00:00Z')).toBe(false);
    expect(inside(h, 'UTC', '2026-12-24T23:59:59Z')).toBe(true);
  });

  it('follows daylight saving time: 09:00 local is another UTC hour in summer', () => {
    const h = hours(weekdays('09:00', '17:00'));
    // Berlin: UTC+1 in winter, UTC+2 from Sunday 29 March 2026.
    expect(inside(h, 'Europe/Berlin', '2026-03-27T08:00:00Z')).toBe(true); // Fri 09:00 CET
    expect(inside(h, 'Europe/Berlin', '2026-03-30T07:00:00Z')).toBe(true); // Mon 09:00 CEST
    expect(inside(h, 'Europe/Berlin', '2026-03-30T06:59:00Z')).toBe(false); // Mon 08:59 CEST
    expect(inside(h, 'Europe/Berlin', '2026-03-27T07:59:00Z')).toBe(false); // Fri 08:59 CET
    // The night the clocks go forward: 02:00 to 03:00 never happens, 03:00 CEST is 01:00 UTC.
    const night = hours({ sun: [{ from: '03:00', to: '04:00' }] });
    expect(inside(night, 'Europe/Berlin', '2026-03-29T00:59:59Z')).toBe(false); // 01:59:59 CET
    expect(inside(night, 'Europe/Berlin', '2026-03-29T01:00:00Z')).toBe(true); // 03:00 CEST
  });

  it('is closed on a day the schedule leaves out or leaves empty', () => {
    const h = hours(weekdays('09:00', '17:00'));
    expect(inside(h, 'UTC', '2026-11-28T12:00:00Z')).toBe(false); // Saturday: []
    expect(inside(hours({ mon: [{ from: '09:00', to: '17:00' }] }), 'UTC', '2026-11-24T12:00:00Z')).toBe(
      false,
    );
  });

  it('opens in any of a day’s intervals', () => {
    const h = hours({
      wed: [
        { from: '08:00', to: '12:00' },
        { from: '13:00', to: '17:00' },
      ],
    });
    expect(inside(h, 'UTC', '2026-11-25T11:59:00Z')).toBe(true);
    expect(inside(h, 'UTC', '2026-11-25T12:30:00Z')).toBe(false);
    expect(inside(h, 'UTC', '2026-11-25T13:00:00Z')).toBe(true);
  });
});
