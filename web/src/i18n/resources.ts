import type { Language } from './languages';
import arAuth from './locales/ar/auth.json';
import arSettings from './locales/ar/settings.json';
import arShell from './locales/ar/shell.json';
import arUi from './locales/ar/ui.json';
import enAuth from './locales/en/auth.json';
import enSettings from './locales/en/settings.json';
import enShell from './locales/en/shell.json';
import enUi from './locales/en/ui.json';
import esAuth from './locales/es/auth.json';
import esSettings from './locales/es/settings.json';
import esShell from './locales/es/shell.json';
import esUi from './locales/es/ui.json';
import hiAuth from './locales/hi/auth.json';
import hiSettings from './locales/hi/settings.json';
import hiShell from './locales/hi/shell.json';
import hiUi from './locales/hi/ui.json';
import idAuth from './locales/id/auth.json';
import idSettings from './locales/id/settings.json';
import idShell from './locales/id/shell.json';
import idUi from './locales/id/ui.json';
import ptBRAuth from './locales/pt-BR/auth.json';
import ptBRSettings from './locales/pt-BR/settings.json';
import ptBRShell from './locales/pt-BR/shell.json';
import ptBRUi from './locales/pt-BR/ui.json';

// A type, not an interface: i18next's Resource wants an index signature, which only a type alias gives implicitly.
type Catalogs = {
  shell: typeof enShell;
  settings: typeof enSettings;
  ui: typeof enUi;
  auth: typeof enAuth;
};

/**
 * Every catalog, bundled: a few kilobytes per language, so switching needs no request.
 * One JSON file per language and namespace; scripts/check-catalogs.mjs keeps them in step with English.
 */
export const resources: Record<Language, Catalogs> = {
  en: { shell: enShell, settings: enSettings, ui: enUi, auth: enAuth },
  hi: { shell: hiShell, settings: hiSettings, ui: hiUi, auth: hiAuth },
  'pt-BR': { shell: ptBRShell, settings: ptBRSettings, ui: ptBRUi, auth: ptBRAuth },
  es: { shell: esShell, settings: esSettings, ui: esUi, auth: esAuth },
  id: { shell: idShell, settings: idSettings, ui: idUi, auth: idAuth },
  ar: { shell: arShell, settings: arSettings, ui: arUi, auth: arAuth },
};

/** The namespaces, for i18next's `ns`. */
export const NAMESPACES = Object.keys(resources.en) as (keyof Catalogs)[];
