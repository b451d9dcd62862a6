import 'i18next';
import type auth from './locales/en/auth.json';
import type settings from './locales/en/settings.json';
import type shell from './locales/en/shell.json';
import type ui from './locales/en/ui.json';

// Keys are checked against the English catalogs at compile time; ICU's braces are not i18next's.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'shell';
    parseInterpolation: false;
    resources: { shell: typeof shell; settings: typeof settings; ui: typeof ui; auth: typeof auth };
  }
}
