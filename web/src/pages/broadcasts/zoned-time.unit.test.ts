import { describe, expect, it } from 'vitest';
import { nowIn, zonedToIso } from './zoned-time';

describe('a send time typed in the workspace time zone', () => {
  it("gives the zone's offset at that time, daylight saving included", () => {
    expect(zonedToIso('2026-11-24T09:30', 'Asia/Kolkata')).toBe('2026-11-24T09:30:00+05:30');
    expect(zonedToIso('2026-11-24T09:30', 'UTC')).toBe('2026-11-24T09:30:00+00:00');
    expect(zonedToIso('2026-01-15T08:00', 'America/New_York')).toBe('2026-01-15T08:00:00-05:00');
    expect(zonedToIso('2026-07-15T08:00', 'America/New_York')).toBe('2026-07-15T08:00:00-04:00');
    expect(zonedToIso('2026-07-15T08:00', 'Europe/London')).toBe('2026-07-15T08:00:00+01:00');
    expect(Date.parse(zonedToIso('2026-11-24T09:30', 'Asia/Kolkata')!)).toBe(
      Date.parse('2026-11-24T04:00:00Z'),
    );
  });

  it('refuses what is not a date and time', () => {
    expect(zonedToIso('', 'UTC')).toBeNull();
    expect(zonedToIso('tomorrow', 'UTC')).toBeNull();
  });

  it('reads now on the zone’s wall clock', () => {
    const at = Date.parse('2026-11-24T04:00:00Z');
    expect(nowIn('Asia/Kolkata', at)).toBe('2026-11-24T09:30');
    expect(nowIn('America/New_York', at)).toBe('2026-11-23T23:00');
  });
});
