import { useState } from 'react';
import { ApiFailure, api, useApi } from '../../api';
import { Link, navigate } from '../../router';
import type { AudienceCount, BroadcastAnswer, TemplateList, WorkspaceAnswer } from '../../server-types';
import { ErrorNote } from '../../ui/ErrorNote';
import { Field, InputField } from '../../ui/Field';
import { Loading } from '../../ui/Loading';
import { Modal } from '../../ui/Modal';
import { PageHeader } from '../../ui/PageHeader';
import { submitHandler } from '../../ui/submit-handler';
import { sentence } from '../templates/values';
import { AudienceFields } from './AudienceFields';
import { type AudienceForm, blankAudience, toAudience } from './audience';
import { LIMITS } from './limits';
import {
  blankMapping,
  byButtonIndex,
  type Mapping,
  mappingProblems,
  partsOf,
  toValues,
  unsupported,
} from './mapping';
import { PreviewPane } from './PreviewPane';
import { SendWhen, type When } from './SendWhen';
import { useDebouncedPost } from './useDebounced';
import { ValueMapping } from './ValueMapping';
import { formatIn, zonedToIso } from './zoned-time';

// Fields the page places a server's problem beside; any other is said above the buttons.
const PLACED = ['name', 'template', 'audience', 'values', 'send_at', 'reply_window_hours'];

/** A broadcast: who, which template filled how, when; the audience counted and a contact's message shown first. */
export function NewBroadcastPage() {
  const workspace = useApi<WorkspaceAnswer>('/workspace');
  const templates = useApi<TemplateList>('/templates');
  const tz = workspace.data?.workspace.time_zone ?? 'UTC';
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [audience, setAudience] = useState<AudienceForm>(blankAudience);
  const [mappings, setMappings] = useState<Record<string, Mapping>>({});
  const [when, setWhen] = useState<When>({ later: false, at: '' });
  const [replyHours, setReplyHours] = useState('24');
  const [tried, setTried] = useState(false);
  const [refused, setRefused] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const approved = templates.data?.templates.filter((t) => t.status === 'APPROVED') ?? [];
  const template = approved.find((t) => t.id === templateId);
  const parts = template ? partsOf(template) : [];
  const values = template ? toValues(template, parts, mappings) : {};
  const problems = template ? mappingProblems(parts, mappings, template) : {};
  const apiAudience = toAudience(audience, tz);
  const ref = template ? { name: template.name, language: template.language } : undefined;
  const counted = useDebouncedPost<AudienceCount>('/broadcasts/audience', {
    audience: apiAudience,
    ...(ref ? { template: ref } : {}),
  });
  const count = counted.data?.count;

  const own: Record<string, string> = {};
  if (!name.trim()) own.name = 'Give the broadcast a name.';
  if (!template) own.template = 'Choose an approved template.';
  else if (unsupported(template)) own.template = 'Choose a template without a location header.';
  if (audience.source === 'import' && !audience.importId) own['audience.import_id'] = 'Upload a CSV first.';
  const at = when.later ? zonedToIso(when.at, tz) : null;
  if (when.later && !at) own.send_at = 'Give a date and time.';
  // The server's grace for a time just gone by is a minute; one older is refused here, before the dialog.
  else if (at && Date.parse(at) < Date.now() - 60_000)
    own.send_at = 'That time has passed: choose a later one, or send now.';
  const hours = Number(replyHours);
  if (!Number.isInteger(hours) || hours < 1 || hours > LIMITS.replyHours)
    own.reply_window_hours = `A whole number of hours from 1 to ${LIMITS.replyHours}.`;
  const errors = { ...(tried ? own : {}), ...refused };
  const shownProblems = tried ? problems : {};
  const edit =
    <T,>(fn: (v: T) => void) =>
    (v: T) => {
      fn(v);
      setRefused({});
    };

  const review = () => {
    setTried(true);
    setFailure(null);
    if (Object.keys(own).length || Object.keys(problems).length) return;
    setConfirming(true);
  };
  const send = async () => {
    if (!ref) return;
    setBusy(true);
    try {
      const { broadcast } = await api<BroadcastAnswer>('POST', '/broadcasts', {
        name: name.trim(),
        template: ref,
        audience: apiAudience,
        values,
        send_at: at,
        reply_window_hours: hours,
      });
      navigate(`/broadcasts/${broadcast.id}`);
    } catch (err) {
      setConfirming(false);
      const details = err instanceof ApiFailure ? (err.body.details ?? []) : [];
      setRefused(
        byButtonIndex(Object.fromEntries(details.map((d) => [d.field, sentence(d.message)])), values),
      );
      const unplaced = details.filter(
        (d) =>
          !PLACED.some((p) => d.field === p || d.field.startsWith(`${p}.`) || d.field.startsWith(`${p}[`)),
      );
      if (!details.length || unplaced.length)
        setFailure(unplaced.map((d) => sentence(d.message)).join(' ') || (err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if ((workspace.loading && !workspace.data) || (templates.loading && !templates.data)) return <Loading />;
  if (templates.error) return <ErrorNote message={templates.error} onRetry={templates.reload} />;
  const recipients =
    count === undefined ? 'the audience' : `${count.toLocaleString()} contact${count === 1 ? '' : 's'}`;
  return (
    <>
      <PageHeader
        title="New broadcast"
        description={
          <>
            <Link href="/broadcasts">Broadcasts</Link> / An approved template to many contacts, each with
            their own values.
          </>
        }
      />
      <div className="template-editor">
        <form className="stack card" onSubmit={submitHandler(review)} noValidate>
          <InputField
            label="Name"
            hint="For your team; customers do not see it."
            error={errors.name}
            maxLength={LIMITS.name}
            value={name}
            onChange={(e) => edit(setName)(e.target.value)}
          />
          <h2>Audience</h2>
          <AudienceFields value={audience} onChange={edit(setAudience)} timeZone={tz} errors={errors} />
          <p className="audience-count" role="status" aria-live="polite" data-testid="audience-count">
            {counted.error
              ? counted.error
              : count === undefined
                ? 'Counting…'
                : `${count.toLocaleString()} contact${count === 1 ? '' : 's'} will get this broadcast${
                    template?.category === 'MARKETING' ? ' (opted-out contacts left out)' : ''
                  }.`}
          </p>
          <h2>Message</h2>
          {approved.length === 0 ? (
            <p className="small muted">
              No approved templates. Create or sync them under <Link href="/templates">Templates</Link>.
            </p>
          ) : (
            <Field label="Template" error={errors.template}>
              {(id) => (
                <select
                  id={id}
                  value={templateId}
                  onChange={(e) => {
                    const next = approved.find((t) => t.id === e.target.value);
                    edit(setTemplateId)(e.target.value);
                    setMappings(
                      next ? Object.fromEntries(partsOf(next).map((p) => [p.key, blankMapping(p)])) : {},
                    );
                  }}
                >
                  <option value="">Choose…</option>
                  {approved.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name} ({t.language}) · {t.category.toLowerCase()}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          {template && (
            <ValueMapping
              template={template}
              parts={parts}
              value={mappings}
              onChange={edit(setMappings)}
              problems={shownProblems}
              serverErrors={refused}
            />
          )}
          <h2>Sending</h2>
          <SendWhen value={when} onChange={edit(setWhen)} timeZone={tz} error={errors.send_at} />
          <InputField
            label="Count replies within (hours)"
            type="number"
            min={1}
            max={LIMITS.replyHours}
            error={errors.reply_window_hours}
            value={replyHours}
            onChange={(e) => edit(setReplyHours)(e.target.value)}
          />
          {failure && <ErrorNote message={failure} />}
          {tried && (Object.keys(errors).length > 0 || Object.keys(problems).length > 0) && (
            <p className="field-error" role="alert">
              Some fields need a change before the broadcast can go out.
            </p>
          )}
          <div className="row">
            <button type="submit" className="btn primary" disabled={busy}>
              Review and send
            </button>
            <Link href="/broadcasts" className="btn">
              Cancel
            </Link>
          </div>
        </form>
        <PreviewPane
          template={template}
          values={values}
          sample={counted.data?.sample ?? []}
          ready={Object.keys(problems).length === 0}
        />
      </div>
      {confirming && (
        <Modal title="Send this broadcast?" onClose={() => setConfirming(false)}>
          <div className="stack">
            <p>
              <strong>{name.trim()}</strong> goes to <strong>{recipients}</strong> with the template{' '}
              <strong>{template?.name}</strong>,{' '}
              {when.later ? `on ${formatIn(at!, tz)} (${tz})` : 'starting now'}.
            </p>
            <div className="row">
              <button type="button" className="btn primary" disabled={busy} onClick={() => void send()}>
                {busy ? 'Sending…' : when.later ? `Schedule for ${recipients}` : `Send to ${recipients}`}
              </button>
              <button type="button" className="btn" onClick={() => setConfirming(false)}>
                Go back
              </button>
            </div>
          </div>
        </Modal>
      )}
    </>
  );
}
