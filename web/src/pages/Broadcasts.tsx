import { useState } from 'react';
import { formatDate, useApi } from '../api';
import { ListTable, PAGE } from '../list';
import { useLiveReload } from '../live';
import { Link, navigate } from '../router';
import type { BroadcastList } from '../server-types';
import { useSession } from '../session';
import { Badge } from '../ui/Badge';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { PageHeader } from '../ui/PageHeader';
import { ProgressBar } from './broadcasts/BroadcastProgress';
import { StatusFilter } from './broadcasts/StatusFilter';
import { BROADCAST_EVENTS, type BroadcastStatus, STATUS_LABEL } from './broadcasts/types';

/** Every broadcast, newest first, with its status, template, figures and progress; kept live from the workspace's events. */
export function BroadcastsPage() {
  const { session } = useSession();
  const [status, setStatus] = useState('');
  const [offset, setOffset] = useState(0);
  const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (status) query.set('status', status);
  const list = useApi<BroadcastList>(`/broadcasts?${query}`);
  useLiveReload(BROADCAST_EVENTS, list.reload);
  const newButton = session.can_manage && (
    <Link href="/broadcasts/new" className="btn primary">
      New broadcast
    </Link>
  );
  return (
    <>
      <PageHeader
        title="Broadcasts"
        description="An approved template sent to a segment of your contacts, each message filled from the contact."
        actions={newButton}
      />
      <Card>
        <div className="row wrap filters">
          <StatusFilter
            statuses={(Object.keys(STATUS_LABEL) as BroadcastStatus[]).map((s) => ({
              value: s,
              label: STATUS_LABEL[s],
            }))}
            value={status}
            onChange={(s) => {
              setStatus(s);
              setOffset(0);
            }}
          />
        </div>
        <ListTable
          list={list}
          items={list.data?.broadcasts}
          empty={
            <Empty icon="✺" title="No broadcasts yet" action={newButton}>
              Send an approved template to contacts chosen by tag, trait, date or a CSV you upload.
            </Empty>
          }
          head={
            <>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col" className="hide-sm">
                Template
              </th>
              <th scope="col">Audience</th>
              <th scope="col" className="hide-sm">
                Sent · delivered · read · failed
              </th>
              <th scope="col">Progress</th>
              <th scope="col" className="hide-sm">
                When
              </th>
            </>
          }
          row={(b) => (
            <tr key={b.id} className="clickable" onClick={() => navigate(`/broadcasts/${b.id}`)}>
              <td>
                <Link href={`/broadcasts/${b.id}`} onClick={(e) => e.stopPropagation()}>
                  {b.name}
                </Link>
              </td>
              <td>
                <Badge tone={b.status === 'waiting_for_limit' ? 'amber' : undefined}>
                  {STATUS_LABEL[b.status]}
                </Badge>
              </td>
              <td className="hide-sm mono small">{b.template.name}</td>
              <td>{b.counts.audience.toLocaleString()}</td>
              <td className="hide-sm small">
                {[b.counts.sent, b.counts.delivered, b.counts.read, b.counts.failed]
                  .map((n) => n.toLocaleString())
                  .join(' · ')}
              </td>
              <td>
                <ProgressBar broadcast={b} label={`Progress of ${b.name}`} />
              </td>
              <td className="hide-sm small">{formatDate(b.send_at ?? b.started_at ?? b.created_at)}</td>
            </tr>
          )}
          page={{ offset, hasNext: list.data?.has_next_page ?? false, onGo: setOffset }}
        />
      </Card>
    </>
  );
}
