import type { ReactNode } from 'react';
import { Field, InputField } from '../../ui/Field';
import type { HeaderValue, Template, TemplateValues as Values } from './types';
import { component } from './types';
import { bodyFields, bodyValue, buttonLabel, headerLabel, sentence, TAKES_LABEL, urlBase } from './values';

interface Props {
  template: Template;
  value: Values;
  onChange: (v: Values) => void;
  /** Problems by the part the server names: `template.header`, `template.body.first_name`, `template.buttons[1]`. */
  errors?: Record<string, string>;
  /** A hint under the first field (a flow's placeholders). */
  hint?: ReactNode;
}

/**
 * The values a send of the template gives, one labelled field each: the header's, the body's variables
 * (by name, or by the words around them) and the buttons' that take one. `value` is the `template`
 * object of POST /api/v1/messages and of a send_template step, without its name and language.
 */
export function TemplateValues({ template: t, value, onChange, errors = {}, hint }: Props) {
  // A part's problem, or that of anything inside it (`template.header.link` for the header).
  const problem = (key: string) => {
    const found =
      errors[key] ??
      Object.entries(errors).find(([k]) => k.startsWith(`${key}.`) || k.startsWith(`${key}[`))?.[1];
    return found && sentence(found);
  };
  let hinted = false;
  const nextHint = () => {
    if (hinted) return undefined;
    hinted = true;
    return hint;
  };
  const header = value.header;
  const media = typeof header === 'object' ? header : {};
  const setHeader = (patch: HeaderValue) => onChange({ ...value, header: { ...media, ...patch } });
  const setBody = (key: string, text: string) => {
    if (Array.isArray(value.body))
      onChange({ ...value, body: value.body.map((v, i) => (i === Number(key) ? text : v)) });
    else onChange({ ...value, body: { ...value.body, [key]: text } });
  };
  const setButton = (
    index: number,
    takes: 'payload' | 'text' | 'coupon_code',
    text: string,
    required: boolean,
  ) => {
    const others = (value.buttons ?? []).filter((b) => b.index !== index);
    // An optional value left empty is left out: WhatsApp refuses empty parameters.
    const buttons = text || required ? [...others, { index, [takes]: text }] : others;
    onChange({ ...value, buttons: buttons.sort((a, b) => a.index - b.index) });
  };
  const headerText = component(t, 'HEADER')?.text ?? '';
  const format = t.header?.format ?? '';
  const auth = t.category === 'AUTHENTICATION';
  return (
    <div className="stack template-values">
      {t.header?.takes_value && format === 'TEXT' && (
        <InputField
          label={headerLabel(headerText)}
          hint={nextHint()}
          error={problem('template.header')}
          value={typeof header === 'string' ? header : ''}
          onChange={(e) => onChange({ ...value, header: e.target.value })}
        />
      )}
      {t.header?.takes_value && ['IMAGE', 'VIDEO', 'DOCUMENT'].includes(format) && (
        <div className="grid-fields">
          <InputField
            label={`Header ${format.toLowerCase()} link`}
            hint={nextHint() ?? 'An https:// address WhatsApp can download.'}
            error={problem('template.header')}
            placeholder="https://…"
            value={media.link ?? ''}
            onChange={(e) => setHeader({ link: e.target.value })}
          />
          {format === 'DOCUMENT' && (
            <InputField
              label="File name (optional)"
              value={media.filename ?? ''}
              onChange={(e) => {
                const { filename: _, ...rest } = media;
                onChange({ ...value, header: e.target.value ? { ...rest, filename: e.target.value } : rest });
              }}
            />
          )}
        </div>
      )}
      {t.header?.takes_value && format === 'LOCATION' && (
        <fieldset className="editor-section">
          <legend>Header location</legend>
          {problem('template.header') && <p className="field-error">{problem('template.header')}</p>}
          <div className="grid-fields">
            {(['latitude', 'longitude', 'name', 'address'] as const).map((k) => (
              <InputField
                key={k}
                label={
                  k === 'latitude' || k === 'longitude'
                    ? k[0]!.toUpperCase() + k.slice(1)
                    : `Place ${k} (optional)`
                }
                inputMode={k === 'latitude' || k === 'longitude' ? 'decimal' : undefined}
                value={String(media[k] ?? '')}
                onChange={(e) => setHeader({ [k]: e.target.value })}
              />
            ))}
          </div>
        </fieldset>
      )}
      {bodyFields(t).length > 0 && (
        <div className="grid-fields">
          {bodyFields(t).map((f, i) => (
            <InputField
              key={f.key}
              label={f.label}
              hint={nextHint() ?? (f.example ? `e.g. ${f.example}` : undefined)}
              error={
                problem(Array.isArray(value.body) ? `template.body[${f.key}]` : `template.body.${f.key}`) ??
                (i === 0 && errors['template.body'] ? sentence(errors['template.body']) : undefined)
              }
              value={bodyValue(value, f.key)}
              onChange={(e) => setBody(f.key, e.target.value)}
            />
          ))}
        </div>
      )}
      {!auth &&
        t.buttons
          .filter((b) => b.takes)
          .map((b) => {
            const takes = b.takes!;
            const given = value.buttons?.find((x) => x.index === b.index)?.[takes] ?? '';
            const label = `${TAKES_LABEL[takes]} for “${buttonLabel(t, b.index)}”${b.required ? '' : ' (optional)'}`;
            return (
              <Field
                key={b.index}
                label={label}
                hint={nextHint()}
                error={problem(`template.buttons[${b.index}]`)}
              >
                {(id) =>
                  takes === 'text' ? (
                    <div className="input-prefix">
                      <span className="mono small">{urlBase(t, b.index)}</span>
                      <input
                        id={id}
                        value={given}
                        onChange={(e) => setButton(b.index, takes, e.target.value, b.required)}
                      />
                    </div>
                  ) : (
                    <input
                      id={id}
                      value={given}
                      maxLength={takes === 'coupon_code' ? 15 : undefined}
                      onChange={(e) => setButton(b.index, takes, e.target.value, b.required)}
                    />
                  )
                }
              </Field>
            );
          })}
      {!t.header?.takes_value && bodyFields(t).length === 0 && !t.buttons.some((b) => b.takes) && (
        <p className="small muted">This template needs no values.</p>
      )}
    </div>
  );
}
