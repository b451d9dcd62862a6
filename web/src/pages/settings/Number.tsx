import { api, formatDate, useApi } from '../../api';
import { useSession } from '../../session';
import { Badge, Card, CopyButton, Empty, ErrorNote, Loading, useAction } from '../../ui';

interface NumberInfo {
  simulator_available: boolean;
  number: null | {
    id: string;
    display_phone: string;
    phone_number_id: string;
    business_account_id: string;
    provider: 'simulator' | 'whatsapp_cloud_api';
    status: string;
    webhook_url: string;
    templates_synced_at: string | null;
    connected_at: string;
  };
}

export function NumberSettings() {
  const { session } = useSession();
  const info = useApi<NumberInfo>('/number');
  const { busy, error, run } = useAction();
  if (info.loading && !info.data) return <Loading />;
  if (info.error || !info.data)
    return <ErrorNote message={info.error ?? 'Not found'} onRetry={info.reload} />;
  const n = info.data.number;
  if (!n) {
    return (
      <Card>
        <Empty icon="☎" title="No WhatsApp number connected yet">
          Messages, templates and flows need a connected number. Connect a WhatsApp Cloud API number with
          <code> parley number connect</code> on the server
          {info.data.simulator_available ? ', or try everything now with the built-in simulator.' : '.'}
        </Empty>
        {info.data.simulator_available && session.can_manage && (
          <div className="center">
            <button
              type="button"
              className="btn primary"
              disabled={busy}
              onClick={() =>
                run(async () => {
                  await api('POST', '/number/simulator');
                  info.reload();
                })
              }
            >
              {busy ? 'Connecting…' : 'Connect the simulator'}
            </button>
            {error && <ErrorNote message={error} />}
          </div>
        )}
      </Card>
    );
  }
  return (
    <Card
      title={n.display_phone}
      description={
        n.provider === 'simulator'
          ? 'Built-in WhatsApp simulator (for trying things out)'
          : 'WhatsApp Cloud API'
      }
      actions={<Badge>{n.status}</Badge>}
    >
      <dl className="facts">
        <dt>Phone number id</dt>
        <dd>
          <code>{n.phone_number_id}</code>
        </dd>
        <dt>Business account id</dt>
        <dd>
          <code>{n.business_account_id}</code>
        </dd>
        <dt>Webhook URL</dt>
        <dd className="row wrap">
          <code className="break">{n.webhook_url}</code>
          <CopyButton value={n.webhook_url} />
        </dd>
        <dt>Connected</dt>
        <dd>{formatDate(n.connected_at)}</dd>
        <dt>Templates synced</dt>
        <dd>{formatDate(n.templates_synced_at)}</dd>
      </dl>
      <p className="small muted">
        Give the webhook URL to Meta (App › WhatsApp › Configuration) so delivery statuses and replies reach
        Parley.
      </p>
    </Card>
  );
}
