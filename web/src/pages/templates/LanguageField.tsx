import { useState } from 'react';
import { TEMPLATE_LANGUAGES, templateLanguageName } from '../../../../src/lib/template-languages';
import { Field } from '../../ui/Field';

/** Meta's template languages by name, narrowed by what is typed in the search box above them. */
export function LanguageField({
  value,
  error,
  onChange,
}: {
  value: string;
  error?: string;
  onChange: (code: string) => void;
}) {
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const found = TEMPLATE_LANGUAGES.filter(
    (l) => !q || l.name.toLowerCase().includes(q) || l.code.toLowerCase().includes(q),
  );
  // The chosen language stays an option while the search hides it, so the select shows the truth.
  const options = found.some((l) => l.code === value)
    ? found
    : [{ code: value, name: templateLanguageName(value) }, ...found];
  return (
    <Field label="Language" error={error} hint="The language WhatsApp shows the template in.">
      {(id) => (
        <div className="language-picker">
          <input
            type="search"
            aria-label="Search languages"
            placeholder="Search languages"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
            {options.map((l) => (
              <option key={l.code} value={l.code}>
                {l.name} · {l.code}
              </option>
            ))}
          </select>
        </div>
      )}
    </Field>
  );
}
