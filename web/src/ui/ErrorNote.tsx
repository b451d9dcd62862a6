import { useTranslation } from 'react-i18next';

export function ErrorNote({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const { t } = useTranslation('ui');
  return (
    <div className="error-note" role="alert">
      <span>{message}</span>
      {onRetry && (
        <button type="button" className="btn small" onClick={onRetry}>
          {t('tryAgain')}
        </button>
      )}
    </div>
  );
}
