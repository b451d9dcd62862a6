/** The languages the web app has catalogs for (web/src/i18n/languages.ts names them; a unit test keeps the two lists equal). */
export const LANGUAGES = ['en', 'hi', 'pt-BR', 'es', 'id', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
