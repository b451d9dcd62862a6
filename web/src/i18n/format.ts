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

/** How long ago, as a support team says it ("5 min ago"), in the person's language; plurals by ICU. */
export function timeAgo(value: string | null | undefined): string {
  if (!value) return i18n.t('time.never');
  const s = Math.round((Date.now() - new Date(value).getTime()) / 1000);
  if (s < 60) return i18n.t('time.justNow');
  if (s < 3600) return i18n.t('time.minutes', { count: Math.floor(s / 60) });
  if (s < 86_400) return i18n.t('time.hours', { count: Math.floor(s / 3600) });
  return i18n.t('time.days', { count: Math.floor(s / 86_400) });
}
