import { Field, InputField } from '../../ui/Field';
import { type Draft, type HeaderFormat, LIMITS, type SectionProps, variablesOf } from './draft';
import { HeaderSampleField } from './HeaderSampleField';

const FORMATS: { id: HeaderFormat; label: string }[] = [
  { id: 'NONE', label: 'None' },
  { id: 'TEXT', label: 'Text' },
  { id: 'IMAGE', label: 'Image' },
  { id: 'VIDEO', label: 'Video' },
  { id: 'DOCUMENT', label: 'Document' },
  { id: 'LOCATION', label: 'Location' },
];

/** The header: none, a line of text with at most one variable, a media sample, or a location. */
export function HeaderFields({ draft, errors, onChange }: SectionProps) {
  const { header } = draft;
  const set = (patch: Partial<Draft['header']>) => onChange({ ...draft, header: { ...header, ...patch } });
  const variable = header.format === 'TEXT' ? variablesOf(header.text)[0] : undefined;
  return (
    <fieldset className="editor-section">
      <legend>Header</legend>
      <Field label="Header type" error={errors.header}>
        {(id) => (
          <select
            id={id}
            value={header.format}
            onChange={(e) =>
              set({ format: e.target.value as HeaderFormat, media: '', fileName: '', preview: '' })
            }
          >
            {FORMATS.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {header.format === 'TEXT' && (
        <InputField
          label="Header text"
          hint={`Up to ${LIMITS.header} characters, with at most one variable.`}
          error={errors['header.text']}
          value={header.text}
          onChange={(e) => set({ text: e.target.value })}
        />
      )}
      {variable !== undefined && !errors['header.text'] && (
        <InputField
          label={`Sample for {{${variable}}} in the header`}
          error={errors[`examples.${variable}`]}
          value={draft.examples[variable] ?? ''}
          onChange={(e) =>
            onChange({ ...draft, examples: { ...draft.examples, [variable]: e.target.value } })
          }
        />
      )}
      {['IMAGE', 'VIDEO', 'DOCUMENT'].includes(header.format) && (
        <HeaderSampleField
          key={header.format}
          header={header}
          error={errors['header.media']}
          onChange={set}
        />
      )}
      {header.format === 'LOCATION' && (
        <p className="small muted">Each send gives the place: its coordinates, name and address.</p>
      )}
    </fieldset>
  );
}
