import { useEffect, useState } from 'react';
import { api, formatDate, useApi } from '../api';
import { Link, useLocation } from '../router';
import { Badge, Card, Empty, ErrorNote, Loading, PageHeader, useAction } from '../ui';
import { Bubble } from './templates/Bubble';
import type { Template } from './templates/types';
import { valuesPreview } from './templates/values';

// Meta's rejection reasons, in words.
const REASONS: Record<string, string> = {
  INCORRECT_CATEGORY: 'the category does not fit the content (for example, a promotion filed as utility)',
  INVALID_FORMAT: 'the text or its variables are not in a format WhatsApp accepts',
  ABUSIVE_CONTENT: 'WhatsApp found the content abusive',
  SCAM: 'WhatsApp judged the content misleading',
  PROMOTIONAL: 'promotional content in a non-marketing template',
  TAG_CONTENT_MISMATCH: 'the content does not match the category',
};

const POLL_MS = 4000;

export function TemplatesPage() {
  const list = useApi<{ templates: Template[]; number_connected: boolean; synced_at: string | null }>(
    '/templates',
  );
  const submitted = useLocation().query.get('submitted');
  const sync = useAction();
  const [note, setNote] = useState<string | null>(null);
  const pending = list.data?.templates.some((t) => t.status === 'PENDING') ?? false;
  // WhatsApp's review lands by webhook at any moment: look again while one waits, and on coming back.
  useEffect(() => {
    if (!pending) return;
    const t = setInterval(list.reload, POLL_MS);
    return () => clearInterval(t);
  }, [pending, list.reload]);
  useEffect(() => {
    window.addEventListener('focus', list.reload);
    return () => window.removeEventListener('focus', list.reload);
  }, [list.reload]);
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
            Message templates reviewed by WhatsApp; only <strong>approved</strong> ones can be sent.{' '}
            {list.data?.synced_at && <>Last synced {formatDate(list.data.synced_at)}.</>}
          </>
        }
        actions={
          connected && (
            <>
              <Link href="/templates/new" className="btn">
                New template
              </Link>
              <button type="button" className="btn primary" onClick={syncNow} disabled={sync.busy}>
                {sync.busy ? 'Syncing…' : 'Sync now'}
              </button>
            </>
          )
        }
      />
      {sync.error && <ErrorNote message={sync.error} />}
      {(note || submitted) && (
        <p className="small success" role="status">
          {note ??
            `Submitted ${submitted} for review. It shows as pending until WhatsApp approves or rejects it.`}
        </p>
      )}
      {list.loading && !list.data ? (
        <Card>
          <Loading />
        </Card>
      ) : list.error && !list.data ? (
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
                <Link href="/templates/new" className="btn primary">
                  New template
                </Link>
              }
            >
              Create one here, or in WhatsApp Manager and sync it. Templates are also synced every 15 minutes.
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
            <TemplateCard key={t.id} t={t} />
          ))}
        </div>
      )}
    </>
  );
}

function TemplateCard({ t }: { t: Template }) {
  const status = t.status.toLowerCase();
  return (
    <article className="card template" aria-label={`${t.name} (${t.language})`}>
      <div className="row between">
        <h2 className="mono">{t.name}</h2>
        <Badge>{status}</Badge>
      </div>
      <div className="small muted">
        {t.language} · {t.category.toLowerCase()} · updated {formatDate(t.updated_at)}
      </div>
      {t.status === 'PENDING' && (
        <p className="small muted">WhatsApp is reviewing it; this page updates by itself.</p>
      )}
      {t.status === 'REJECTED' && (
        <p className="small field-error" data-testid="rejection">
          Rejected:{' '}
          {t.rejected_reason
            ? (REASONS[t.rejected_reason] ?? t.rejected_reason.toLowerCase().replace(/_/g, ' '))
            : 'WhatsApp gave no reason'}
          . Change it and submit it again under a new name.
        </p>
      )}
      {(t.status === 'PAUSED' || t.status === 'DISABLED') && (
        <p className="small muted">WhatsApp {status} it after customers' feedback; it cannot be sent now.</p>
      )}
      <Bubble model={valuesPreview(t, {})} label={`${t.name} preview`} />
    </article>
  );
}
