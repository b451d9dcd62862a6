import { useTranslation } from 'react-i18next';
import { directionOf, isLanguage, type Language } from './languages';

/** The person's language as the app shows it now, and its direction; re-renders when it changes. */
export function useLocale(): { language: Language; dir: 'ltr' | 'rtl' } {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : 'en';
  return { language, dir: directionOf(language) };
}
