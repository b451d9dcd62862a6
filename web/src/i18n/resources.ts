import type { Language } from './languages';
import arSettings from './locales/ar/settings.json';
import arShell from './locales/ar/shell.json';
import enSettings from './locales/en/settings.json';
import enShell from './locales/en/shell.json';
import esSettings from './locales/es/settings.json';
import esShell from './locales/es/shell.json';
import hiSettings from './locales/hi/settings.json';
import hiShell from './locales/hi/shell.json';
import idSettings from './locales/id/settings.json';
import idShell from './locales/id/shell.json';
import ptBRSettings from './locales/pt-BR/settings.json';
import ptBRShell from './locales/pt-BR/shell.json';

/**
 * Every catalog, bundled: a few kilobytes per language, so switching needs no request.
 * One JSON file per language and namespace; scripts/check-catalogs.mjs keeps them in step with English.
 */
export const resources: Record<Language, { shell: typeof enShell; settings: typeof enSettings }> = {
  en: { shell: enShell, settings: enSettings },
  hi: { shell: hiShell, settings: hiSettings },
  'pt-BR': { shell: ptBRShell, settings: ptBRSettings },
  es: { shell: esShell, settings: esSettings },
  id: { shell: idShell, settings: idSettings },
  ar: { shell: arShell, settings: arSettings },
};
