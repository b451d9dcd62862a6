import { useEffect, useState } from 'react';
import { api, useApi } from '../../api';
import type { BusinessHours, BusinessHoursAnswer } from '../../server-types';
import { useSession } from '../../session';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { Field } from '../../ui/Field';
import { Loading } from '../../ui/Loading';
import { SaveButton } from '../../ui/SaveButton';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';
import { HolidaysEditor, OFFICE_HOURS, type Schedule, WeekEditor } from './BusinessHoursWeek';

type Form = Omit<BusinessHours, 'time_zone' | 'inside_now'>;

const formOf = ({ schedule, holidays, away, greeting }: BusinessHours): Form => ({
  schedule,
  holidays,
  away,
  greeting,
});

/**
 * Settings › Business hours: the weekly schedule in the workspace's time zone, holidays, and the
 * built-in away message and greeting. Owners and admins change it; everyone sees it.
 */
export function BusinessHoursSettings() {
  const { session } = useSession();
  const readOnly = !session.can_manage;
  const current = useApi<BusinessHoursAnswer>('/business-hours');
  const [form, setForm] = useState<Form | null>(null);
  const [shown, setShown] = useState<BusinessHours | null>(null);
  // The schedule last edited, kept while "Keep a schedule" is off so turning it back on restores it.
  const [kept, setKept] = useState<Schedule>(OFFICE_HOURS);
  const [saved, setSaved] = useState(false);
  const { busy, error, fieldErrors, run } = useAction();
  useEffect(() => {
    if (current.data) {
      setShown(current.data.business_hours);
      setForm(formOf(current.data.business_hours));
      if (current.data.business_hours.schedule) setKept(current.data.business_hours.schedule);
    }
  }, [current.data]);
  if (current.error) return <ErrorNote message={current.error} onRetry={current.reload} />;
  if (!form || !shown) return <Loading />;
  const change = (patch: Partial<Form>) => {
    setForm({ ...form, ...patch });
    setSaved(false);
  };
  const save = () =>
    run(async () => {
      const answer = await api<BusinessHoursAnswer>('PUT', '/business-hours', form);
      setShown(answer.business_hours);
      setForm(formOf(answer.business_hours));
      setSaved(true);
    });
  return (
    <div className="stack">
      <Card
        title="Business hours"
        description={`Times are read in the workspace's time zone, ${shown.time_zone} (Settings › General).`}
      >
        <p role="status" className="small">
          {shown.schedule === null
            ? 'No schedule: always inside business hours.'
            : shown.inside_now
              ? 'Now: inside business hours.'
              : 'Now: outside business hours.'}
        </p>
        <form className="stack narrow" onSubmit={submitHandler(save)}>
          <label className="check">
            <input
              type="checkbox"
              checked={form.schedule !== null}
              disabled={readOnly}
              onChange={(e) => change({ schedule: e.target.checked ? kept : null })}
            />{' '}
            Keep a schedule (off: always open)
          </label>
          {form.schedule && (
            <>
              <WeekEditor
                schedule={form.schedule}
                errors={fieldErrors}
                readOnly={readOnly}
                onChange={(schedule) => {
                  setKept(schedule);
                  change({ schedule });
                }}
              />
              <HolidaysEditor
                holidays={form.holidays}
                errors={fieldErrors}
                readOnly={readOnly}
                onChange={(holidays) => change({ holidays })}
              />
            </>
          )}
          <AutoMessage
            kind="away"
            label="Send an away message to customers who write outside business hours"
            hint="Sent at most once in 12 hours to the same customer; not while a bot answers them."
            value={form.away}
            error={fieldErrors['away.text']}
            readOnly={readOnly}
            onChange={(away) => change({ away })}
          />
          <AutoMessage
            kind="greeting"
            label="Send a greeting for a customer's first message (inside business hours)"
            hint="A first message outside business hours gets the away message instead."
            value={form.greeting}
            error={fieldErrors['greeting.text']}
            readOnly={readOnly}
            onChange={(greeting) => change({ greeting })}
          />
          {error && !Object.keys(fieldErrors).length && <ErrorNote message={error} />}
          {error && Object.keys(fieldErrors).length > 0 && (
            <p className="field-error">Some fields need fixing: see the notes beside them.</p>
          )}
          {readOnly ? (
            <p className="small muted">Only owners and admins can change these.</p>
          ) : (
            <div className="row">
              <SaveButton busy={busy} saved={saved}>
                {busy ? 'Saving…' : 'Save business hours'}
              </SaveButton>
            </div>
          )}
        </form>
      </Card>
    </div>
  );
}

function AutoMessage({
  kind,
  label,
  hint,
  value,
  error,
  readOnly,
  onChange,
}: {
  kind: 'away' | 'greeting';
  label: string;
  hint: string;
  value: Form['away'];
  error?: string;
  readOnly: boolean;
  onChange: (v: Form['away']) => void;
}) {
  return (
    <div className="stack">
      <label className="check">
        <input
          type="checkbox"
          checked={value.enabled}
          disabled={readOnly}
          onChange={(e) => onChange({ ...value, enabled: e.target.checked })}
        />{' '}
        {label}
      </label>
      <Field label={kind === 'away' ? 'Away message' : 'Greeting'} hint={hint} error={error}>
        {(id) => (
          <textarea
            id={id}
            rows={3}
            maxLength={4096}
            value={value.text}
            disabled={readOnly}
            aria-invalid={Boolean(error)}
            onChange={(e) => onChange({ ...value, text: e.target.value })}
          />
        )}
      </Field>
    </div>
  );
}
