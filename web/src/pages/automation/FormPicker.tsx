import { useApi } from '../../api';

/** The form a "form submitted" trigger listens to, chosen by name; a form since archived stays named. */
export function FormPicker({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (id?: string) => void;
}) {
  const forms = useApi<{ forms: { id: string; name: string; active: boolean }[] }>('/forms');
  const archived = useApi<{ forms: { id: string; name: string }[] }>('/forms?archived=true');
  const known = forms.data?.forms ?? [];
  const gone = archived.data?.forms.find((f) => f.id === value);
  // Only once both lists are in: before that every form would look gone.
  const loaded = forms.data !== null && archived.data !== null;
  const missing = loaded && value && !known.some((f) => f.id === value) && !gone;
  return (
    <label className="field">
      <span>Form</span>
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">any form</option>
        {known.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
            {f.active ? '' : ' (draft)'}
          </option>
        ))}
        {gone && <option value={gone.id}>{gone.name} (archived)</option>}
        {missing && <option value={value}>a form that no longer exists</option>}
      </select>
    </label>
  );
}
