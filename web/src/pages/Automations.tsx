import { useState } from 'react';
import { timeAgo, useApi } from '../api';
import { ArchivedToggle } from '../confirm';
import { ListTable } from '../list';
import { Link, navigate } from '../router';
import type { Automation, AutomationList } from '../server-types';
import { Badge } from '../ui/Badge';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { PageHeader } from '../ui/PageHeader';

export type Kind = 'flow' | 'sequence';

export const KIND_TEXT = {
  flow: {
    title: 'Flows',
    path: '/flows',
    one: 'flow',
    description:
      'Flows start when your systems track an event (POST /api/v1/events) with the name they listen for, or when a customer writes (a bot).',
    empty:
      'A flow listens for an event such as “signup” and then sends templates, waits, tags contacts and branches on what it knows.',
  },
  sequence: {
    title: 'Sequences',
    path: '/sequences',
    one: 'sequence',
    description:
      'Sequences follow up on leads: started by a secret webhook URL, a form submission or any new lead.',
    empty:
      'A sequence starts for a lead — from a webhook (Zapier, your CRM, ad platforms), a form, or every new lead — and works through its steps.',
  },
} as const;

export function triggerLabel(a: Pick<Automation, 'trigger_type' | 'trigger_event'>): string {
  switch (a.trigger_type) {
    case 'event':
      return `Event “${a.trigger_event}”`;
    case 'webhook':
      return 'Webhook';
    case 'form_submitted':
      return 'Form submitted';
    case 'lead_created':
      return 'Lead created';
    case 'message_received':
      return 'A customer writes';
    default:
      return a.trigger_type;
  }
}

export function AutomationsPage({ kind }: { kind: Kind }) {
  const text = KIND_TEXT[kind];
  const [archived, setArchived] = useState(false);
  const list = useApi<AutomationList>(`/automations?kind=${kind}${archived ? '&archived=true' : ''}`);
  const create = (
    <Link href={`${text.path}/new`} className="btn primary">
      New {text.one}
    </Link>
  );
  return (
    <>
      <PageHeader
        title={text.title}
        description={text.description}
        actions={
          <>
            <ArchivedToggle value={archived} onChange={setArchived} />
            {create}
          </>
        }
      />
      <Card>
        <ListTable
          list={list}
          items={list.data?.automations}
          empty={
            archived ? (
              <Empty icon="⟳" title={`No archived ${text.title.toLowerCase()}`} />
            ) : (
              <Empty icon="⟳" title={`No ${text.title.toLowerCase()} yet`} action={create}>
                {text.empty}
              </Empty>
            )
          }
          head={
            <>
              <th>Name</th>
              <th>Trigger</th>
              <th>Status</th>
              <th className="hide-sm">Runs</th>
              <th className="hide-sm">Last run</th>
            </>
          }
          row={(a) => (
            <tr key={a.id} className="clickable" onClick={() => navigate(`${text.path}/${a.id}`)}>
              <td>
                <Link href={`${text.path}/${a.id}`} className="strong-link">
                  {a.name}
                </Link>
                <div className="small muted">{a.draft.steps.length} steps</div>
              </td>
              <td>{triggerLabel(a)}</td>
              <td>
                <Badge>{a.status}</Badge>
                {a.unpublished_changes && <div className="small muted">unpublished changes</div>}
              </td>
              <td className="hide-sm">{a.runs ?? 0}</td>
              <td className="muted hide-sm">{a.last_run_at ? timeAgo(a.last_run_at) : '—'}</td>
            </tr>
          )}
        />
      </Card>
    </>
  );
}
