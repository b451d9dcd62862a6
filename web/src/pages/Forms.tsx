import { useEffect, useState } from 'react';
import { FIELD_LIMITS } from '../../../src/lib/field-limits';
import { api, formatDate, useApi } from '../api';
import { ArchiveButton, ArchivedToggle } from '../confirm';
import { ListTable } from '../list';
import { Link, navigate } from '../router';
import type { Form, FormAnswer, FormField, FormList, NewForm } from '../server-types';
import { useSession } from '../session';
import {
  Badge,
  Card,
  CopyButton,
  Empty,
  ErrorNote,
  InputField,
  Loading,
  PageHeader,
  SaveButton,
  submitHandler,
  Tabs,
  useAction,
} from '../ui';

const FORM_ARCHIVE_EFFECT = 'Its page and embeds say the form is closed, and submissions are refused.';

export function FormsPage() {
  const { session } = useSession();
  const [archived, setArchived] = useState(false);
  const list = useApi<FormList>(`/forms${archived ? '?archived=true' : ''}`);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const create = useAction();
  const add = () => {
    if (!name.trim()) return setNameError('Give the form a name, e.g. "Contact form".');
    return create.run(async () => {
      const r = await api<NewForm>('POST', '/forms', { name: name.trim() });
      navigate(`/forms/${r.id}`);
    });
  };
  return (
    <>
      <PageHeader
        title="Forms"
        description="Lead capture forms: host them on Parley, embed them with a script, or paste plain HTML. A new form is a draft until you switch it on."
        actions={<ArchivedToggle value={archived} onChange={setArchived} />}
      />
      <Card title="New form">
        <form className="row wrap align-end" onSubmit={submitHandler(add)}>
          <InputField
            label="Form name"
            value={name}
            maxLength={FIELD_LIMITS.formName}
            placeholder="Contact form"
            error={nameError}
            aria-invalid={Boolean(nameError)}
            onChange={(e) => {
              setName(e.target.value);
              setNameError(undefined);
            }}
          />
          <button type="submit" className="btn primary" disabled={create.busy}>
            Create form
          </button>
        </form>
        {create.error && <ErrorNote message={create.error} />}
      </Card>
      <Card>
        <ListTable
          list={list}
          items={list.data?.forms}
          empty={
            archived ? (
              <Empty icon="☰" title="No archived forms" />
            ) : (
              <Empty icon="☰" title="No forms yet">
                Create one above: it starts with name, e-mail and phone fields. Each submission becomes a
                lead, linked to a contact by phone.
              </Empty>
            )
          }
          head={
            <>
              <th>Form</th>
              <th>Status</th>
              <th>Leads</th>
              <th className="hide-sm">Created</th>
              {archived && session.can_manage && <th>Restore</th>}
            </>
          }
          row={(f) => (
            <tr key={f.id} className="clickable" onClick={() => navigate(`/forms/${f.id}`)}>
              <td>
                <Link href={`/forms/${f.id}`} className="strong-link">
                  {f.name}
                </Link>
                <div className="small muted">{f.fields.length} fields</div>
              </td>
              <td>
                <Badge>{f.archived_at ? 'archived' : f.active ? 'active' : 'draft'}</Badge>
              </td>
              <td>{f.leads}</td>
              <td className="muted hide-sm">{formatDate(f.created_at)}</td>
              {archived && session.can_manage && (
                <td>
                  <ArchiveButton
                    small
                    base="/forms"
                    id={f.id}
                    archived
                    what="form"
                    effect={FORM_ARCHIVE_EFFECT}
                    onDone={list.reload}
                  />
                </td>
              )}
            </tr>
          )}
        />
      </Card>
    </>
  );
}

type Tab = 'fields' | 'settings' | 'publish';

export function FormPage({ id }: { id: string }) {
  const res = useApi<FormAnswer>(`/forms/${encodeURIComponent(id)}`);
  const [tab, setTab] = useState<Tab>('fields');
  const toggle = useAction();
  const { session } = useSession();
  if (res.loading && !res.data) return <Loading />;
  if (res.error || !res.data) return <ErrorNote message={res.error ?? 'Not found'} onRetry={res.reload} />;
  const { form, publish, field_types } = res.data;
  return (
    <>
      <PageHeader
        title={form.name}
        description={
          <>
            <Link href="/forms">Forms</Link> · {form.leads} leads ·{' '}
            <Link href={`/leads?source=form`}>see leads</Link>
          </>
        }
        actions={
          <>
            {session.can_manage && (
              <ArchiveButton
                base="/forms"
                id={form.id}
                archived={form.archived_at !== null}
                what="form"
                effect={FORM_ARCHIVE_EFFECT}
                onDone={res.reload}
              />
            )}
            <label className="switch">
              <input
                type="checkbox"
                role="switch"
                aria-checked={form.active}
                checked={form.active}
                disabled={toggle.busy}
                onChange={(e) =>
                  toggle.run(async () => {
                    await api('PATCH', `/forms/${form.id}`, { active: e.target.checked });
                  })
                }
              />
              <span>{form.active ? 'Active: accepting leads' : 'Draft: submissions are refused'}</span>
            </label>
          </>
        }
      />
      {form.archived_at && (
        <p className="notice" role="status">
          Archived {formatDate(form.archived_at)}: its page says the form is closed. Restore it to take
          submissions again.
        </p>
      )}
      {toggle.error && <ErrorNote message={toggle.error} />}
      <Tabs
        tabs={[
          { id: 'fields', label: 'Fields' },
          { id: 'settings', label: 'After submit' },
          { id: 'publish', label: 'Publish & embed' },
        ]}
        value={tab}
        onChange={setTab}
      />
      <div className="tab-body">
        {tab === 'fields' && <FieldEditor form={form} types={field_types} />}
        {tab === 'settings' && <AfterSubmit form={form} />}
        {tab === 'publish' && <PublishEmbed form={form} publish={publish} />}
      </div>
    </>
  );
}

type Editable = FormField & { key: string };
let nextKey = 0;
const editable = (fields: FormField[]): Editable[] => fields.map((f) => ({ ...f, key: `f${nextKey++}` }));

function FieldEditor({ form, types }: { form: Form; types: string[] }) {
  const [fields, setFields] = useState<Editable[]>(() => editable(form.fields));
  const [name, setName] = useState(form.name);
  const [saved, setSaved] = useState(false);
  const save = useAction();
  useEffect(() => setFields(editable(form.fields)), [form.fields]);
  const set = (i: number, patch: Partial<FormField>) => {
    setSaved(false);
    setFields(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  };
  const move = (i: number, d: -1 | 1) => {
    const next = [...fields];
    const [f] = next.splice(i, 1);
    next.splice(i + d, 0, f!);
    setFields(next);
  };
  const add = () => {
    let n = fields.length + 1;
    while (fields.some((f) => f.name === `field_${n}`)) n++;
    setFields([
      ...fields,
      ...editable([{ name: `field_${n}`, label: 'New field', type: 'text', required: false }]),
    ]);
  };
  const submit = () =>
    save.run(async () => {
      await api('PATCH', `/forms/${form.id}`, { name, fields: fields.map(({ key: _, ...f }) => f) });
      setSaved(true);
    });
  return (
    <Card
      title="Fields"
      description="name, email and phone fill the lead's own fields; any other field is stored with the lead. A form needs an email or a phone field."
    >
      <form className="stack" onSubmit={submitHandler(submit)}>
        <label className="field narrow">
          <span>Form name</span>
          <input
            value={name}
            maxLength={FIELD_LIMITS.formName}
            aria-invalid={save.fieldErrors.name ? true : undefined}
            onChange={(e) => setName(e.target.value)}
          />
          {save.fieldErrors.name && <p className="field-error">{save.fieldErrors.name}</p>}
        </label>
        <ol className="field-list">
          {fields.map((f, i) => (
            <li key={f.key} className="field-row">
              <RowInput
                label="Label"
                value={f.label}
                maxLength={FIELD_LIMITS.formFieldLabel}
                error={save.fieldErrors[`fields.${i}.label`]}
                onChange={(label) => set(i, { label })}
              />
              <RowInput
                label="Key"
                mono
                value={f.name}
                maxLength={FIELD_LIMITS.formFieldName}
                error={save.fieldErrors[`fields.${i}.name`]}
                onChange={(name) => set(i, { name })}
              />
              <label className="field">
                <span>Type</span>
                <select
                  value={f.type}
                  onChange={(e) =>
                    set(i, {
                      type: e.target.value,
                      ...(e.target.value === 'select'
                        ? { options: f.options ?? ['Option 1'] }
                        : { options: undefined }),
                    })
                  }
                >
                  {types.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </select>
              </label>
              {f.type === 'select' && (
                <label className="field">
                  <span>Options (comma-separated)</span>
                  <input
                    value={(f.options ?? []).join(', ')}
                    onChange={(e) =>
                      set(i, {
                        options: e.target.value
                          .split(',')
                          .map((o) => o.trim())
                          .filter(Boolean),
                      })
                    }
                  />
                </label>
              )}
              <label className="check">
                <input
                  type="checkbox"
                  checked={f.required}
                  onChange={(e) => set(i, { required: e.target.checked })}
                />{' '}
                Required
              </label>
              <div className="row">
                <button
                  type="button"
                  className="btn small ghost"
                  aria-label={`Move ${f.label} up`}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="btn small ghost"
                  aria-label={`Move ${f.label} down`}
                  disabled={i === fields.length - 1}
                  onClick={() => move(i, 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="btn small danger"
                  aria-label={`Remove ${f.label}`}
                  onClick={() => setFields(fields.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ol>
        {save.error && <ErrorNote message={save.error} />}
        <div className="row wrap">
          <button type="button" className="btn" onClick={add}>
            Add field
          </button>
          <SaveButton busy={save.busy} saved={saved}>
            Save fields
          </SaveButton>
        </div>
      </form>
    </Card>
  );
}

function AfterSubmit({ form }: { form: Form }) {
  const [message, setMessage] = useState(form.thank_you_message ?? '');
  const [redirect, setRedirect] = useState(form.redirect_url ?? '');
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const submit = () =>
    save.run(async () => {
      await api('PATCH', `/forms/${form.id}`, {
        thank_you_message: message.trim() || null,
        redirect_url: redirect.trim() || null,
      });
      setSaved(true);
    });
  return (
    <Card
      title="After a submission"
      description="What people see once they have sent the form (hosted page and plain HTML; the script shows the message in place)."
    >
      <form className="stack narrow" onSubmit={submitHandler(submit)}>
        <label className="field">
          <span>Thank-you message</span>
          <textarea
            rows={3}
            maxLength={FIELD_LIMITS.thankYouMessage}
            value={message}
            placeholder="Thanks! We'll be in touch shortly."
            onChange={(e) => setMessage(e.target.value)}
          />
        </label>
        <label className="field">
          <span>Or redirect to (optional)</span>
          <input
            type="url"
            maxLength={FIELD_LIMITS.redirectUrl}
            value={redirect}
            placeholder="https://example.com/thanks"
            onChange={(e) => setRedirect(e.target.value)}
          />
        </label>
        {save.error && <ErrorNote message={save.error} />}
        <div className="row">
          <SaveButton busy={save.busy} saved={saved}>
            Save
          </SaveButton>
        </div>
      </form>
    </Card>
  );
}

function PublishEmbed({ form, publish }: { form: Form; publish: FormAnswer['publish'] }) {
  return (
    <div className="stack">
      {!form.active && (
        <ErrorNote message="This form is inactive: its page and snippets refuse submissions until you turn it back on." />
      )}
      <Card
        title="Hosted page"
        description="A page Parley serves for you: share the link or put it behind a button."
      >
        <div className="secret">
          <code data-testid="hosted-url">{publish.hosted_url}</code>
          <CopyButton value={publish.hosted_url} />
          <a className="btn small" href={publish.hosted_url} target="_blank" rel="noreferrer">
            Open
          </a>
        </div>
      </Card>
      <Card
        title="Embed script"
        description="Paste where the form should appear; it renders the form and posts it with JavaScript."
      >
        <pre className="snippet">{publish.script}</pre>
        <CopyButton value={publish.script} label="Copy script" />
      </Card>
      <Card title="Plain HTML" description="A form that works without JavaScript; style it as you like.">
        <pre className="snippet">{publish.html}</pre>
        <CopyButton value={publish.html} label="Copy HTML" />
      </Card>
      <Card
        title="Form token"
        description="Public: it identifies the form in submissions (POST /api/forms/submit with a token field)."
      >
        <div className="secret">
          <code>{form.token}</code>
          <CopyButton value={form.token} />
        </div>
      </Card>
    </div>
  );
}

/** One text input of a field row, with the server's error for it beside it. */
function RowInput(props: {
  label: string;
  value: string;
  maxLength: number;
  error: string | undefined;
  mono?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        className={props.mono ? 'mono' : undefined}
        value={props.value}
        maxLength={props.maxLength}
        aria-invalid={props.error ? true : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error && <p className="field-error">{props.error}</p>}
    </label>
  );
}
