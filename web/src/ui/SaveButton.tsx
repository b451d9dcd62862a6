import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A form's submit button, with "Saved" beside it once the form has been saved. */
export function SaveButton({
  busy,
  saved,
  children,
}: {
  busy: boolean;
  saved: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('ui');
  return (
    <>
      <button type="submit" className="btn primary" disabled={busy}>
        {children}
      </button>
      {saved && (
        <span className="small success" role="status">
          {t('saved')}
        </span>
      )}
    </>
  );
}
