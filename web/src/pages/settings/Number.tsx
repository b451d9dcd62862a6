import { useState } from 'react';
import { api, formatDate, invalidate, useApi } from '../../api';
import type { NumberAnswer } from '../../server-types';
import { useSession } from '../../session';
import { Badge } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import { CopyButton } from '../../ui/CopyButton';
import { Empty } from '../../ui/Empty';
import { ErrorNote } from '../../ui/ErrorNote';
import { Loading } from '../../ui/Loading';
import { Modal } from '../../ui/Modal';
import { useAction } from '../../ui/use-action';
import { ConnectNumberForm, WebhookFacts } from './ConnectNumberForm';

// The templates come from the number: connecting one lists its templates, disconnecting hides them.
const numberChanged = () => invalidate('/templates');

export function NumberSettings() {
  const { session } = useSession();
  // Fetched anew whenever shown: a pause (Meta refusing a send) happens in the queue, not on this page.
  const info = useApi<NumberAnswer>('/number', { staleTime: 0 });
  const { busy, error, run } = useAction();
  const [confirming, setConfirming] = useState(false);
  if (info.loading && !info.data) return <Loading />;
  if (info.error || !info.data)
    return <ErrorNote message={info.error ?? 'Not found'} onRetry={info.reload} />;
  const n = info.data.number;
  if (!n) {
    return (
      <Card>
        <Empty icon="☎" title="No WhatsApp number connected yet">
          Messages, templates and flows need a connected number.{' '}
          {session.can_manage
            ? `Connect a WhatsApp Cloud API number below${info.data.simulator_available ? ', or try everything now with the built-in simulator' : ''}.`
            : 'An owner or admin of the workspace can connect one.'}
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
                  await numberChanged();
                })
              }
            >
              {busy ? 'Connecting…' : 'Connect the simulator'}
            </button>
            {error && <ErrorNote message={error} />}
          </div>
        )}
        {session.can_manage && <ConnectNumberForm onConnected={numberChanged} />}
      </Card>
    );
  }
  // Connected by its Meta credentials (checked with the Graph API), even when that API is the simulator's.
  const viaMeta = n.provider !== 'simulator' || n.quality_rating !== null;
  // A new token can only be saved for a number connected by its token (the built-in one has none to change).
  const tokenForm = session.can_manage && viaMeta;
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
      {confirming && (
        <Modal title="Disconnect this number?" onClose={() => setConfirming(false)}>
          <p>
            Parley forgets its access token and app secret. Sends fail until a number is connected again;
            messages and contacts stay.
          </p>
          <div className="row">
            <button
              type="button"
              className="btn danger"
              disabled={busy}
              onClick={() =>
                run(async () => {
                  await api('DELETE', '/number');
                  setConfirming(false);
                  await numberChanged();
                })
              }
            >
              {busy ? 'Disconnecting…' : 'Disconnect'}
            </button>
            <button type="button" className="btn" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
          {error && <ErrorNote message={error} />}
        </Modal>
      )}
      {n.paused && (
        <div className="stack" data-testid="number-paused">
          <p>
            <strong>Sending is paused.</strong> Since {formatDate(n.paused.at)}, Meta refuses to send from
            this number: {n.paused.reason || 'no reason given'} (error {n.paused.code}).
          </p>
          {n.paused.what_to_do && <p>{n.paused.what_to_do}</p>}
          <p className="small muted">
            Messages wait in the queue and broadcasts are paused; they go on by themselves once the number is
            put right
            {!session.can_manage
              ? '. An owner or admin of the workspace can save a new access token or check the number again.'
              : tokenForm
                ? ': save a new access token below, or check again once you have fixed it at Meta.'
                : ': check again once you have fixed it at Meta.'}
          </p>
          {session.can_manage && (
            <div className="row">
              <button
                type="button"
                className="btn primary"
                disabled={busy}
                onClick={() =>
                  run(async () => {
                    await api('POST', '/number/check');
                    info.reload();
                  })
                }
              >
                {busy ? 'Checking…' : 'Check again'}
              </button>
            </div>
          )}
          {error && !confirming && <ErrorNote message={error} />}
          {tokenForm && <ConnectNumberForm number={n} onConnected={() => info.reload()} />}
        </div>
      )}
      <dl className="facts">
        <dt>Phone number id</dt>
        <dd>
          <code>{n.phone_number_id}</code>
        </dd>
        <dt>Business account id</dt>
        <dd>
          <code>{n.business_account_id}</code>
        </dd>
        {viaMeta && (
          <>
            <dt>Verified name</dt>
            <dd>{n.verified_name ?? '—'}</dd>
            <dt>Quality rating</dt>
            <dd>{n.quality_rating ?? '—'}</dd>
            <dt>Messaging limit tier</dt>
            <dd>{n.messaging_limit_tier ?? '—'}</dd>
          </>
        )}
        {!viaMeta ? (
          <>
            <dt>Webhook URL</dt>
            <dd className="row wrap">
              <code className="break">{n.webhook_url}</code>
              <CopyButton value={n.webhook_url} />
            </dd>
          </>
        ) : (
          <WebhookFacts webhook={info.data.webhook} />
        )}
        <dt>Connected</dt>
        <dd>{formatDate(n.connected_at)}</dd>
        <dt>Templates synced</dt>
        <dd>{formatDate(n.templates_synced_at)}</dd>
      </dl>
      {viaMeta && (
        <p className="small muted">
          Give the callback URL and verify token to Meta (App › WhatsApp › Configuration › Webhook), and
          subscribe to the messages field, so delivery statuses and replies reach Parley.
        </p>
      )}
      {session.can_manage && (
        <button type="button" className="btn danger" onClick={() => setConfirming(true)}>
          Disconnect number
        </button>
      )}
    </Card>
  );
}
