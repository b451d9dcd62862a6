import type { Static } from 'typebox';
import type {
  BulkResult,
  LabelColour,
  LabelListResult,
  LabelRef,
  SavedViewListResult,
  ViewQuery,
} from '../../../../src/modules/inbox/label-schemas';

export type { LabelColour, LabelRef, ViewQuery };
export type LabelList = Static<typeof LabelListResult>;
export type Label = LabelList['labels'][number];
export type SavedViewList = Static<typeof SavedViewListResult>;
export type BulkAnswer = Static<typeof BulkResult>;

/** The palette, in the order the colour pickers show it (the server holds the same names). */
export const COLOURS: Record<LabelColour, string> = {
  grey: 'Grey',
  red: 'Red',
  orange: 'Orange',
  yellow: 'Yellow',
  green: 'Green',
  teal: 'Teal',
  blue: 'Blue',
  purple: 'Purple',
  pink: 'Pink',
};

/** When "tomorrow 9:00" or "next Monday 9:00" is in the workspace's time zone, as an instant. */
export function nineOClock(timeZone: string, daysAhead: number, from = new Date()): Date {
  const day = new Date(from.getTime() + daysAhead * 86_400_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(day)
      .map((p) => [p.type, p.value]),
  );
  // 9:00 on that date as if in UTC, moved by the zone's offset at that moment.
  const naive = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), 9);
  const shown = new Date(new Date(naive).toLocaleString('en-US', { timeZone }));
  const asUtc = new Date(new Date(naive).toLocaleString('en-US', { timeZone: 'UTC' }));
  return new Date(naive - (shown.getTime() - asUtc.getTime()));
}

/** Days from today to next Monday (7 on a Monday). */
export const daysToMonday = (now = new Date()) => (8 - now.getDay()) % 7 || 7;
