import { useTranslation } from 'react-i18next';
import { api, useApi } from './api';
import type { AvailabilityAnswer } from './server-types';
import { ErrorNote } from './ui/ErrorNote';
import { useAction } from './ui/use-action';

/** The person's own availability: online gets them new conversations of their teams, away does not. */
export function AvailabilitySwitch() {
  const { t } = useTranslation('shell');
  const me = useApi<AvailabilityAnswer>('/me/availability');
  const { busy, error, run } = useAction();
  if (!me.data) return null;
  const online = me.data.availability === 'online';
  const set = (on: boolean) =>
    run(() => api('PUT', '/me/availability', { availability: on ? 'online' : 'away' }));
  return (
    <div className="availability">
      <label className="check">
        <input
          type="checkbox"
          role="switch"
          aria-checked={online}
          aria-label={t('availability.label')}
          checked={online}
          disabled={busy}
          onChange={(e) => void set(e.target.checked)}
        />{' '}
        <span data-testid="my-availability">
          {online ? t('availability.online') : t('availability.away')}
        </span>
      </label>
      {error && <ErrorNote message={error} />}
    </div>
  );
}
