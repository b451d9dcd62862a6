import { formatDate } from '../../api';
import { Link } from '../../router';
import type { Run, RunDetail } from '../../server-types';
import { Badge } from '../../ui/Badge';
import { ErrorNote } from '../../ui/ErrorNote';
import { stepSentence } from './step-sentence';

/** Flows' ids start fl_, sequences' sq_. */
export const automationHref = (id: string) => `${id.startsWith('sq_') ? '/sequences' : '/flows'}/${id}`;

/** Who the run was for: the contact's name and phone, linking to the contact. */
export function RunContact({ run }: { run: Run }) {
  if (!run.contact_id) return <span className="muted">No contact</span>;
  const phone = run.contact_phone ? `+${run.contact_phone}` : null;
  return (
    <Link href={`/contacts/${run.contact_id}`}>
      {run.contact_name || phone || run.contact_id}
      {run.contact_name && phone && <span className="muted"> · {phone}</span>}
    </Link>
  );
}

/** The run's state in words, a completed run with skipped steps saying so. */
export function RunStatus({ run }: { run: Run }) {
  return (
    <span className="row wrap">
      <Badge>{run.status}</Badge>
      {run.skipped_steps > 0 && <Badge tone="amber">{`${run.skipped_steps} skipped`}</Badge>}
    </span>
  );
}

/** A run's header facts and each step's outcome as a sentence, the recorded JSON behind a disclosure. */
export function RunSteps({ run }: { run: RunDetail }) {
  const defined = new Map((run.definition?.steps ?? []).map((s) => [s.id, s]));
  return (
    <>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <RunStatus run={run} />
        </dd>
        <dt>Contact</dt>
        <dd>
          <RunContact run={run} />
        </dd>
        <dt>{run.automation_id.startsWith('sq_') ? 'Sequence' : 'Flow'}</dt>
        <dd>
          <Link href={automationHref(run.automation_id)}>{run.automation_name ?? run.automation_id}</Link>{' '}
          <span className="small muted">version {run.version}</span>
        </dd>
        <dt>Started</dt>
        <dd>{formatDate(run.started_at)}</dd>
        {run.lead_id && (
          <>
            <dt>Lead</dt>
            <dd>
              <Link href={`/leads/${run.lead_id}`}>Open lead</Link>
            </dd>
          </>
        )}
      </dl>
      {run.error && (
        <ErrorNote
          message={
            run.status === 'stopped' ? `The run was stopped: ${run.error}` : `The run failed: ${run.error}`
          }
        />
      )}
      {run.status === 'completed' && run.skipped_reason && (
        <p className="note-warning">
          Completed, but {run.skipped_steps === 1 ? 'a step was' : `${run.skipped_steps} steps were`} skipped:{' '}
          {run.skipped_reason}.
        </p>
      )}
      <ol className="timeline">
        {run.steps.map((s) => (
          <li key={`${s.step_id}/${s.visit}`}>
            <div className="tl-dot" aria-hidden="true" />
            <div className="grow">
              <div className="row wrap">
                <strong className="step-sentence">{stepSentence(s, defined.get(s.step_id))}</strong>
                <Badge tone={s.status === 'skipped' ? 'amber' : undefined}>{s.status}</Badge>
              </div>
              <div className="small muted">
                Step <span className="mono">{s.step_id}</span>
                {s.visit > 1 && ` · visit ${s.visit}`} · {formatDate(s.started_at)}
              </div>
              <details className="raw">
                <summary className="small">Show raw</summary>
                <pre className="outcome">{JSON.stringify(s, null, 2)}</pre>
              </details>
            </div>
          </li>
        ))}
      </ol>
    </>
  );
}
