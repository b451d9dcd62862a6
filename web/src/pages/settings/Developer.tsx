import { useState } from 'react';
import { FIELD_LIMITS } from '../../../../src/lib/field-limits';
import { api, formatDate, timeAgo, useApi } from '../../api';
import { ListTable } from '../../list';
import type { ApiKeyList, NewApiKey } from '../../server-types';
import { useSession } from '../../session';
import { Badge } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import { Empty } from '../../ui/Empty';
import { ErrorNote } from '../../ui/ErrorNote';
import { InputField } from '../../ui/Field';
import { Secret } from '../../ui/Secret';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';
import { Webhooks } from './Webhooks';

export function DeveloperSettings() {
  return (
    <div className="stack">
      <ApiKeys />
      <Webhooks />
    </div>
  );
}

function ApiKeys() {
  const { session } = useSession();
  const keys = useApi<ApiKeyList>('/api-keys');
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const create = useAction();
  const revoke = useAction();
  const base = `${session.app_url}/api/v1`;
  const add = () =>
    create.run(async () => {
      const r = await api<NewApiKey>('POST', '/api-keys', { name });
      setCreated(r.key);
      setName('');
    });
  return (
    <Card
      title="API keys"
      description={
        <>
          Call the REST API at <code>{base}</code> with <code>Authorization: Bearer &lt;key&gt;</code>. A key
          is shown once, when it is created.
        </>
      }
    >
      {session.can_manage && (
        <form className="row wrap align-end" onSubmit={submitHandler(add)}>
          <InputField
            label="Key name"
            hint="Where it will be used, e.g. “Website backend”."
            error={create.fieldErrors.name}
            value={name}
            maxLength={FIELD_LIMITS.apiKeyName}
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" className="btn primary" disabled={create.busy}>
            {create.busy ? 'Creating…' : 'Create API key'}
          </button>
        </form>
      )}
      {create.error && <ErrorNote message={create.error} />}
      {created && (
        <div className="callout" data-testid="new-api-key">
          <strong>Copy your new key now.</strong> It will not be shown again.
          <Secret value={created} />
          <pre className="snippet">{`curl ${base}/templates \\\n  -H "Authorization: Bearer ${created}"`}</pre>
        </div>
      )}
      {revoke.error && <ErrorNote message={revoke.error} />}
      <ListTable
        label="API keys"
        list={keys}
        items={keys.data?.api_keys}
        empty={
          <Empty icon="⚿" title="No API keys yet">
            Create a key to send messages, upsert contacts and track events from your own systems.
          </Empty>
        }
        head={
          <>
            <th>Name</th>
            <th>Key</th>
            <th>Created</th>
            <th>Last used</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </>
        }
        row={(k) => (
          <tr key={k.id} className={k.revoked_at ? 'dim' : undefined}>
            <td>{k.name || <span className="muted">Unnamed</span>}</td>
            <td>
              <code>{k.display_prefix}…</code>
            </td>
            <td className="muted">{formatDate(k.created_at)}</td>
            <td className="muted">{timeAgo(k.last_used_at)}</td>
            <td className="right">
              {k.revoked_at ? (
                <Badge>revoked</Badge>
              ) : (
                session.can_manage && (
                  <button
                    type="button"
                    className="btn small danger"
                    disabled={revoke.busy}
                    onClick={() =>
                      confirm('Revoke this key? Calls using it stop working at once.') &&
                      revoke.run(async () => {
                        await api('DELETE', `/api-keys/${k.id}`);
                      })
                    }
                  >
                    Revoke
                  </button>
                )
              )}
            </td>
          </tr>
        )}
      />
    </Card>
  );
}
