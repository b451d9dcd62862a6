import { useTranslation } from 'react-i18next';
import { useLocale } from '../i18n/use-locale';
import { withElements } from '../i18n/with-elements';
import { Bar } from './Bar';

export function Meter({ label, used, limit }: { label: string; used: number; limit: number }) {
  const { t } = useTranslation('shell');
  const { formatNumber } = useLocale();
  const pct = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 100;
  return (
    <div className="meter">
      <div className="meter-top">
        <span>{label}</span>
        <span className="muted">
          {withElements((values) => t('meter.usedOf', { ...values, limit: formatNumber(limit) }), {
            used: <strong>{formatNumber(used)}</strong>,
          })}
        </span>
      </div>
      <Bar label={label} pct={pct} hot={pct >= 90} />
    </div>
  );
}
