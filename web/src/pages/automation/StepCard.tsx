import { type ReactNode, useState } from 'react';
import { TemplateValues } from '../templates/TemplateValues';
import type { Template, TemplateValues as Values } from '../templates/types';
import { emptyValues } from '../templates/values';
import { AskFields } from './AskFields';
import { AssignFields } from './AssignFields';
import { ConditionOn, HoursCheckFields } from './HoursCondition';
import { exitsOf, stepIdProblem, targetOf } from './links';
import {
  type Check,
  type HoursCheck,
  hasWindow,
  LEAD_STATUSES,
  OPS,
  type Step,
  stepMeta,
  summarize,
  targetLabel,
} from './model';
import { fieldName } from './problems';
import { type RichMessage, RichMessageFields } from './RichMessageFields';

interface Props {
  steps: Step[];
  index: number;
  templates: Template[];
  /** The server's problems with this step, by field inside it (`template.header`). */
  problems: Record<string, string>;
  /** Why this step will likely not run as meant (a text in a sequence), shown before publishing. */
  warning?: string;
  open: boolean;
  onToggle: () => void;
  onChange: (step: Step) => void;
  /** A new id for the step: the links to it and the reads of its outcome follow. */
  onRename: (id: string) => void;
  onRemove: () => void;
  onMove: (delta: -1 | 1) => void;
}

const NEW_TYPES = new Set(['ask', 'assign', 'resolve']);

/** The fields each kind of step shows its problems beside (by prefix); links show theirs at their select. */
const AT_FIELDS: Record<string, string[]> = {
  send_template: ['template'],
  send_text: ['text'],
  send_message: ['message'],
  wait: ['duration'],
  add_tag: ['tag'],
  remove_tag: ['tag'],
  set_trait: ['key', 'value'],
  condition: ['if.field', 'if.value', 'if.inside_business_hours'],
  http_request: ['method', 'url', 'body'],
  update_lead_status: ['status'],
  ask: ['text', 'buttons', 'list', 'expect', 'save_to', 'timeout', 'attempts', 'retry_text'],
  assign: ['to', 'then'],
};
const LINKS = ['next', 'not_sent', 'if_true', 'if_false', 'on_invalid', 'on_timeout'];
const shownAtField = (type: string, field: string) =>
  LINKS.includes(field) || (AT_FIELDS[type] ?? []).some((f) => field === f || field.startsWith(`${f}.`));

const FIELD_HINT = 'e.g. contact.tags, contact.traits.plan, event.properties.plan, lead.fields.city';
const PLACEHOLDER_HINT = 'Placeholders such as {{contact.name | there}} are filled in for each contact.';

/** One step of the graph: its summary, where it leads, and (when open) its form. */
export function StepCard({
  steps,
  index,
  templates,
  problems,
  warning,
  open,
  onToggle,
  onChange,
  onRename,
  onRemove,
  onMove,
}: Props) {
  const step = steps[index]!;
  const meta = stepMeta(step.type);
  const set = (patch: Record<string, unknown>) => onChange({ ...step, ...patch });
  const others = steps.filter((s) => s.id !== step.id);
  const target = (label: string, key: string, allowContinue: boolean) => {
    const value = step[key] as string | null | undefined;
    return (
      <label className="field">
        <span>{label}</span>
        <select
          value={value === undefined ? '__continue' : value === null ? '__end' : value}
          onChange={(e) => {
            const v = e.target.value;
            const next = { ...step } as Record<string, unknown>;
            if (v === '__continue') delete next[key];
            else next[key] = v === '__end' ? null : v;
            onChange(next as Step);
          }}
        >
          {allowContinue && <option value="__continue">Continue to the next step</option>}
          <option value="__end">End the run</option>
          {others.map((s) => (
            <option key={s.id} value={s.id}>
              Go to {s.id} ({stepMeta(s.type).label})
            </option>
          ))}
        </select>
        {problems[key] && <span className="field-error">{problems[key]}</span>}
      </label>
    );
  };
  // Problems no field of the form shows are listed in words at the top of its body.
  const elsewhere = Object.entries(problems).filter(([field]) => !shownAtField(step.type, field));
  return (
    <li className={`step ${step.type === 'condition' ? 'step-branch' : ''}`} data-step={step.id}>
      <div className="step-card">
        <button type="button" className="step-head" onClick={onToggle} aria-expanded={open}>
          <span className="step-icon" aria-hidden="true">
            {meta.icon}
          </span>
          <span className="step-title">
            <span className="step-type">{meta.label}</span>
            <span className="step-summary">{summarize(step)}</span>
          </span>
          <span className="step-id mono">{step.id}</span>
        </button>
        {warning && <p className="step-warning small">⚠ {warning}</p>}
        {NEW_TYPES.has(step.type) ? (
          <div className="branches">
            {exitsOf(step).map((e) => {
              const to = targetOf(steps, index, e.key).target;
              return (
                <span key={e.key} className="branch">
                  {e.label} → {to === null ? 'end the run' : `go to ${to}`}
                </span>
              );
            })}
          </div>
        ) : step.type === 'condition' ? (
          <div className="branches">
            <span className="branch yes">
              Yes → {targetLabel(steps, index, step.if_true as string | null)}
            </span>
            <span className="branch no">
              No → {targetLabel(steps, index, step.if_false as string | null)}
            </span>
          </div>
        ) : (
          (step.next !== undefined || (hasWindow(step) && step.not_sent !== undefined)) && (
            <div className="branches">
              <span className="branch">Then {targetLabel(steps, index, step.next)}</span>
              {hasWindow(step) && (
                <span className="branch no">
                  Window closed → {targetLabel(steps, index, (step.not_sent as string | null) ?? null)}
                </span>
              )}
            </div>
          )
        )}
        {open && (
          <div className="step-body stack">
            {elsewhere.length > 0 && (
              <ul className="problems">
                {elsewhere.map(([field, message]) => (
                  <li key={field}>{field ? `${fieldName(field, step)}: ${message}` : message}</li>
                ))}
              </ul>
            )}
            <StepFields step={step} steps={steps} set={set} templates={templates} problems={problems} />
            <div className="grid-fields">
              {step.type === 'ask' ? (
                <>
                  {target('Then (other answers)', 'next', true)}
                  {target('When the answers stay invalid', 'on_invalid', false)}
                  {target('When no answer comes in time', 'on_timeout', false)}
                  {target('When the window is closed', 'not_sent', false)}
                </>
              ) : step.type === 'assign' && step.then !== 'wait' ? null : step.type === 'condition' ? (
                <>
                  {target('When yes', 'if_true', false)}
                  {target('When no', 'if_false', false)}
                </>
              ) : (
                <>
                  {target('Then', 'next', true)}
                  {hasWindow(step) && target('When the window is closed', 'not_sent', false)}
                </>
              )}
            </div>
            <StepIdField steps={steps} id={step.id} onRename={onRename} />
            <div className="row wrap">
              <button type="button" className="btn small" onClick={() => onMove(-1)} disabled={index === 0}>
                Move up
              </button>
              <button
                type="button"
                className="btn small"
                onClick={() => onMove(1)}
                disabled={index === steps.length - 1}
              >
                Move down
              </button>
              <button type="button" className="btn small danger" onClick={onRemove}>
                Remove step
              </button>
            </div>
          </div>
        )}
      </div>
    </li>
  );
}

function Input({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: every caller passes the control as children
    <label className="field">
      <span>{label}</span>
      {children}
      {hint && !error && <span className="hint">{hint}</span>}
      {error && <span className="field-error">{error}</span>}
    </label>
  );
}

function StepFields({
  step,
  steps,
  set,
  templates,
  problems,
}: {
  step: Step;
  steps: Step[];
  set: (p: Record<string, unknown>) => void;
  templates: Template[];
  problems: Record<string, string>;
}) {
  const s = step as Record<string, unknown>;
  switch (step.type) {
    case 'send_template': {
      const t = s.template as { name: string; language: string } & Values;
      const chosen = templates.find((x) => x.name === t.name && x.language === t.language);
      const approved = templates.filter((x) => x.status === 'APPROVED');
      return (
        <>
          <Input
            label="Template"
            hint={approved.length === 0 ? 'No approved templates yet: sync them under Templates.' : undefined}
          >
            <select
              value={chosen ? chosen.id : ''}
              onChange={(e) => {
                const x = templates.find((y) => y.id === e.target.value);
                if (x) set({ template: { name: x.name, language: x.language, ...emptyValues(x) } });
              }}
            >
              <option value="">{t.name ? `${t.name} (${t.language})` : 'Choose…'}</option>
              {approved.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name} ({x.language})
                </option>
              ))}
            </select>
          </Input>
          {problems.template && <p className="field-error">{problems.template}</p>}
          {chosen && (
            <TemplateValues
              template={chosen}
              value={t}
              hint={PLACEHOLDER_HINT}
              errors={problems}
              onChange={(v) => set({ template: { ...v, name: t.name, language: t.language } })}
            />
          )}
        </>
      );
    }
    case 'send_text':
      return (
        <Input label="Text" hint={PLACEHOLDER_HINT} error={problems.text}>
          <textarea rows={3} value={String(s.text ?? '')} onChange={(e) => set({ text: e.target.value })} />
        </Input>
      );
    case 'send_message':
      return (
        <RichMessageFields
          message={s.message as RichMessage}
          problems={problems}
          onChange={(message) => set({ message })}
        />
      );
    case 'wait': {
      const m = /^(\d+)([smhd])$/.exec(String(s.duration ?? '1h')) ?? ['', '1', 'h'];
      return (
        <div className="grid-fields">
          <Input label="Wait for" error={problems.duration}>
            <input
              type="number"
              min={1}
              max={999999}
              value={m[1]}
              onChange={(e) => set({ duration: `${e.target.value || 1}${m[2]}` })}
            />
          </Input>
          <Input label="Unit">
            <select value={m[2]} onChange={(e) => set({ duration: `${m[1]}${e.target.value}` })}>
              <option value="s">seconds</option>
              <option value="m">minutes</option>
              <option value="h">hours</option>
              <option value="d">days</option>
            </select>
          </Input>
        </div>
      );
    }
    case 'add_tag':
    case 'remove_tag':
      return (
        <Input label="Tag" error={problems.tag}>
          <input value={String(s.tag ?? '')} maxLength={64} onChange={(e) => set({ tag: e.target.value })} />
        </Input>
      );
    case 'set_trait':
      return (
        <div className="grid-fields">
          <Input label="Trait" error={problems.key}>
            <input
              value={String(s.key ?? '')}
              maxLength={64}
              onChange={(e) => set({ key: e.target.value })}
            />
          </Input>
          <Input label="Value" hint="Placeholders allowed." error={problems.value}>
            <input value={String(s.value ?? '')} onChange={(e) => set({ value: e.target.value })} />
          </Input>
        </div>
      );
    case 'condition': {
      const c = s.if as Check | HoursCheck | { all?: Check[]; any?: Check[] };
      if ('inside_business_hours' in c) {
        return (
          <div className="grid-fields">
            <ConditionOn check={c} onChange={(next) => set({ if: next })} />
            <HoursCheckFields
              check={c}
              error={problems['if.inside_business_hours']}
              onChange={(next) => set({ if: next })}
            />
          </div>
        );
      }
      if (!('field' in c)) {
        return (
          <p className="small muted">This condition combines several checks; edit it through the API.</p>
        );
      }
      const needsValue = c.op !== 'exists' && c.op !== 'not_exists';
      return (
        <div className="grid-fields">
          <ConditionOn check={c} onChange={(next) => set({ if: next })} />
          <Input label="Field" hint={FIELD_HINT} error={problems['if.field']}>
            <input value={c.field} onChange={(e) => set({ if: { ...c, field: e.target.value } })} />
          </Input>
          <Input label="Check">
            <select
              value={c.op}
              onChange={(e) => {
                const op = e.target.value;
                const next: Check = { field: c.field, op };
                if (op !== 'exists' && op !== 'not_exists') next.value = c.value ?? '';
                set({ if: next });
              }}
            >
              {OPS.map(([op, label]) => (
                <option key={op} value={op}>
                  {label}
                </option>
              ))}
            </select>
          </Input>
          {needsValue && (
            <Input label="Value" error={problems['if.value']}>
              <input value={c.value ?? ''} onChange={(e) => set({ if: { ...c, value: e.target.value } })} />
            </Input>
          )}
        </div>
      );
    }
    case 'http_request':
      return (
        <>
          <div className="grid-fields">
            <Input label="Method" error={problems.method}>
              <select value={String(s.method ?? 'POST')} onChange={(e) => set({ method: e.target.value })}>
                {['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </Input>
            <Input label="URL" hint="Placeholders allowed." error={problems.url}>
              <input value={String(s.url ?? '')} onChange={(e) => set({ url: e.target.value })} />
            </Input>
          </div>
          <Input label="Body (optional)" error={problems.body}>
            <textarea
              rows={3}
              className="mono"
              value={String(s.body ?? '')}
              // An empty body is left out (JSON drops undefined).
              onChange={(e) => set({ body: e.target.value || undefined })}
            />
          </Input>
        </>
      );
    case 'ask':
      return <AskFields step={step} steps={steps} set={set} problems={problems} />;
    case 'assign':
      return <AssignFields step={step} set={set} problems={problems} />;
    case 'resolve':
      return <p className="small muted">The conversation is marked resolved; the run goes on.</p>;
    case 'update_lead_status':
      return (
        <Input label="New status" error={problems.status}>
          <select value={String(s.status)} onChange={(e) => set({ status: e.target.value })}>
            {LEAD_STATUSES.map((x) => (
              <option key={x}>{x}</option>
            ))}
          </select>
        </Input>
      );
  }
}

/** The step's id, which placeholders name (`{{steps.<id>.answer}}`): renamed when the field is left. */
function StepIdField({ steps, id, onRename }: { steps: Step[]; id: string; onRename: (id: string) => void }) {
  const [value, setValue] = useState(id);
  const problem = stepIdProblem(steps, id, value.trim());
  const commit = () => {
    if (!problem && value.trim() !== id) onRename(value.trim());
  };
  return (
    <label className="field">
      <span>Step id (placeholders read it: {`{{steps.${id}.answer}}`})</span>
      <input
        value={value}
        maxLength={40}
        aria-invalid={problem ? true : undefined}
        onChange={(e) => setValue(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
      />
      {problem && <span className="field-error">{problem}</span>}
    </label>
  );
}
