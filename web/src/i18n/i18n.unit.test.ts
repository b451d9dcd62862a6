import { describe, expect, it } from 'vitest';
import { LANGUAGES as SERVER_LANGUAGES } from '../../../src/modules/accounts/languages';
import { formatDateTime, formatMoney, formatNumber, setTimeZone, timeAgo } from './format';
import { i18n } from './init';
import { browserLanguage, directionOf, LANGUAGES } from './languages';

describe('the languages', () => {
  it('are the ones the server accepts, in the same order', () => {
    expect(LANGUAGES.map((l) => l.code)).toEqual([...SERVER_LANGUAGES]);
  });

  it('follow the browser: an exact tag, else its base, else English', () => {
    expect(browserLanguage(['pt-BR', 'en'])).toBe('pt-BR');
    expect(browserLanguage(['pt-PT'])).toBe('pt-BR');
    expect(browserLanguage(['es-MX', 'en'])).toBe('es');
    expect(browserLanguage(['fr-FR', 'ar-EG'])).toBe('ar');
    expect(browserLanguage(['fr-FR', 'de'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('hi')).toBe('ltr');
  });
});

describe('the Intl helpers', () => {
  it('write dates in the person’s language and the workspace’s time zone, numbers and money as the language does', async () => {
    // 23:30 UTC on 31 Jan is already 1 Feb in Kolkata (+5:30).
    const at = '2026-01-31T23:30:00Z';
    await i18n.changeLanguage('en');
    setTimeZone('UTC');
    expect(formatDateTime(at)).toBe(
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
        new Date(at),
      ),
    );
    expect(formatDateTime(at)).toMatch(/Jan 31, 2026/);
    setTimeZone('Asia/Kolkata');
    expect(formatDateTime(at)).toMatch(/Feb 1, 2026.*5:00/);
    expect(formatDateTime(null)).toBe('—');
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatMoney(1234.5, 'USD')).toBe('$1,234.50');
    await i18n.changeLanguage('pt-BR');
    expect(formatNumber(1234567)).toBe('1.234.567');
    expect(formatMoney(1234.5, 'BRL')).toBe('R$\u00a01.234,50');
    await i18n.changeLanguage('hi');
    expect(formatNumber(1234567)).toBe('12,34,567');
    await i18n.changeLanguage('en');
    setTimeZone('UTC');
  });

  it('falls back to English for a key a catalog lacks, and reads ICU plurals', async () => {
    i18n.addResource('en', 'shell', 'test.rows', '{count, plural, one {# row} other {# rows}}');
    await i18n.changeLanguage('es');
    expect(i18n.t('test.rows' as never, { count: 1 })).toBe('1 row');
    expect(i18n.t('test.rows' as never, { count: 3 })).toBe('3 rows');
    expect(i18n.t('nav.inbox')).toBe('Bandeja de entrada');
    await i18n.changeLanguage('en');
  });

  it('says how long ago as before in English, and with each language’s plural forms', async () => {
    const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
    await i18n.changeLanguage('en');
    expect(
      [null, ago(5), ago(60), ago(5 * 60), ago(3 * 3600), ago(86_400), ago(4 * 86_400)].map(timeAgo),
    ).toEqual(['never', 'just now', '1 min ago', '5 min ago', '3 h ago', '1 d ago', '4 d ago']);
    await i18n.changeLanguage('ar');
    expect([ago(60), ago(120), ago(3 * 60), ago(11 * 60)].map(timeAgo)).toEqual([
      'قبل دقيقة',
      'قبل دقيقتين',
      `قبل ${formatNumber(3)} دقائق`,
      `قبل ${formatNumber(11)} دقيقة`,
    ]);
    await i18n.changeLanguage('pt-BR');
    expect([ago(86_400), ago(2 * 86_400)].map(timeAgo)).toEqual(['há 1 dia', 'há 2 dias']);
    await i18n.changeLanguage('en');
  });
});
