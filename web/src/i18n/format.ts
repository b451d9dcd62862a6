import { i18n } from './init';

// The workspace's time zone (Settings › General), set from the session; dates read the same for the whole team.
let timeZone = 'UTC';

export function setTimeZone(zone: string): void {
  timeZone = zone;
}

/** A date and time in the person's language and the workspace's time zone; '—' when there is none. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
    new Date(value),
  );
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat(i18n.language).format(value);
}

/** An amount in a currency (ISO 4217 code), as the person's language writes money. */
export function formatMoney(value: number, currency: string): string {
  return new Intl.NumberFormat(i18n.language, { style: 'currency', currency }).format(value);
}
