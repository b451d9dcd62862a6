import { Field, InputField } from '../../ui/Field';
import { LIMITS, type SectionProps, variablesOf } from './draft';

/** The body's text and a sample for each of its variables, numbered or named. */
export function BodyFields({ draft, errors, onChange }: SectionProps) {
  const named = draft.parameterFormat === 'NAMED';
  const vars = errors.body ? [] : variablesOf(draft.body);
  if (!named) vars.sort((a, b) => Number(a) - Number(b));
  return (
    <fieldset className="editor-section">
      <legend>Body</legend>
      <Field
        label="Message text"
        hint={`Up to ${LIMITS.body} characters. Mark values with ${named ? '{{first_name}}, {{order_id}}' : '{{1}}, {{2}}'}; *bold* shows bold.`}
        error={errors.body}
      >
        {(id) => (
          <textarea
            id={id}
            rows={5}
            value={draft.body}
            onChange={(e) => onChange({ ...draft, body: e.target.value })}
          />
        )}
      </Field>
      {vars.length > 0 && (
        <div className="grid-fields">
          {vars.map((v) => (
            <InputField
              key={v}
              label={`Sample for {{${v}}}`}
              error={errors[`examples.${v}`]}
              value={draft.examples[v] ?? ''}
              onChange={(e) => onChange({ ...draft, examples: { ...draft.examples, [v]: e.target.value } })}
            />
          ))}
        </div>
      )}
    </fieldset>
  );
}
