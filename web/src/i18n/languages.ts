/** The languages the app speaks: each named in its own script, with the direction it is written in. */
export const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'hi', name: 'हिन्दी', dir: 'ltr' },
  { code: 'pt-BR', name: 'Português (Brasil)', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'id', name: 'Bahasa Indonesia', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];

export const DEFAULT_LANGUAGE: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return LANGUAGES.some((l) => l.code === value);
}

export function directionOf(language: Language): 'ltr' | 'rtl' {
  return LANGUAGES.find((l) => l.code === language)?.dir ?? 'ltr';
}

/**
 * The first of the browser's languages the app speaks: an exact tag first (pt-BR), else its base
 * (es-MX → es, pt-PT → pt-BR, the only Portuguese we have); English when none matches.
 */
export function browserLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const exact = LANGUAGES.find((l) => l.code.toLowerCase() === tag.toLowerCase());
    if (exact) return exact.code;
    const base = tag.split('-')[0]!.toLowerCase();
    const near = LANGUAGES.find((l) => l.code.split('-')[0]!.toLowerCase() === base);
    if (near) return near.code;
  }
  return DEFAULT_LANGUAGE;
}
