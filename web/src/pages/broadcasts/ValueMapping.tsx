import { Field, InputField } from '../../ui/Field';
import type { Template } from '../templates/types';
import { sentence } from '../templates/values';
import { LIMITS } from './limits';
import { blankMapping, type Mapping, type Part, problemAt, unsupported } from './mapping';

type From = 'text' | 'trait' | 'name' | 'phone' | 'email';

const FROM: { value: From; label: string }[] = [
  { value: 'name', label: 'Contact’s name' },
  { value: 'phone', label: 'Contact’s phone' },
  { value: 'email', label: 'Contact’s e-mail' },
  { value: 'trait', label: 'A trait' },
  { value: 'text', label: 'The same text for everyone' },
];

const fromOf = (m: Mapping): From => (m.from === 'contact' ? m.field : (m.from as From));

function switchTo(m: Mapping, from: From): Mapping {
  const fallback = m.from === 'contact' || m.from === 'trait' ? m.fallback : undefined;
  if (from === 'text') return { from: 'text', text: m.from === 'text' ? m.text : '' };
  if (from === 'trait') return { from: 'trait', key: m.from === 'trait' ? m.key : '', fallback };
  return { from: 'contact', field: from, fallback };
}

interface Props {
  template: Template;
  parts: Part[];
  value: Record<string, Mapping>;
  onChange: (v: Record<string, Mapping>) => void;
  /** The form's own problems by part key, and the server's by the field it names. */
  problems: Record<string, string>;
  serverErrors: Record<string, string>;
}

/** Each value the template needs, mapped from a contact field, a trait or fixed text, with a fallback. */
export function ValueMapping({ template, parts, value, onChange, problems, serverErrors }: Props) {
  if (parts.length === 0) return <p className="small muted">This template needs no values.</p>;
  const firstBody = parts.find((p) => p.key.startsWith('body:'))?.key;
  return (
    <div className="stack">
      {parts.map((p) => {
        const m = value[p.key] ?? blankMapping(p);
        const set = (next: Mapping) => onChange({ ...value, [p.key]: next });
        const server =
          problemAt(serverErrors, p.fields) ??
          (p.key === firstBody ? serverErrors['values.body'] : undefined);
        const error = problems[p.key] ?? (server && sentence(server));
        if (m.from === 'link')
          return (
            <InputField
              key={p.key}
              label={p.label}
              hint="An https:// address WhatsApp can download; every recipient gets the same file."
              error={error}
              placeholder="https://…"
              maxLength={LIMITS.link}
              value={m.link}
              onChange={(e) => set({ from: 'link', link: e.target.value })}
            />
          );
        return (
          <fieldset key={p.key} className="editor-section mapping">
            <legend>{p.label}</legend>
            <div className="grid-fields">
              <Field label="Fill with">
                {(id) => (
                  <select
                    id={id}
                    value={fromOf(m)}
                    onChange={(e) => set(switchTo(m, e.target.value as From))}
                  >
                    {FROM.map((f) => (
                      <option key={f.value} value={f.value}>
                        {f.label}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              {m.from === 'text' && (
                <InputField
                  label="Text"
                  error={error}
                  maxLength={LIMITS.text}
                  value={m.text}
                  onChange={(e) => set({ ...m, text: e.target.value })}
                />
              )}
              {m.from === 'trait' && (
                <InputField
                  label="Trait name"
                  hint="As the contact's traits name it, e.g. city"
                  error={error}
                  maxLength={LIMITS.traitKey}
                  value={m.key}
                  onChange={(e) => set({ ...m, key: e.target.value })}
                />
              )}
              {m.from !== 'text' && (
                <InputField
                  label="When it is empty"
                  hint="Sent to contacts without one; left blank, they are skipped."
                  error={m.from === 'contact' ? error : undefined}
                  maxLength={LIMITS.text}
                  value={m.fallback ?? ''}
                  onChange={(e) => set({ ...m, fallback: e.target.value })}
                />
              )}
            </div>
          </fieldset>
        );
      })}
      {unsupported(template) && (
        <p className="field-error">A template with a location header cannot be broadcast: choose another.</p>
      )}
    </div>
  );
}
