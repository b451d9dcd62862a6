import { useState } from 'react';
import { api, formatDate, useApi } from '../api';
import { Link } from '../router';
import { Badge, Card, Empty, ErrorNote, Loading, PageHeader, useAction } from '../ui';

export interface Template {
  id: string;
  name: string;
  language: string;
  category: string;
  body: string;
  status: string;
  variable_count: number;
  updated_at: string;
}

export function TemplatesPage() {
  const list = useApi<{ templates: Template[]; number_connected: boolean; synced_at: string | null }>(
    '/templates',
  );
  const sync = useAction();
  const [note, setNote] = useState<string | null>(null);
  const syncNow = () =>
    sync.run(async () => {
      const r = await api<{ synced: number }>('POST', '/templates/sync');
      setNote(`Synced ${r.synced} template${r.synced === 1 ? '' : 's'} from WhatsApp.`);
      list.reload();
    });
  const connected = list.data?.number_connected ?? false;
  return (
    <>
      <PageHeader
        title="Templates"
        description={
          <>
            Message templates approved by WhatsApp; only <strong>approved</strong> ones can be sent.{' '}
            {list.data?.synced_at && <>Last synced {formatDate(list.data.synced_at)}.</>}
          </>
        }
        actions={
          connected && (
            <button type="button" className="btn primary" onClick={syncNow} disabled={sync.busy}>
              {sync.busy ? 'Syncing…' : 'Sync now'}
            </button>
          )
        }
      />
      {sync.error && <ErrorNote message={sync.error} />}
      {note && (
        <p className="small success" role="status">
          {note}
        </p>
      )}
      {list.loading && !list.data ? (
        <Card>
          <Loading />
        </Card>
      ) : list.error ? (
        <Card>
          <ErrorNote message={list.error} onRetry={list.reload} />
        </Card>
      ) : list.data!.templates.length === 0 ? (
        <Card>
          {connected ? (
            <Empty
              icon="▤"
              title="No templates yet"
              action={
                <button type="button" className="btn primary" onClick={syncNow} disabled={sync.busy}>
                  Sync now
                </button>
              }
            >
              Create templates in WhatsApp Manager, then sync them here. They are also synced every 15
              minutes.
            </Empty>
          ) : (
            <Empty
              icon="▤"
              title="Connect a number first"
              action={
                <Link href="/settings/number" className="btn primary">
                  Connect a number
                </Link>
              }
            >
              Templates belong to the WhatsApp Business account of your connected number.
            </Empty>
          )}
        </Card>
      ) : (
        <div className="template-grid">
          {list.data!.templates.map((t) => (
            <article key={t.id} className="card template">
              <div className="row between">
                <h2 className="mono">{t.name}</h2>
                <Badge>{t.status.toLowerCase()}</Badge>
              </div>
              <div className="small muted">
                {t.language} · {t.category.toLowerCase()} · {t.variable_count} variable
                {t.variable_count === 1 ? '' : 's'}
              </div>
              <p className="template-body">{t.body}</p>
            </article>
          ))}
        </div>
      )}
    </>
  );
}
