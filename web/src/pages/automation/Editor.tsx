import { useEffect, useState } from 'react';
import { sendWarnings } from '../../../../src/modules/automation/send-warnings';
import { ApiFailure, api, formatDate, useApi } from '../../api';
import { ArchiveButton, ConfirmButton } from '../../confirm';
import { Link, navigate } from '../../router';
import type { Automation, AutomationAnswer, NewAutomation, RunAnswer } from '../../server-types';
import { useSession } from '../../session';
import { Badge, Card, CopyButton, ErrorNote, Loading, Modal, PageHeader, Secret, useAction } from '../../ui';
import { KIND_TEXT, type Kind } from '../Automations';
import { RunContact, RunStatus, RunSteps } from '../runs/RunSteps';
import type { Template } from '../templates/types';
import { FormPicker } from './FormPicker';
import { type Definition, newStep, STEP_TYPES, type Step, type StepType } from './model';
import { StepCard } from './StepCard';

/** A step's problems from the server, by field inside the step: `template.header`. */
const stepProblems = (problems: { field: string; message: string }[], i: number) =>
  Object.fromEntries(
    problems
      .filter((p) => p.field.startsWith(`steps.${i}.`))
      .map((p) => [p.field.slice(`steps.${i}.`.length), p.message.replace(/^step "[^"]*": /, '')]),
  );

/** Every problem is one a step card shows beside its field (a send_template step's values). */
const allInSteps = (problems: { field: string }[]) =>
  problems.length > 0 && problems.every((p) => /^steps\.\d+\.template\./.test(p.field));

const blank = (kind: Kind): Definition => ({
  name: '',
  trigger: kind === 'flow' ? { type: 'event', event: '' } : { type: 'webhook' },
  steps: [],
});

const RUNS_REFRESH_MS = 4000;

/** The builder: trigger, a vertical graph of steps with branches, save, publish, webhook URL, runs. */
export function AutomationEditor({ kind, id }: { kind: Kind; id?: string }) {
  const text = KIND_TEXT[kind];
  // Runs move on their own: looked at again every few seconds.
  const loaded = useApi<AutomationAnswer>(id ? `/automations/${encodeURIComponent(id)}` : null, {
    refetchInterval: RUNS_REFRESH_MS,
  });
  const templates = useApi<{ templates: Template[] }>('/templates');
  const [def, setDef] = useState<Definition | null>(id ? null : blank(kind));
  const [open, setOpen] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const [problems, setProblems] = useState<{ field: string; message: string }[]>([]);
  const [run, setRun] = useState<string | null>(null);
  const action = useAction();
  const { session } = useSession();

  useEffect(() => {
    if (loaded.data && !dirty) setDef(structuredClone(loaded.data.automation.draft));
  }, [loaded.data, dirty]);

  if (id && loaded.loading && !loaded.data) return <Loading />;
  if (id && loaded.error && !loaded.data) return <ErrorNote message={loaded.error} onRetry={loaded.reload} />;
  if (!def) return <Loading />;
  const a = loaded.data?.automation;

  const change = (d: Definition) => {
    setDef(d);
    setDirty(true);
  };
  const setSteps = (steps: Step[]) => change({ ...def, steps });
  const add = (type: StepType) => {
    const step = newStep(type, def.steps);
    setSteps([...def.steps, step]);
    setOpen(step.id);
  };
  const remove = (i: number) => {
    const gone = def.steps[i]!.id;
    // Links to the removed step end the run instead of pointing nowhere.
    const steps = def.steps
      .filter((_, j) => j !== i)
      .map((s) => {
        const copy = { ...s } as Record<string, unknown>;
        for (const k of ['next', 'if_true', 'if_false', 'not_sent']) if (copy[k] === gone) copy[k] = null;
        return copy as Step;
      });
    setSteps(steps);
  };
  const move = (i: number, delta: -1 | 1) => {
    const steps = [...def.steps];
    const [s] = steps.splice(i, 1);
    steps.splice(i + delta, 0, s!);
    setSteps(steps);
  };

  const save = async (): Promise<string | undefined> => {
    setProblems([]);
    try {
      if (!id) {
        const r = await api<NewAutomation>('POST', '/automations', { kind, definition: def });
        setDirty(false);
        navigate(`${text.path}/${r.id}`, true);
        return r.id;
      }
      await api('PUT', `/automations/${id}`, { definition: def });
      setDirty(false);
      loaded.reload();
      return id;
    } catch (err) {
      if (err instanceof ApiFailure && err.body.details) {
        setProblems(err.body.details);
        // The first step with a problem opens, to show it beside its field.
        const at = err.body.details.map((d) => /^steps\.(\d+)\./.exec(d.field)).find(Boolean);
        if (at) setOpen(def.steps[Number(at[1])]?.id ?? null);
      }
      throw err;
    }
  };
  const publish = () =>
    action.run(async () => {
      const saved = await save();
      if (saved) await api('POST', `/automations/${saved}/publish`);
      loaded.reload();
    });
  const unpublish = async () => {
    await api('POST', `/automations/${id}/unpublish`);
    loaded.reload();
  };

  const trigger = def.trigger;
  const warnings = sendWarnings(def);
  return (
    <>
      <PageHeader
        title={def.name || (id ? 'Untitled' : `New ${text.one}`)}
        description={
          <>
            <Link href={text.path}>{text.title}</Link>
            {a && (
              <>
                {' '}
                · <Badge>{a.status}</Badge>
                {a.published_version !== null && ` version ${a.published_version}`}
                {(dirty || a.unpublished_changes) && ' · unpublished changes'}
              </>
            )}
          </>
        }
        actions={
          <>
            <button
              type="button"
              className="btn"
              disabled={action.busy || (!dirty && !!id)}
              onClick={() => action.run(save)}
            >
              {dirty || !id ? 'Save draft' : 'Saved'}
            </button>
            {a && session.can_manage && (
              <ArchiveButton
                base="/automations"
                id={a.id}
                archived={a.archived_at !== null}
                what={text.one}
                effect="It is unpublished, so nothing starts it; runs under way go on to their end."
                onDone={loaded.reload}
              />
            )}
            {a?.status === 'published' && (
              <ConfirmButton
                label="Unpublish"
                title={`Unpublish this ${text.one}?`}
                confirmLabel="Unpublish"
                onConfirm={unpublish}
              >
                <p>
                  Nothing starts it until you publish it again. Runs already under way go on to their end.
                </p>
              </ConfirmButton>
            )}
            <button
              type="button"
              className="btn primary"
              disabled={
                action.busy ||
                a?.status === 'archived' ||
                (a?.status === 'published' && !dirty && !a.unpublished_changes)
              }
              onClick={publish}
            >
              {a?.status !== 'published'
                ? 'Publish'
                : dirty || a.unpublished_changes
                  ? 'Publish changes'
                  : 'Published'}
            </button>
          </>
        }
      />
      {a?.archived_at && (
        <p className="notice" role="status">
          Archived {formatDate(a.archived_at)}: nothing starts it. Restore it, then publish it to use it
          again.
        </p>
      )}
      {action.error && (
        <ErrorNote
          message={allInSteps(problems) ? 'A step needs a change: see the marked fields.' : action.error}
        />
      )}
      {problems.length > 1 && !allInSteps(problems) && (
        <ul className="problems">
          {problems.map((p) => (
            <li key={`${p.field}${p.message}`}>
              <code>{p.field}</code> {p.message}
            </li>
          ))}
        </ul>
      )}
      {warnings.length > 0 && (
        <div className="note-warning" role="note">
          <strong>Before you publish:</strong> {warnings.length === 1 ? 'a step' : `${warnings.length} steps`}{' '}
          will most likely be skipped ({warnings.map((w) => w.step).join(', ')}): a free-text or media message
          goes out only inside the 24-hour window. See the marked {warnings.length === 1 ? 'step' : 'steps'}.
        </div>
      )}
      <div className="builder">
        <div className="stack">
          <Card title="Name and trigger">
            <div className="grid-fields">
              <label className="field">
                <span>Name</span>
                <input
                  value={def.name}
                  maxLength={200}
                  onChange={(e) => change({ ...def, name: e.target.value })}
                />
              </label>
              {kind === 'flow' ? (
                <label className="field">
                  <span>When this event is tracked</span>
                  <input
                    value={trigger.type === 'event' ? trigger.event : ''}
                    placeholder="signup"
                    onChange={(e) => change({ ...def, trigger: { type: 'event', event: e.target.value } })}
                  />
                </label>
              ) : (
                <label className="field">
                  <span>Starts when</span>
                  <select
                    value={trigger.type}
                    onChange={(e) => change({ ...def, trigger: { type: e.target.value as 'webhook' } })}
                  >
                    <option value="webhook">its webhook URL is called</option>
                    <option value="form_submitted">a form is submitted</option>
                    <option value="lead_created">any lead is created</option>
                  </select>
                </label>
              )}
              {trigger.type === 'form_submitted' && (
                <FormPicker
                  value={trigger.form_id}
                  onChange={(form_id) =>
                    change({ ...def, trigger: { type: 'form_submitted', ...(form_id ? { form_id } : {}) } })
                  }
                />
              )}
            </div>
            {kind === 'flow' && (
              <p className="small muted">
                Track it with <code>POST /api/v1/events</code> and{' '}
                <code>{`{"phone": "…", "event": "${trigger.type === 'event' ? trigger.event || 'signup' : ''}"}`}</code>
                . Only published flows start.
              </p>
            )}
          </Card>
          <Card
            title="Steps"
            description="Each run goes from the first step down, following the branches you set. A step runs at most once per run."
          >
            <ol className="graph">
              <li>
                <span className="graph-start">
                  <span className="step-icon" aria-hidden="true">
                    ⚡
                  </span>
                  {kind === 'flow'
                    ? `Event “${trigger.type === 'event' ? trigger.event || '…' : ''}”`
                    : 'Trigger'}
                </span>
              </li>
              {def.steps.map((s, i) => (
                <StepCard
                  key={s.id}
                  steps={def.steps}
                  index={i}
                  templates={templates.data?.templates ?? []}
                  problems={stepProblems(problems, i)}
                  warning={warnings.find((w) => w.step === s.id)?.message}
                  open={open === s.id}
                  onToggle={() => setOpen(open === s.id ? null : s.id)}
                  onChange={(step) => setSteps(def.steps.map((x, j) => (j === i ? step : x)))}
                  onRemove={() => remove(i)}
                  onMove={(d) => move(i, d)}
                />
              ))}
            </ol>
            <div className="add-step">
              <span className="small muted">Add a step</span>
              <div className="add-step-grid">
                {STEP_TYPES.filter((t) => kind === 'sequence' || t.type !== 'update_lead_status').map((t) => (
                  <button
                    key={t.type}
                    type="button"
                    className="add-step-btn"
                    onClick={() => add(t.type)}
                    title={t.hint}
                  >
                    <span aria-hidden="true">{t.icon}</span> {t.label}
                  </button>
                ))}
              </div>
            </div>
          </Card>
        </div>
        <div className="stack">
          {a?.webhook && <WebhookCard automation={a} onRotated={loaded.reload} />}
          {id && (
            <Card title="Runs" description="Newest first; open one to see each step's outcome.">
              {!loaded.data || loaded.data.runs.length === 0 ? (
                <p className="muted small">
                  No runs yet.{' '}
                  {a?.status === 'published'
                    ? 'They appear here as the trigger fires.'
                    : 'Publish it so the trigger starts runs.'}
                </p>
              ) : (
                <ul className="list">
                  {loaded.data.runs.map((r) => (
                    <li key={r.id} className="list-row">
                      <div className="grow">
                        <RunStatus run={r} />
                        <div className="small">
                          <RunContact run={r} />
                        </div>
                        <span className="small muted">
                          v{r.version} · {formatDate(r.started_at)}
                        </span>
                        {r.error && <div className="small field-error">{r.error}</div>}
                      </div>
                      <button type="button" className="btn small" onClick={() => setRun(r.id)}>
                        Steps
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          )}
        </div>
      </div>
      {run && <RunModal id={run} onClose={() => setRun(null)} />}
    </>
  );
}

function WebhookCard({ automation, onRotated }: { automation: Automation; onRotated: () => void }) {
  const rotate = useAction();
  const w = automation.webhook!;
  return (
    <Card
      title="Webhook URL"
      description="POST a lead's JSON here from Zapier, your CRM or an ad platform. The URL holds the secret: keep it on a server."
    >
      <Secret value={w.url} />
      <p className="small muted">
        Or post to <code className="break">{w.url_without_secret}</code> with the secret in{' '}
        <code>x-api-key</code>, or an HMAC-SHA256 of the body in <code>X-Webhook-Signature: sha256=…</code>.
      </p>
      <div className="row wrap">
        <span className="small muted">Secret</span>
        <CopyButton value={w.secret} label="Copy secret" />
        <button
          type="button"
          className="btn small danger"
          disabled={rotate.busy}
          onClick={() =>
            confirm('Make a new secret? Callers using the old URL stop working at once.') &&
            rotate.run(async () => {
              await api('POST', `/automations/${automation.id}/rotate-secret`);
              onRotated();
            })
          }
        >
          Rotate secret
        </button>
      </div>
      {automation.status !== 'published' && (
        <p className="small muted">Publish the sequence first: drafts do not start from the webhook.</p>
      )}
      {rotate.error && <ErrorNote message={rotate.error} />}
    </Card>
  );
}

function RunModal({ id, onClose }: { id: string; onClose: () => void }) {
  const run = useApi<RunAnswer>(`/runs/${encodeURIComponent(id)}`);
  return (
    <Modal title="Run" onClose={onClose}>
      {run.loading && !run.data ? (
        <Loading />
      ) : run.error || !run.data ? (
        <ErrorNote message={run.error ?? 'Not found'} onRetry={run.reload} />
      ) : (
        <>
          <RunSteps run={run.data.run} />
          <Link href={`/runs/${id}`} className="small">
            Open the run on its own page
          </Link>
        </>
      )}
    </Modal>
  );
}
