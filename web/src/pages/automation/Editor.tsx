import { useCallback, useEffect, useMemo, useState } from 'react';
import { sendWarnings } from '../../../../src/modules/automation/send-warnings';
import { ApiFailure, api, formatDate, useApi } from '../../api';
import { ArchiveButton, ConfirmButton } from '../../confirm';
import { Link, navigate } from '../../router';
import type { Automation, AutomationAnswer, NewAutomation, RunAnswer } from '../../server-types';
import { useSession } from '../../session';
import { Badge } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorNote } from '../../ui/ErrorNote';
import { Loading } from '../../ui/Loading';
import { Modal } from '../../ui/Modal';
import { PageHeader } from '../../ui/PageHeader';
import { Secret } from '../../ui/Secret';
import { useAction } from '../../ui/use-action';
import { KIND_TEXT, type Kind } from '../Automations';
import { RunContact, RunStatus, RunSteps } from '../runs/RunSteps';
import type { Template } from '../templates/types';
import { FlowGraph } from './FlowGraph';
import { removeStep, renameStep, TRIGGER_NODE } from './links';
import { type Definition, newStep, STEP_TYPES, type Step, type StepType } from './model';
import { draftProblems, type Problem, placeProblems, problemsOf } from './problems';
import { StepCard } from './StepCard';
import { TriggerCard, triggerText } from './TriggerCard';
import { TryIt } from './TryIt';

const blank = (kind: Kind): Definition => ({
  name: '',
  trigger: kind === 'flow' ? { type: 'event', event: '' } : { type: 'webhook' },
  steps: [],
});

const RUNS_REFRESH_MS = 4000;

/** Thrown when the draft has problems found before sending it: they are shown at their fields. */
class DraftProblems extends Error {}

/** Brings a step's card (or the trigger's fields) into view and gives it the focus. */
function focusNode(node: string) {
  requestAnimationFrame(() => {
    const el =
      node === TRIGGER_NODE
        ? document.querySelector<HTMLElement>('#trigger-fields input, #trigger-fields select')
        : document.querySelector<HTMLElement>(`[data-step="${CSS.escape(node)}"] .step-head`);
    el?.scrollIntoView({ block: 'nearest' });
    el?.focus({ preventScroll: true });
  });
}

/** The builder: trigger, the steps as a graph and as a list of cards, save, publish, try it, runs. */
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
  const [problems, setProblems] = useState<Problem[]>([]);
  // After a first try to save, what is plainly missing is named as it is typed, and cleared as it is fixed.
  const [checked, setChecked] = useState(false);
  const [run, setRun] = useState<string | null>(null);
  const action = useAction();
  const { session } = useSession();

  useEffect(() => {
    if (loaded.data && !dirty) setDef(structuredClone(loaded.data.automation.draft) as Definition);
  }, [loaded.data, dirty]);

  // The problems as they stand against the definition they were found in; a fix typed since clears none
  // of the server's, but each stays next to its own step.
  const placed = useMemo(
    () => (def ? placeProblems(def, [...(checked ? draftProblems(def) : []), ...problems]) : []),
    [def, problems, checked],
  );
  const openNode = useCallback((node: string) => {
    setOpen(node === TRIGGER_NODE ? null : node);
    focusNode(node);
  }, []);

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
  // Links to the removed step end the run instead of pointing nowhere.
  const remove = (i: number) => change(removeStep(def, def.steps[i]!.id));
  const move = (i: number, delta: -1 | 1) => {
    const steps = [...def.steps];
    const [s] = steps.splice(i, 1);
    steps.splice(i + delta, 0, s!);
    setSteps(steps);
  };

  /** Opens the first step with a problem, to show it beside its field. */
  const openFirst = (found: Problem[]) => {
    const first = placeProblems(def, found).find((p) => p.node && p.node !== TRIGGER_NODE);
    if (first?.node) setOpen(first.node);
  };

  const save = async (): Promise<string | undefined> => {
    setProblems([]);
    setChecked(true);
    const found = draftProblems(def);
    if (found.length) {
      openFirst(found);
      throw new DraftProblems();
    }
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
        openFirst(err.body.details);
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

  const warnings = sendWarnings(def);
  const general = placed.filter((p) => p.node === null);
  const onNodes = placed.length - general.length;
  const triggerProblems = {
    ...problemsOf(placed, TRIGGER_NODE),
    ...Object.fromEntries(
      general
        .filter((p) => p.field === 'name' || p.field === 'on_teammate_reply')
        .map((p) => [p.field, p.message]),
    ),
  };
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
      {(action.error || placed.length > 0) && (
        <ErrorNote
          message={
            placed.length === 0
              ? action.error!
              : onNodes > 0
                ? `${placed.length === 1 ? 'A change is needed' : `${placed.length} changes are needed`}: see the marked ${onNodes === 1 ? 'step' : 'steps'}${general.length ? ' and the list below' : ''}.`
                : placed.length === 1
                  ? placed[0]!.text
                  : 'A few changes are needed: see the list below.'
          }
        />
      )}
      {general.length > (onNodes === 0 && placed.length === 1 ? 1 : 0) && (
        <ul className="problems">
          {general.map((p) => (
            <li key={`${p.field}${p.message}`}>{p.text}</li>
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
      <div className="stack">
        <TriggerCard kind={kind} def={def} problems={triggerProblems} onChange={change} />
        <Card
          title="Steps"
          description="Each run goes from the trigger down, following the links. Drag from a step's handle to another step to link them; select a link and press Delete to cut it. Open a step to edit it."
        >
          <div className="bot-builder">
            <FlowGraph
              def={def}
              triggerText={triggerText(def)}
              placed={placed}
              open={open}
              onOpen={openNode}
              onChange={change}
            />
            <div className="bot-panel">
              <ol className="graph" aria-label="Steps">
                {def.steps.map((s, i) => (
                  <StepCard
                    key={s.id}
                    steps={def.steps}
                    index={i}
                    templates={templates.data?.templates ?? []}
                    problems={problemsOf(placed, s.id)}
                    warning={warnings.find((w) => w.step === s.id)?.message}
                    open={open === s.id}
                    onToggle={() => setOpen(open === s.id ? null : s.id)}
                    onChange={(step) => setSteps(def.steps.map((x, j) => (j === i ? step : x)))}
                    onRename={(id) => {
                      change(renameStep(def, s.id, id));
                      if (open === s.id) setOpen(id);
                    }}
                    onRemove={() => remove(i)}
                    onMove={(d) => move(i, d)}
                  />
                ))}
              </ol>
              <div className="add-step">
                <span className="small muted">Add a step</span>
                <div className="add-step-grid">
                  {STEP_TYPES.filter(
                    (t) =>
                      (kind === 'sequence' || t.type !== 'update_lead_status') &&
                      (kind === 'flow' || !CONVERSATION_STEPS.has(t.type)),
                  ).map((t) => (
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
            </div>
          </div>
        </Card>
        <div className="builder">
          {kind === 'flow' && <TryIt />}
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

/** Steps that talk with a customer in a conversation: for flows (a sequence works through leads). */
const CONVERSATION_STEPS = new Set<StepType>(['ask', 'assign', 'resolve']);

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
