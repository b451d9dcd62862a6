import { useTranslation } from 'react-i18next';

/** A spinner and what is loading: "Loading…" unless `label` says more ("Loading charts"). */
export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation('ui');
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label ? `${label}…` : t('loading')}
    </div>
  );
}
