import { useEffect, useState } from 'react';
import { api, useApi } from '../../api';
import type { Retention, RetentionAnswer } from '../../server-types';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { Field } from '../../ui/Field';
import { Loading } from '../../ui/Loading';
import { SaveButton } from '../../ui/SaveButton';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';

const KINDS: { key: keyof Retention; label: string; hint: string }[] = [
  {
    key: 'message_content_days',
    label: 'Message content',
    hint: 'What messages said (text, template values, buttons, locations). The messages stay listed and counted, marked "content removed".',
  },
  { key: 'media_days', label: 'Media', hint: 'Photos, videos, audio and documents received or sent.' },
  {
    key: 'finished_runs_days',
    label: 'Finished runs',
    hint: 'Flow and sequence runs that completed or failed, with their steps. Runs still going are kept. The home dashboard keeps counting them.',
  },
  {
    key: 'delivery_logs_days',
    label: 'Webhook delivery log',
    hint: 'Deliveries to your webhook endpoints, once delivered or given up.',
  },
];

type Form = Record<keyof Retention, { days: string; forever: boolean }>;

const formOf = (r: Retention) =>
  Object.fromEntries(
    KINDS.map(({ key }) => [key, { days: r[key] === null ? '' : String(r[key]), forever: r[key] === null }]),
  ) as Form;

/** A whole number as a number; anything else as typed, for the server to say what is wrong with it. */
const daysOf = (v: { days: string; forever: boolean }) =>
  v.forever ? null : /^\s*\d+\s*$/.test(v.days) ? Number(v.days) : v.days.trim();

/** Settings › General › Data retention: how long each kind of data is kept before the daily clean-up removes it. */
export function RetentionSettings({ readOnly }: { readOnly: boolean }) {
  const current = useApi<RetentionAnswer>('/workspace/retention');
  const [form, setForm] = useState<Form | null>(null);
  const [saved, setSaved] = useState(false);
  const { busy, error, fieldErrors, run } = useAction();
  useEffect(() => {
    if (current.data) setForm(formOf(current.data.retention));
  }, [current.data]);
  if (current.error) return <ErrorNote message={current.error} onRetry={current.reload} />;
  if (!form) return <Loading />;
  const change = (key: keyof Retention, value: Partial<Form[keyof Retention]>) => {
    setForm({ ...form, [key]: { ...form[key], ...value } });
    setSaved(false);
  };
  const save = () =>
    run(async () => {
      const body = Object.fromEntries(KINDS.map(({ key }) => [key, daysOf(form[key])]));
      const answer = await api<RetentionAnswer>('PATCH', '/workspace/retention', body);
      setForm(formOf(answer.retention));
      setSaved(true);
    });
  return (
    <Card
      title="Data retention"
      description="Once a day, Parley removes what is older than you keep here. Removed data cannot be brought back."
    >
      <form className="stack narrow" onSubmit={submitHandler(save)}>
        {KINDS.map(({ key, label, hint }) => (
          <Field key={key} label={`${label}: days kept`} hint={hint} error={fieldErrors[key]}>
            {(id) => (
              <div className="row">
                <input
                  id={id}
                  name={key}
                  inputMode="numeric"
                  className="days-input"
                  value={form[key].days}
                  disabled={readOnly || form[key].forever}
                  onChange={(e) => change(key, { days: e.target.value })}
                />
                <label className="check">
                  <input
                    type="checkbox"
                    checked={form[key].forever}
                    aria-label={`Keep ${label.toLowerCase()} for ever`}
                    disabled={readOnly}
                    onChange={(e) => change(key, { forever: e.target.checked })}
                  />{' '}
                  Keep for ever
                </label>
              </div>
            )}
          </Field>
        ))}
        {error && !Object.keys(fieldErrors).length && <ErrorNote message={error} />}
        {readOnly ? (
          <p className="small muted">Only owners and admins can change these.</p>
        ) : (
          <div className="row">
            <SaveButton busy={busy} saved={saved}>
              {busy ? 'Saving…' : 'Save retention'}
            </SaveButton>
          </div>
        )}
      </form>
    </Card>
  );
}
