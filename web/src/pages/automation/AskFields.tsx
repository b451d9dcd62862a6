import { Field, InputField } from '../../ui/Field';
import { type AskList, EXPECTS, type Option, type Step } from './model';

const PLACEHOLDERS = 'Placeholders such as {{contact.name | there}} are filled in for each contact.';
const MAX_BUTTONS = 3;
const MAX_ROWS = 10;

type Kind = 'buttons' | 'list' | 'free';

/** An option id not used yet in the step: what the customer's tap carries back. */
function newOptionId(options: Option[]): string {
  let n = options.length + 1;
  while (options.some((o) => o.id === `option_${n}`)) n++;
  return `option_${n}`;
}

/**
 * The fields of an ask step: the question, its answer (reply buttons, a list, or a free answer of a
 * kind), where the answer is saved, the retries and the timeout. `problems` by field inside the step.
 */
export function AskFields({
  step,
  steps,
  set,
  problems,
}: {
  step: Step;
  steps: Step[];
  set: (patch: Record<string, unknown>) => void;
  problems: Record<string, string>;
}) {
  const buttons = step.buttons as Option[] | undefined;
  const list = step.list as AskList | undefined;
  const kind: Kind = buttons ? 'buttons' : list ? 'list' : 'free';
  const others = steps.filter((s) => s.id !== step.id);
  const setKind = (k: Kind) =>
    set({
      buttons: k === 'buttons' ? [{ id: 'option_1', title: '' }] : undefined,
      list:
        k === 'list'
          ? { button: 'Choose', sections: [{ rows: [{ id: 'option_1', title: '' }] }] }
          : undefined,
      expect: undefined,
    });

  const optionRows = (
    options: Option[],
    path: (i: number) => string,
    max: number,
    onChange: (o: Option[]) => void,
  ) => (
    <>
      {options.map((o, i) => (
        <div key={o.id} className="ask-option">
          <InputField
            label={`${kind === 'buttons' ? 'Button' : 'Row'} ${i + 1}`}
            value={o.title}
            maxLength={kind === 'buttons' ? 20 : 24}
            error={problems[`${path(i)}.title`] ?? problems[path(i)]}
            aria-invalid={Boolean(problems[`${path(i)}.title`])}
            onChange={(e) => onChange(options.map((x, j) => (j === i ? { ...x, title: e.target.value } : x)))}
          />
          {kind === 'list' && (
            <InputField
              label={`Row ${i + 1} description (optional)`}
              value={o.description ?? ''}
              maxLength={72}
              error={problems[`${path(i)}.description`]}
              onChange={(e) =>
                onChange(
                  options.map((x, j) => (j === i ? { ...x, description: e.target.value || undefined } : x)),
                )
              }
            />
          )}
          <Field
            label={`${kind === 'buttons' ? 'Button' : 'Row'} ${i + 1} leads to`}
            error={problems[`${path(i)}.next`]}
          >
            {(id) => (
              <select
                id={id}
                value={o.next ?? ''}
                onChange={(e) =>
                  onChange(
                    options.map((x, j) => {
                      if (j !== i) return x;
                      const { next: _, ...rest } = x;
                      return e.target.value ? { ...rest, next: e.target.value } : rest;
                    }),
                  )
                }
              >
                <option value="">Where other answers go</option>
                {others.map((s) => (
                  <option key={s.id} value={s.id}>
                    Go to {s.id}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <button
            type="button"
            className="btn small"
            disabled={options.length === 1}
            onClick={() => onChange(options.filter((_, j) => j !== i))}
          >
            Remove {kind === 'buttons' ? 'button' : 'row'} {i + 1}
          </button>
        </div>
      ))}
      {options.length < max && (
        <button
          type="button"
          className="btn small"
          onClick={() => onChange([...options, { id: newOptionId(options), title: '' }])}
        >
          Add a {kind === 'buttons' ? 'button' : 'row'}
        </button>
      )}
    </>
  );

  const rows = list?.sections.flatMap((s) => s.rows) ?? [];
  return (
    <>
      <Field label="Question" hint={PLACEHOLDERS} error={problems.text}>
        {(id) => (
          <textarea
            id={id}
            rows={3}
            value={String(step.text ?? '')}
            aria-invalid={Boolean(problems.text)}
            onChange={(e) => set({ text: e.target.value })}
          />
        )}
      </Field>
      <div className="grid-fields">
        <Field label="Answers" error={problems.buttons ?? problems.list}>
          {(id) => (
            <select id={id} value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
              <option value="buttons">Reply buttons (up to 3)</option>
              <option value="list">A list (up to 10 rows)</option>
              <option value="free">Typed by the customer</option>
            </select>
          )}
        </Field>
        {kind === 'free' && (
          <Field label="Accept" error={problems.expect}>
            {(id) => (
              <select
                id={id}
                value={String(step.expect ?? 'text')}
                onChange={(e) => set({ expect: e.target.value === 'text' ? undefined : e.target.value })}
              >
                {EXPECTS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {kind === 'list' && list && (
          <InputField
            label="The list's button"
            value={list.button}
            maxLength={20}
            error={problems['list.button']}
            onChange={(e) => set({ list: { ...list, button: e.target.value } })}
          />
        )}
      </div>
      {kind === 'buttons' &&
        buttons &&
        optionRows(
          buttons,
          (i) => `buttons.${i}`,
          MAX_BUTTONS,
          (b) => set({ buttons: b }),
        )}
      {kind === 'list' &&
        list &&
        (list.sections.length > 1 ? (
          <p className="small muted">This list has several sections; edit it through the API.</p>
        ) : (
          optionRows(
            rows,
            (i) => `list.sections.0.rows.${i}`,
            MAX_ROWS,
            (r) => set({ list: { ...list, sections: [{ ...list.sections[0], rows: r }] } }),
          )
        ))}
      <div className="grid-fields">
        <InputField
          label="Save the answer to (optional)"
          hint="contact.traits.city, contact.name, contact.email or vars.city"
          value={String(step.save_to ?? '')}
          error={problems.save_to}
          onChange={(e) => set({ save_to: e.target.value || undefined })}
        />
        <InputField
          label="Wait for the answer (optional)"
          hint="e.g. 10m, 2h or 1d; 24h when empty"
          value={String(step.timeout ?? '')}
          error={problems.timeout}
          onChange={(e) => set({ timeout: e.target.value.trim() || undefined })}
        />
        <InputField
          label="Answers checked (optional)"
          hint="1 to 10; 3 when empty. Then the invalid branch."
          type="number"
          min={1}
          max={10}
          value={step.attempts === undefined ? '' : String(step.attempts)}
          error={problems.attempts}
          onChange={(e) => set({ attempts: e.target.value === '' ? undefined : Number(e.target.value) })}
        />
      </div>
      <InputField
        label="Sent on an invalid answer (optional)"
        hint="The question again when empty."
        value={String(step.retry_text ?? '')}
        error={problems.retry_text}
        onChange={(e) => set({ retry_text: e.target.value || undefined })}
      />
    </>
  );
}
