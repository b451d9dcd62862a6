import { useEffect, useState } from 'react';
import { FIELD_LIMITS } from '../../../../src/lib/field-limits';
import { api, useApi } from '../../api';
import type { Workspace, WorkspaceAnswer } from '../../server-types';
import { useSession } from '../../session';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { Field, InputField } from '../../ui/Field';
import { Loading } from '../../ui/Loading';
import { SaveButton } from '../../ui/SaveButton';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';
import { RetentionSettings } from './Retention';

/** The zones the browser knows, for the time zone field's suggestions. */
const ZONES: string[] =
  (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];

export function GeneralSettings() {
  const { session, refresh } = useSession();
  const ws = useApi<WorkspaceAnswer>('/workspace');
  const [name, setName] = useState('');
  const [cc, setCc] = useState('');
  const [markRead, setMarkRead] = useState(false);
  const [zone, setZone] = useState('UTC');
  const [saved, setSaved] = useState(false);
  const { busy, error, fieldErrors, run } = useAction();
  useEffect(() => {
    if (ws.data) {
      setName(ws.data.workspace.name);
      setCc(ws.data.workspace.default_country_code ?? '');
      setMarkRead(ws.data.workspace.mark_read);
      setZone(ws.data.workspace.time_zone);
    }
  }, [ws.data]);
  if (ws.loading && !ws.data) return <Loading />;
  if (ws.error) return <ErrorNote message={ws.error} onRetry={ws.reload} />;
  const save = () =>
    run(async () => {
      await api('PATCH', '/workspace', {
        name,
        default_country_code: cc.trim() || null,
        mark_read: markRead,
        time_zone: zone.trim() || 'UTC',
      });
      setSaved(true);
      await refresh();
    });
  const readOnly = !session.can_manage;
  return (
    <div className="stack">
      <Card
        title="Workspace"
        description="The name your team sees, and how phone numbers without a country code are read."
      >
        <form className="stack narrow" onSubmit={submitHandler(save)}>
          <InputField
            label="Workspace name"
            error={fieldErrors.name}
            value={name}
            required
            maxLength={FIELD_LIMITS.workspaceName}
            disabled={readOnly}
            onChange={(e) => {
              setName(e.target.value);
              setSaved(false);
            }}
          />
          <Field
            label="Default country code"
            hint="Used when a number arrives without one (REST API, forms, imports). Leave empty to require country codes."
            error={fieldErrors.default_country_code}
          >
            {(id) => (
              <div className="input-prefix">
                <span>+</span>
                <input
                  id={id}
                  inputMode="numeric"
                  placeholder="91"
                  value={cc}
                  disabled={readOnly}
                  onChange={(e) => {
                    setCc(e.target.value);
                    setSaved(false);
                  }}
                />
              </div>
            )}
          </Field>
          <InputField
            label="Time zone"
            hint="Scheduled broadcasts are sent at times in this zone, such as Asia/Kolkata or Europe/Berlin."
            error={fieldErrors.time_zone}
            value={zone}
            list="time-zones"
            maxLength={64}
            disabled={readOnly}
            onChange={(e) => {
              setZone(e.target.value);
              setSaved(false);
            }}
          />
          <datalist id="time-zones">
            {ZONES.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <div>
            <label className="check">
              <input
                type="checkbox"
                checked={markRead}
                disabled={readOnly}
                aria-describedby="mark-read-hint"
                onChange={(e) => {
                  setMarkRead(e.target.checked);
                  setSaved(false);
                }}
              />{' '}
              Mark customer messages as read when a teammate opens the conversation
            </label>
            <p id="mark-read-hint" className="small muted">
              Customers then see blue ticks on their messages. Off: they see their messages delivered only.
            </p>
          </div>
          {error && <ErrorNote message={error} />}
          {readOnly ? (
            <p className="small muted">Only owners and admins can change these.</p>
          ) : (
            <div className="row">
              <SaveButton busy={busy} saved={saved}>
                {busy ? 'Saving…' : 'Save changes'}
              </SaveButton>
            </div>
          )}
        </form>
      </Card>
      {ws.data && <OptOutSettings workspace={ws.data.workspace} readOnly={readOnly} />}
      <RetentionSettings readOnly={readOnly} />
      <NewWorkspace />
    </div>
  );
}

const words = (text: string) =>
  text
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);

/** The workspace's own opt-out and opt-in words beside STOP, UNSUBSCRIBE and START, and the replies confirming them. */
function OptOutSettings({ workspace, readOnly }: { workspace: Workspace; readOnly: boolean }) {
  const [form, setForm] = useState({
    out: workspace.opt_out_keywords.join(', '),
    in: workspace.opt_in_keywords.join(', '),
    outReply: workspace.opt_out_confirmation ?? '',
    inReply: workspace.opt_in_confirmation ?? '',
  });
  const [saved, setSaved] = useState(false);
  const { busy, error, fieldErrors, run } = useAction();
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => {
    setForm({ ...form, [key]: e.target.value });
    setSaved(false);
  };
  const save = () =>
    run(async () => {
      await api('PATCH', '/workspace', {
        opt_out_keywords: words(form.out),
        opt_in_keywords: words(form.in),
        opt_out_confirmation: form.outReply.trim() || null,
        opt_in_confirmation: form.inReply.trim() || null,
      });
      setSaved(true);
    });
  return (
    <Card
      title="Opt-out and opt-in"
      description="A customer who sends STOP or UNSUBSCRIBE (any case, alone in the message) or taps a button with that payload gets no more marketing templates; START opts them back in. Utility and authentication templates, and replies within 24 hours, are still allowed."
    >
      <form className="stack narrow" onSubmit={submitHandler(save)}>
        <InputField
          label="More opt-out words"
          hint="Comma-separated, e.g. BAJA, NO MORE OFFERS, or a quick-reply button's payload."
          error={fieldErrors.opt_out_keywords}
          value={form.out}
          disabled={readOnly}
          onChange={set('out')}
        />
        <InputField
          label="More opt-in words"
          hint="Comma-separated, e.g. ALTA."
          error={fieldErrors.opt_in_keywords}
          value={form.in}
          disabled={readOnly}
          onChange={set('in')}
        />
        <ReplyField
          label="Reply to an opt-out"
          hint="Sent back as a text message; leave empty to send nothing."
          error={fieldErrors.opt_out_confirmation}
          value={form.outReply}
          disabled={readOnly}
          onChange={set('outReply')}
        />
        <ReplyField
          label="Reply to an opt-in"
          hint="Leave empty to send nothing."
          error={fieldErrors.opt_in_confirmation}
          value={form.inReply}
          disabled={readOnly}
          onChange={set('inReply')}
        />
        {error && Object.keys(fieldErrors).length === 0 && <ErrorNote message={error} />}
        {!readOnly && (
          <div className="row">
            <SaveButton busy={busy} saved={saved}>
              {busy ? 'Saving…' : 'Save opt-out settings'}
            </SaveButton>
          </div>
        )}
      </form>
    </Card>
  );
}

/** Another workspace, owned by the signed-in user; the switcher in the sidebar moves between them. */
function NewWorkspace() {
  const { refresh } = useSession();
  const [name, setName] = useState('');
  const { busy, error, fieldErrors, run } = useAction();
  const create = () =>
    run(async () => {
      await api('POST', '/workspaces', { name });
      setName('');
      await refresh();
    });
  return (
    <Card
      title="Another workspace"
      description="For another brand or team, with its own number, contacts, keys and plan. You will own it; switch between workspaces in the sidebar."
    >
      <form className="row wrap align-end" onSubmit={submitHandler(create)}>
        <InputField
          label="New workspace name"
          error={fieldErrors.name}
          required
          maxLength={FIELD_LIMITS.workspaceName}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="btn" disabled={busy}>
          Create workspace
        </button>
      </form>
      {error && <ErrorNote message={error} />}
    </Card>
  );
}

/** The text sent back on an opt-out or an opt-in, as long as the server keeps. */
function ReplyField({
  label,
  hint,
  error,
  ...input
}: { label: string; hint: string; error: string | undefined } & Pick<
  React.TextareaHTMLAttributes<HTMLTextAreaElement>,
  'value' | 'disabled' | 'onChange'
>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(id) => <textarea id={id} rows={2} maxLength={FIELD_LIMITS.consentReply} {...input} />}
    </Field>
  );
}
