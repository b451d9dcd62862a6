import i18next from 'i18next';
import ICU from 'i18next-icu';
import { initReactI18next } from 'react-i18next';
import { directionOf, type Language } from './languages';
import { NAMESPACES, resources } from './resources';

/** The app's one i18next instance: ICU MessageFormat, every catalog bundled, English beneath the rest. */
export const i18n = i18next.createInstance();

void i18n
  .use(ICU)
  .use(initReactI18next)
  .init({
    resources,
    lng: 'en',
    fallbackLng: 'en',
    ns: NAMESPACES,
    defaultNS: 'shell',
    // React escapes what it renders; ICU does the formatting.
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });

/** Switches the app's language at once, and the page's `lang` and `dir` with it (Arabic reads right to left). */
export async function applyLanguage(language: Language): Promise<void> {
  const html = document.documentElement;
  html.lang = language;
  html.dir = directionOf(language);
  if (i18n.language !== language) await i18n.changeLanguage(language);
}
