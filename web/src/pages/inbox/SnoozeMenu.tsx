import { useId, useState } from 'react';
import { api, formatDate, useApi } from '../../api';
import type { WorkspaceAnswer } from '../../server-types';
import { ErrorNote } from '../../ui/ErrorNote';
import { useAction } from '../../ui/use-action';
import { daysToMonday, nineOClock } from './label-types';

export type SnoozeChoice = { until: string } | { until_reply: true };

/** The quick snooze choices: in an hour, tomorrow and next Monday at 9:00 in the workspace's time zone, until they reply. */
export function useSnoozeChoices(): { label: string; body: () => SnoozeChoice }[] {
  const zone = useApi<WorkspaceAnswer>('/workspace').data?.workspace.time_zone ?? 'UTC';
  return [
    { label: '1 hour', body: () => ({ until: new Date(Date.now() + 3_600_000).toISOString() }) },
    { label: 'Tomorrow 9:00', body: () => ({ until: nineOClock(zone, 1).toISOString() }) },
    { label: 'Next week', body: () => ({ until: nineOClock(zone, daysToMonday()).toISOString() }) },
    { label: 'Until they reply', body: () => ({ until_reply: true }) },
  ];
}

/** Snoozes the open conversation, or wakes it; a chosen time in the past is refused beside the field. */
export function SnoozeMenu({
  contactId,
  snoozedUntil,
  untilReply,
  onChanged,
}: {
  contactId: string;
  snoozedUntil: string | null;
  untilReply: boolean;
  onChanged: () => void;
}) {
  const choices = useSnoozeChoices();
  const { busy, error, fieldErrors, run } = useAction();
  const [at, setAt] = useState('');
  const id = useId();
  const path = `/conversations/${encodeURIComponent(contactId)}`;
  const snooze = (body: SnoozeChoice | null) =>
    run(async () => {
      await (body ? api('POST', `${path}/snooze`, body) : api('POST', `${path}/unsnooze`));
      onChanged();
    });
  if (snoozedUntil || untilReply)
    return (
      <div className="snooze-menu">
        <span className="small">
          {untilReply ? 'Snoozed until they reply' : `Snoozed until ${formatDate(snoozedUntil)}`}
        </span>
        <button type="button" className="btn small" disabled={busy} onClick={() => void snooze(null)}>
          Wake now
        </button>
        {error && <ErrorNote message={error} />}
      </div>
    );
  return (
    <details className="snooze-menu">
      <summary className="btn small snooze-toggle">Snooze</summary>
      <div className="snooze-choices">
        {choices.map((c) => (
          <button
            key={c.label}
            type="button"
            className="btn small ghost"
            disabled={busy}
            onClick={() => void snooze(c.body())}
          >
            {c.label}
          </button>
        ))}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (at) void snooze({ until: new Date(at).toISOString() });
          }}
        >
          <label htmlFor={id} className="small">
            Pick a time
          </label>
          <input id={id} type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} required />
          <button type="submit" className="btn small" disabled={busy}>
            Snooze until then
          </button>
          {fieldErrors.until && <p className="field-error">{fieldErrors.until}</p>}
        </form>
        {error && !fieldErrors.until && <ErrorNote message={error} />}
      </div>
    </details>
  );
}
