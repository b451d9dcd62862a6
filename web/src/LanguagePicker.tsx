import { useTranslation } from 'react-i18next';
import { api } from './api';
import { applyLanguage } from './i18n/init';
import { browserLanguage, isLanguage, LANGUAGES } from './i18n/languages';
import { useSession } from './session';
import { ErrorNote } from './ui/ErrorNote';
import { useAction } from './ui/use-action';

const BROWSER = '';

/** The person's own language: saved for them, and the app switches at once, without a reload. */
export function LanguagePicker() {
  const { t } = useTranslation('shell');
  const { session, refresh } = useSession();
  const { busy, error, run } = useAction();
  const browser = LANGUAGES.find((l) => l.code === browserLanguage(navigator.languages))!;
  const choose = (value: string) =>
    run(async () => {
      const language = isLanguage(value) ? value : null;
      await api('PUT', '/me/language', { language });
      await applyLanguage(language ?? browser.code);
      await refresh();
    });
  return (
    <div className="language-picker">
      <label>
        <span className="small muted">{t('language.label')}</span>
        <select
          value={session.user.language ?? BROWSER}
          disabled={busy}
          onChange={(e) => void choose(e.target.value)}
        >
          <option value={BROWSER}>{t('language.browser', { name: browser.name })}</option>
          {LANGUAGES.map((l) => (
            <option key={l.code} value={l.code} lang={l.code} dir={l.dir}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
      {error && <ErrorNote message={error} />}
    </div>
  );
}
