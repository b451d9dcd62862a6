import { useApi } from '../../api';
import type { Usage } from '../../server-types';
import { Badge } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { Loading } from '../../ui/Loading';
import { Meter } from '../../ui/Meter';

export function PlanSettings() {
  const usage = useApi<Usage>('/usage');
  if (usage.loading && !usage.data) return <Loading />;
  if (usage.error || !usage.data)
    return <ErrorNote message={usage.error ?? 'Not found'} onRetry={usage.reload} />;
  const u = usage.data;
  return (
    <Card
      title="Plan and usage"
      description="Limits reset on the first of each month (UTC); contacts count for as long as they exist."
      actions={<Badge tone="violet">{u.plan}</Badge>}
    >
      <div className="stack">
        <Meter label="Contacts" used={u.contacts.used} limit={u.contacts.limit} />
        <Meter
          label="Messages this month"
          used={u.messages_this_month.used}
          limit={u.messages_this_month.limit}
        />
        <Meter label="Leads this month" used={u.leads_this_month.used} limit={u.leads_this_month.limit} />
      </div>
      <p className="small muted">
        The server's operator changes plans with <code>parley plan set</code>.
      </p>
    </Card>
  );
}
