import { useState } from 'react';
import { FIELD_LIMITS } from '../../../../src/lib/field-limits';
import { api, formatDate, useApi } from '../../api';
import { ListTable } from '../../list';
import type { DeliveryList, Endpoint, EndpointList, NewEndpoint, TestDelivery } from '../../server-types';
import { useSession } from '../../session';
import { Badge } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import { Empty } from '../../ui/Empty';
import { ErrorNote } from '../../ui/ErrorNote';
import { InputField } from '../../ui/Field';
import { Loading } from '../../ui/Loading';
import { Modal } from '../../ui/Modal';
import { Secret } from '../../ui/Secret';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';

export function Webhooks() {
  const { session } = useSession();
  const list = useApi<EndpointList>('/webhooks');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[] | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<Endpoint | null>(null);
  const create = useAction();
  const all = list.data?.events ?? [];
  const chosen = events ?? all;
  const add = () =>
    create.run(async () => {
      const r = await api<NewEndpoint>('POST', '/webhooks', { url, events: chosen });
      setSecret(r.secret);
      setUrl('');
    });
  return (
    <Card
      title="Webhooks"
      description="Parley posts events to your endpoints, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), and retries failures with backoff."
    >
      {session.can_manage && (
        <form className="stack" onSubmit={submitHandler(add)}>
          <InputField
            label="Endpoint URL"
            error={create.fieldErrors.url}
            type="url"
            required
            maxLength={FIELD_LIMITS.webhookUrl}
            placeholder="https://example.com/parley-webhooks"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
          <fieldset className="checks">
            <legend>Events</legend>
            {all.map((e) => (
              <label key={e} className="check">
                <input
                  type="checkbox"
                  checked={chosen.includes(e)}
                  onChange={(ev) =>
                    setEvents(ev.target.checked ? [...chosen, e] : chosen.filter((x) => x !== e))
                  }
                />
                <code>{e}</code>
              </label>
            ))}
          </fieldset>
          <div>
            <button type="submit" className="btn primary" disabled={create.busy || chosen.length === 0}>
              Add endpoint
            </button>
          </div>
        </form>
      )}
      {create.error && <ErrorNote message={create.error} />}
      {secret && (
        <div className="callout">
          <strong>Signing secret</strong> — verify each delivery with it. It will not be shown again.
          <Secret value={secret} />
        </div>
      )}
      {list.loading && !list.data ? (
        <Loading />
      ) : list.error ? (
        <ErrorNote message={list.error} onRetry={list.reload} />
      ) : list.data!.endpoints.length === 0 ? (
        <Empty icon="⇄" title="No endpoints yet">
          Add one to hear about message statuses, replies, new leads and finished flow runs as they happen.
        </Empty>
      ) : (
        <ul className="list">
          {list.data!.endpoints.map((e) => (
            <li key={e.id} className="list-row">
              <div className="grow">
                <code className="break">{e.url}</code>
                <div className="small muted">
                  {e.events.join(' · ')} · added {formatDate(e.created_at)}
                </div>
              </div>
              {e.failed > 0 && <Badge tone="red">{`${e.failed} failed`}</Badge>}
              <button type="button" className="btn small" onClick={() => setOpen(e)}>
                Deliveries
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <EndpointModal endpoint={open} onClose={() => setOpen(null)} onDeleted={() => setOpen(null)} />
      )}
    </Card>
  );
}

function EndpointModal({
  endpoint,
  onClose,
  onDeleted,
}: {
  endpoint: Endpoint;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { session } = useSession();
  const log = useApi<DeliveryList>(`/webhooks/${endpoint.id}/deliveries`);
  const test = useAction();
  const [outcome, setOutcome] = useState<string | null>(null);
  const sendTest = () =>
    test.run(async () => {
      const r = await api<TestDelivery>('POST', `/webhooks/${endpoint.id}/test`);
      setOutcome(
        r.delivery.status === 'delivered'
          ? `Delivered (HTTP ${r.delivery.last_status})`
          : `Failed: ${r.delivery.last_error ?? 'no answer'}`,
      );
    });
  return (
    <Modal title="Endpoint" onClose={onClose}>
      <p>
        <code className="break">{endpoint.url}</code>
      </p>
      {session.can_manage && (
        <div className="row wrap">
          <button type="button" className="btn" disabled={test.busy} onClick={sendTest}>
            {test.busy ? 'Sending…' : 'Send test event'}
          </button>
          <button
            type="button"
            className="btn danger"
            onClick={() =>
              confirm('Delete this endpoint and its delivery log?') &&
              test.run(async () => {
                await api('DELETE', `/webhooks/${endpoint.id}`);
                onDeleted();
              })
            }
          >
            Delete endpoint
          </button>
          {outcome && (
            <span role="status" className="small">
              {outcome}
            </span>
          )}
        </div>
      )}
      {test.error && <ErrorNote message={test.error} />}
      <h3 className="section-title">Recent deliveries</h3>
      <ListTable
        label="Webhook endpoints"
        list={log}
        items={log.data?.deliveries}
        empty={<p className="muted">Nothing delivered yet. Send a test event to check your endpoint.</p>}
        head={
          <>
            <th>Event</th>
            <th>Status</th>
            <th>Tries</th>
            <th>Answer</th>
            <th>When</th>
          </>
        }
        row={(d) => (
          <tr key={d.id}>
            <td>
              <code>{d.event_type}</code>
            </td>
            <td>
              <Badge>{d.status}</Badge>
            </td>
            <td>{d.attempts}</td>
            <td className="small">{d.last_status ? `HTTP ${d.last_status}` : (d.last_error ?? '—')}</td>
            <td className="muted small">{formatDate(d.created_at)}</td>
          </tr>
        )}
      />
    </Modal>
  );
}
