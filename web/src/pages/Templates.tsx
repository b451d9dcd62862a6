import { useState } from 'react';
import { api, formatDate, useApi } from '../api';
import { ArchiveButton, ArchivedToggle, ConfirmButton } from '../confirm';
import { Link, useLocation } from '../router';
import type { Template, TemplateList, TemplateSync } from '../server-types';
import { useSession } from '../session';
import { Badge } from '../ui/Badge';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { ErrorNote } from '../ui/ErrorNote';
import { Loading } from '../ui/Loading';
import { PageHeader } from '../ui/PageHeader';
import { useAction } from '../ui/use-action';
import { Bubble } from './templates/Bubble';
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
  const [archived, setArchived] = useState(false);
  // WhatsApp's review lands by webhook at any moment: look again while one waits, and on coming back.
  const list = useApi<TemplateList>(`/templates${archived ? '?archived=true' : ''}`, {
    refetchInterval: (data) => (data?.templates.some((t) => t.status === 'PENDING') ? POLL_MS : false),
    staleTime: POLL_MS,
  });
  const submitted = useLocation().query.get('submitted');
  const sync = useAction();
  const [note, setNote] = useState<string | null>(null);
  const syncNow = () =>
    sync.run(async () => {
      const r = await api<TemplateSync>('POST', '/templates/sync');
      setNote(`Synced ${r.synced} template${r.synced === 1 ? '' : 's'} from WhatsApp.`);
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
              <ArchivedToggle value={archived} onChange={setArchived} />
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
          {archived ? (
            <Empty icon="▤" title="No archived templates" />
          ) : connected ? (
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
            <TemplateCard key={t.id} t={t} onChange={setNote} reload={list.reload} />
          ))}
        </div>
      )}
    </>
  );
}

function TemplateCard({
  t,
  onChange,
  reload,
}: {
  t: Template;
  onChange: (note: string) => void;
  reload: () => void;
}) {
  const { session } = useSession();
  const status = t.status.toLowerCase();
  const remove = async () => {
    const r = await api<{ outcome: 'deleted' | 'archived'; reason?: string }>(
      'DELETE',
      `/templates/${encodeURIComponent(t.id)}`,
    );
    onChange(
      r.outcome === 'deleted'
        ? `Deleted ${t.name} (${t.language}) here and on WhatsApp.`
        : `Archived ${t.name} (${t.language}) here only: ${r.reason}. It is no longer listed or sent.`,
    );
    reload();
  };
  return (
    <article className="card template" aria-label={`${t.name} (${t.language})`}>
      <div className="row between">
        <h2 className="mono">{t.name}</h2>
        <Badge>{t.archived_at ? 'archived' : status}</Badge>
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
        <p className="small muted" data-testid="status-reason">
          {t.status === 'PAUSED'
            ? "WhatsApp paused it after customers' feedback; it cannot be sent until WhatsApp reinstates it."
            : "WhatsApp disabled it after customers' feedback paused it too often; it can no longer be sent."}
          {t.status_reason ? ` ${t.status_reason}` : ''}
        </p>
      )}
      {t.status === 'DELETED' && (
        <p className="small muted" data-testid="status-reason">
          {t.status_reason ?? 'WhatsApp no longer has this template'}; it cannot be sent.
        </p>
      )}
      <Bubble model={valuesPreview(t, {})} label={`${t.name} preview`} />
      {session.can_manage &&
        (t.archived_at ? (
          <ArchiveButton
            small
            base="/templates"
            id={t.id}
            archived
            what="template"
            effect=""
            onDone={reload}
          />
        ) : (
          <ConfirmButton
            small
            danger
            label="Delete"
            title={`Delete ${t.name} (${t.language})?`}
            confirmLabel="Delete template"
            onConfirm={remove}
          >
            <p>
              It is deleted on WhatsApp too, and flows sending it will fail. WhatsApp does not let the name be
              used again for 30 days. Should WhatsApp not delete it, it is archived here only.
            </p>
          </ConfirmButton>
        ))}
    </article>
  );
}
