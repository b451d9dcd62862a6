import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney, formatNumber } from './format';
import { directionOf, isLanguage, type Language } from './languages';

/**
 * The person's language as the app shows it now, its direction, and the Intl formatters: a component
 * that formats through this hook shows the new language's digits and dates as soon as it is chosen,
 * even if it translates nothing itself.
 */
export function useLocale() {
  const { i18n } = useTranslation();
  const language: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  return { language, dir: directionOf(language), formatDateTime, formatNumber, formatMoney };
}
