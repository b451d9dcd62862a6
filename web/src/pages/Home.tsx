import { useApi } from '../api';
import { Link } from '../router';
import type { ApiKeyList, AutomationList, FormList, NumberAnswer, Team, Usage } from '../server-types';
import { useSession } from '../session';
import { Card } from '../ui/Card';
import { Loading } from '../ui/Loading';
import { Meter } from '../ui/Meter';
import { PageHeader } from '../ui/PageHeader';
import { DashboardCharts } from './home/Dashboard';
import { SatisfactionCard } from './home/Satisfaction';

/** Where a workspace starts: the next steps, this month's usage, and charts of the recent activity. */
export function HomePage() {
  const { session } = useSession();
  const number = useApi<NumberAnswer>('/number');
  const keys = useApi<ApiKeyList>('/api-keys');
  const team = useApi<Team>('/team');
  const forms = useApi<FormList>('/forms');
  const automations = useApi<AutomationList>('/automations');
  const usage = useApi<Usage>('/usage');
  const loading = [number, keys, team, forms, automations].some((x) => x.loading && !x.data);
  const steps = [
    {
      done: !!number.data?.number,
      title: 'Connect a WhatsApp number',
      text: 'Or try everything with the built-in simulator.',
      href: '/settings/number',
    },
    {
      done: !!keys.data?.api_keys.some((k) => !k.revoked_at),
      title: 'Create an API key',
      text: 'Send messages and track events from your systems.',
      href: '/settings/developer',
    },
    {
      done: (forms.data?.forms.length ?? 0) > 0,
      title: 'Publish a lead form',
      text: 'Host it on Parley or embed it on your site.',
      href: '/forms',
    },
    {
      done: !!automations.data?.automations.some((a) => a.status === 'published'),
      title: 'Publish a flow or sequence',
      text: 'Welcome sign-ups, follow up on leads.',
      href: '/flows',
    },
    {
      done: (team.data?.members.length ?? 0) + (team.data?.invitations.length ?? 0) > 1,
      title: 'Invite your team',
      text: 'Owners, admins and members.',
      href: '/settings/team',
    },
  ];
  const left = steps.filter((s) => !s.done).length;
  return (
    <>
      <PageHeader
        title={`Welcome, ${session.user.name || session.user.email}`}
        description={`${session.workspace.name} at a glance.`}
      />
      <div className="grid-2">
        <Card
          title="Get started"
          description={
            loading
              ? undefined
              : left === 0
                ? 'All set: everything is in place.'
                : `${left} of ${steps.length} steps left.`
          }
        >
          {loading ? (
            <Loading />
          ) : (
            <ol className="checklist">
              {steps.map((s) => (
                <li key={s.title} className={s.done ? 'done' : undefined}>
                  <span className="check-mark" aria-hidden="true">
                    {s.done ? '✓' : ''}
                  </span>
                  <div>
                    <Link href={s.href} className="strong-link">
                      {s.title}
                    </Link>
                    {s.done && <span className="sr-only"> (done)</span>}
                    <div className="small muted">{s.text}</div>
                  </div>
                </li>
              ))}
            </ol>
          )}
        </Card>
        <Card
          title="This month"
          actions={
            <Link href="/settings/plan" className="small">
              Plan
            </Link>
          }
        >
          {usage.data ? (
            <div className="stack">
              <Meter label="Contacts" used={usage.data.contacts.used} limit={usage.data.contacts.limit} />
              <Meter
                label="Messages"
                used={usage.data.messages_this_month.used}
                limit={usage.data.messages_this_month.limit}
              />
              {usage.data.leads_this_month && (
                <Meter
                  label="Leads"
                  used={usage.data.leads_this_month.used}
                  limit={usage.data.leads_this_month.limit}
                />
              )}
            </div>
          ) : (
            <Loading />
          )}
        </Card>
      </div>
      <DashboardCharts />
      <SatisfactionCard />
    </>
  );
}
