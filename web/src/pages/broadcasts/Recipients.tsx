import { useEffect, useState } from 'react';
import { formatDate, useApi } from '../../api';
import { ListTable, PAGE } from '../../list';
import { Link } from '../../router';
import type { RecipientList } from '../../server-types';
import { Badge } from '../../ui/Badge';
import { Empty } from '../../ui/Empty';
import { InputField } from '../../ui/Field';
import { StatusFilter } from './StatusFilter';

const STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'skipped'];

/** Who the broadcast went to and how each fared, filtered by status and failure code, a page at a time. */
export function Recipients({ broadcastId, tick }: { broadcastId: string; tick: number }) {
  const [status, setStatus] = useState('');
  const [code, setCode] = useState('');
  const [offset, setOffset] = useState(0);
  const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (status) query.set('status', status);
  if (/^\d+$/.test(code.trim())) query.set('code', code.trim());
  const list = useApi<RecipientList>(`/broadcasts/${broadcastId}/recipients?${query}`);
  const { reload } = list;
  useEffect(() => {
    if (tick > 0) reload();
  }, [tick, reload]);
  return (
    <div className="stack">
      <div className="row wrap filters">
        <StatusFilter
          statuses={STATUSES.map((s) => ({ value: s, label: s }))}
          value={status}
          onChange={(s) => {
            setStatus(s);
            setOffset(0);
          }}
        />
        <InputField
          label="Failure code"
          inputMode="numeric"
          maxLength={10}
          placeholder="e.g. 131026"
          error={
            code.trim() && !/^\d+$/.test(code.trim()) ? 'Digits only, as WhatsApp gives the code.' : undefined
          }
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            setOffset(0);
          }}
        />
      </div>
      <ListTable
        list={list}
        items={list.data?.recipients}
        empty={<Empty title="No recipients here">None match these filters yet.</Empty>}
        head={
          <>
            <th scope="col">Contact</th>
            <th scope="col">Status</th>
            <th scope="col">Why</th>
            <th scope="col" className="hide-sm">
              Sent
            </th>
            <th scope="col" className="hide-sm">
              Delivered
            </th>
            <th scope="col" className="hide-sm">
              Read
            </th>
            <th scope="col" className="hide-sm">
              Replied
            </th>
          </>
        }
        row={(r) => (
          <tr key={r.contact_id} data-testid="recipient">
            <td>
              <Link href={`/contacts/${r.contact_id}`}>{r.name || `+${r.phone}`}</Link>
              {r.name && <div className="small muted mono">+{r.phone}</div>}
            </td>
            <td>
              <Badge>{r.status}</Badge>
            </td>
            <td className="small">
              {r.error ? (
                <>
                  {r.error.title}
                  {r.error.code !== null && <span className="mono muted"> ({r.error.code})</span>}
                </>
              ) : (
                '—'
              )}
            </td>
            <td className="hide-sm small">{formatDate(r.sent_at)}</td>
            <td className="hide-sm small">{formatDate(r.delivered_at)}</td>
            <td className="hide-sm small">{formatDate(r.read_at)}</td>
            <td className="hide-sm small">{formatDate(r.replied_at)}</td>
          </tr>
        )}
        page={{ offset, hasNext: list.data?.has_next_page ?? false, onGo: setOffset }}
      />
    </div>
  );
}
