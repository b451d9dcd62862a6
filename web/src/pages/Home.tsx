import { useApi } from '../api';
import { Link } from '../router';
import { useSession } from '../session';
import { Card, Loading, Meter, PageHeader } from '../ui';
import { DashboardCharts } from './home/Dashboard';

interface Counts {
  number: { number: unknown | null };
  keys: { api_keys: { revoked_at: string | null }[] };
  team: { members: unknown[]; invitations: unknown[] };
  forms: { forms: unknown[] };
  automations: { automations: { status: string }[] };
}

interface Usage {
  contacts: { used: number; limit: number };
  messages_this_month: { used: number; limit: number };
  leads_this_month: { used: number; limit: number } | null;
}

/** Where a workspace starts: the next steps, this month's usage, and charts of the recent activity. */
export function HomePage() {
  const { session } = useSession();
  const number = useApi<Counts['number']>('/number');
  const keys = useApi<Counts['keys']>('/api-keys');
  const team = useApi<Counts['team']>('/team');
  const forms = useApi<Counts['forms']>('/forms');
  const automations = useApi<Counts['automations']>('/automations');
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
    </>
  );
}
