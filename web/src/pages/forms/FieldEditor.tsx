import { useEffect, useState } from 'react';
import { FIELD_LIMITS } from '../../../../src/lib/field-limits';
import { api } from '../../api';
import type { Form, FormField } from '../../server-types';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { SaveButton } from '../../ui/SaveButton';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';

type Editable = FormField & { key: string };

let nextKey = 0;

const editable = (fields: FormField[]): Editable[] => fields.map((f) => ({ ...f, key: `f${nextKey++}` }));

export function FieldEditor({ form, types }: { form: Form; types: string[] }) {
  const [fields, setFields] = useState<Editable[]>(() => editable(form.fields));
  const [name, setName] = useState(form.name);
  const [saved, setSaved] = useState(false);
  const save = useAction();
  useEffect(() => setFields(editable(form.fields)), [form.fields]);
  const set = (i: number, patch: Partial<FormField>) => {
    setSaved(false);
    setFields(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  };
  const move = (i: number, d: -1 | 1) => {
    const next = [...fields];
    const [f] = next.splice(i, 1);
    next.splice(i + d, 0, f!);
    setFields(next);
  };
  const add = () => {
    let n = fields.length + 1;
    while (fields.some((f) => f.name === `field_${n}`)) n++;
    setFields([
      ...fields,
      ...editable([{ name: `field_${n}`, label: 'New field', type: 'text', required: false }]),
    ]);
  };
  const submit = () =>
    save.run(async () => {
      await api('PATCH', `/forms/${form.id}`, { name, fields: fields.map(({ key: _, ...f }) => f) });
      setSaved(true);
    });
  return (
    <Card
      title="Fields"
      description="name, email and phone fill the lead's own fields; any other field is stored with the lead. A form needs an email or a phone field."
    >
      <form className="stack" onSubmit={submitHandler(submit)}>
        <label className="field narrow">
          <span>Form name</span>
          <input
            value={name}
            maxLength={FIELD_LIMITS.formName}
            aria-invalid={save.fieldErrors.name ? true : undefined}
            onChange={(e) => setName(e.target.value)}
          />
          {save.fieldErrors.name && <p className="field-error">{save.fieldErrors.name}</p>}
        </label>
        <ol className="field-list">
          {fields.map((f, i) => (
            <li key={f.key} className="field-row">
              <RowInput
                label="Label"
                value={f.label}
                maxLength={FIELD_LIMITS.formFieldLabel}
                error={save.fieldErrors[`fields.${i}.label`]}
                onChange={(label) => set(i, { label })}
              />
              <RowInput
                label="Key"
                mono
                value={f.name}
                maxLength={FIELD_LIMITS.formFieldName}
                error={save.fieldErrors[`fields.${i}.name`]}
                onChange={(name) => set(i, { name })}
              />
              <label className="field">
                <span>Type</span>
                <select
                  value={f.type}
                  onChange={(e) =>
                    set(i, {
                      type: e.target.value,
                      ...(e.target.value === 'select'
                        ? { options: f.options ?? ['Option 1'] }
                        : { options: undefined }),
                    })
                  }
                >
                  {types.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </select>
              </label>
              {f.type === 'select' && (
                <label className="field">
                  <span>Options (comma-separated)</span>
                  <input
                    value={(f.options ?? []).join(', ')}
                    onChange={(e) =>
                      set(i, {
                        options: e.target.value
                          .split(',')
                          .map((o) => o.trim())
                          .filter(Boolean),
                      })
                    }
                  />
                </label>
              )}
              <label className="check">
                <input
                  type="checkbox"
                  checked={f.required}
                  onChange={(e) => set(i, { required: e.target.checked })}
                />{' '}
                Required
              </label>
              <div className="row">
                <button
                  type="button"
                  className="btn small ghost"
                  aria-label={`Move ${f.label} up`}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="btn small ghost"
                  aria-label={`Move ${f.label} down`}
                  disabled={i === fields.length - 1}
                  onClick={() => move(i, 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="btn small danger"
                  aria-label={`Remove ${f.label}`}
                  onClick={() => setFields(fields.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ol>
        {save.error && <ErrorNote message={save.error} />}
        <div className="row wrap">
          <button type="button" className="btn" onClick={add}>
            Add field
          </button>
          <SaveButton busy={save.busy} saved={saved}>
            Save fields
          </SaveButton>
        </div>
      </form>
    </Card>
  );
}

/** One text input of a field row, with the server's error for it beside it. */
function RowInput(props: {
  label: string;
  value: string;
  maxLength: number;
  error: string | undefined;
  mono?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        className={props.mono ? 'mono' : undefined}
        value={props.value}
        maxLength={props.maxLength}
        aria-invalid={props.error ? true : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error && <p className="field-error">{props.error}</p>}
    </label>
  );
}
