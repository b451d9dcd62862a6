import { useTranslation } from 'react-i18next';
import { useApi } from '../../api';
import { withElements } from '../../i18n/with-elements';
import type { Usage } from '../../server-types';
import { Badge } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { Loading } from '../../ui/Loading';
import { Meter } from '../../ui/Meter';

export function PlanSettings() {
  const { t } = useTranslation('settings');
  const usage = useApi<Usage>('/usage');
  if (usage.loading && !usage.data) return <Loading />;
  if (usage.error || !usage.data)
    return <ErrorNote message={usage.error ?? t('plan.notFound')} onRetry={usage.reload} />;
  const u = usage.data;
  return (
    <Card
      title={t('plan.title')}
      description={t('plan.description')}
      actions={<Badge tone="violet">{u.plan}</Badge>}
    >
      <div className="stack">
        <Meter label={t('plan.contacts')} used={u.contacts.used} limit={u.contacts.limit} />
        <Meter
          label={t('plan.messages')}
          used={u.messages_this_month.used}
          limit={u.messages_this_month.limit}
        />
        <Meter label={t('plan.leads')} used={u.leads_this_month.used} limit={u.leads_this_month.limit} />
      </div>
      <p className="small muted">
        {withElements((values) => t('plan.operator', { command: values.command }), {
          command: <code>parley plan set</code>,
        })}
      </p>
    </Card>
  );
}
