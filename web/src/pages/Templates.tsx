import { useState } from 'react';
import { api, formatDate, useApi } from '../api';
import { Link } from '../router';
import {
  Badge,
  Card,
  Empty,
  ErrorNote,
  Field,
  InputField,
  Loading,
  Modal,
  PageHeader,
  submitHandler,
  useAction,
} from '../ui';

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
  const [creating, setCreating] = useState(false);
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
            <>
              <button type="button" className="btn" onClick={() => setCreating(true)}>
                New template
              </button>
              <button type="button" className="btn primary" onClick={syncNow} disabled={sync.busy}>
                {sync.busy ? 'Syncing…' : 'Sync now'}
              </button>
            </>
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
      {creating && (
        <NewTemplate
          onClose={() => setCreating(false)}
          onCreated={(name) => {
            setCreating(false);
            setNote(`Submitted ${name} for approval. It shows as pending until WhatsApp reviews it.`);
            list.reload();
          }}
        />
      )}
    </>
  );
}

function NewTemplate({ onClose, onCreated }: { onClose: () => void; onCreated: (name: string) => void }) {
  const [form, setForm] = useState({ name: '', language: 'en', category: 'MARKETING', body: '' });
  const [examples, setExamples] = useState<string[]>([]);
  const { busy, error, run } = useAction();
  const variables = new Set(form.body.match(/\{\{\d+\}\}/g) ?? []).size;
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [k]: e.target.value });
  const submit = () =>
    run(async () => {
      const sample = Array.from({ length: variables }, (_, i) => examples[i] || `example ${i + 1}`);
      await api('POST', '/templates', { ...form, examples: sample });
      onCreated(form.name);
    });
  return (
    <Modal title="New template" onClose={onClose}>
      <form className="stack" onSubmit={submitHandler(submit)}>
        <div className="grid-fields">
          <InputField
            label="Name"
            hint="Lowercase letters, digits and underscores."
            required
            value={form.name}
            pattern="[a-z0-9_]+"
            onChange={set('name')}
          />
          <InputField
            label="Language"
            hint="e.g. en, en_US, pt_BR"
            required
            value={form.language}
            onChange={set('language')}
          />
          <Field label="Category">
            {(id) => (
              <select id={id} value={form.category} onChange={set('category')}>
                <option value="MARKETING">Marketing</option>
                <option value="UTILITY">Utility</option>
                <option value="AUTHENTICATION">Authentication</option>
              </select>
            )}
          </Field>
        </div>
        <Field label="Body" hint="Variables are {{1}}, {{2}}, … in order; they are filled in when you send.">
          {(id) => (
            <textarea id={id} required rows={4} maxLength={1024} value={form.body} onChange={set('body')} />
          )}
        </Field>
        {variables > 0 && (
          <div className="grid-fields">
            {Array.from({ length: variables }, (_, n) => `{{${n + 1}}}`).map((name, i) => (
              <InputField
                key={name}
                label={`Example for ${name}`}
                hint={i === 0 ? 'WhatsApp reviews templates with sample values.' : undefined}
                value={examples[i] ?? ''}
                onChange={(e) => {
                  const next = [...examples];
                  next[i] = e.target.value;
                  setExamples(next);
                }}
              />
            ))}
          </div>
        )}
        {error && <ErrorNote message={error} />}
        <div className="row">
          <button type="submit" className="btn primary" disabled={busy}>
            {busy ? 'Submitting…' : 'Submit for approval'}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
