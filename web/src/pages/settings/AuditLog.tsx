import { useState } from 'react';
import { formatDate, useApi } from '../../api';
import { ListTable, PAGE } from '../../list';
import type { AuditEntry, AuditList } from '../../server-types';
import { Badge } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import { Empty } from '../../ui/Empty';

const ENTITIES: [string, string][] = [
  ['', 'Everything'],
  ['contact', 'Contacts'],
  ['lead', 'Leads'],
  ['form', 'Forms'],
  ['flow', 'Flows'],
  ['sequence', 'Sequences'],
  ['template', 'Templates'],
  ['member', 'Team members'],
  ['invitation', 'Invitations'],
  ['api_key', 'API keys'],
  ['team', 'Teams'],
  ['routing', 'Routing'],
  ['business_hours', 'Business hours'],
  ['satisfaction_survey', 'Satisfaction survey'],
  ['quick_reply', 'Quick replies'],
];

const who = (e: AuditEntry) =>
  e.actor_type === 'system'
    ? 'Parley'
    : e.actor_type === 'api_key'
      ? `API key ${e.actor_name ?? e.actor_id}`
      : (e.actor_name ?? 'a former teammate');

/** What changed, in a line: the fields named and small values such as a role. */
function changed(c: Record<string, unknown>): string {
  const { fields, ...rest } = c;
  const parts = Array.isArray(fields) && fields.length ? [`fields: ${fields.join(', ')}`] : [];
  for (const [k, v] of Object.entries(rest)) parts.push(`${k}: ${String(v)}`);
  return parts.join(' · ');
}

/** Settings › Audit log: who created, changed, archived or deleted what (owners and admins). */
export function AuditLogSettings() {
  const [entity, setEntity] = useState('');
  const [offset, setOffset] = useState(0);
  const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (entity) params.set('entity', entity);
  const list = useApi<AuditList>(`/audit-log?${params}`);
  return (
    <Card
      title="Audit log"
      description="Every create, edit, archive and delete of contacts, leads, forms, flows, templates, the team and API keys."
      actions={
        <label className="inline-select">
          <span className="small muted">Show</span>
          <select
            aria-label="Filter by kind of thing"
            value={entity}
            onChange={(e) => {
              setEntity(e.target.value);
              setOffset(0);
            }}
          >
            {ENTITIES.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
      }
    >
      <ListTable
        list={list}
        items={list.data?.entries}
        empty={<Empty icon="≡" title="Nothing recorded yet" />}
        head={
          <>
            <th>When</th>
            <th>Who</th>
            <th>What</th>
            <th className="hide-sm">Changes</th>
          </>
        }
        row={(e) => (
          <tr key={e.id}>
            <td className="muted small">{formatDate(e.created_at)}</td>
            <td>{who(e)}</td>
            <td>
              <Badge>{e.action}</Badge> {e.entity_type.replace('_', ' ')}{' '}
              <span className="mono small">{e.entity_id}</span>
            </td>
            <td className="small hide-sm">{changed(e.changes)}</td>
          </tr>
        )}
        page={{ offset, hasNext: list.data?.has_next_page ?? false, onGo: setOffset }}
      />
    </Card>
  );
}
