import { Field } from '../../ui/Field';

/** A list's status filter: "All" or one status; choosing one goes back to the first page. */
export function StatusFilter({
  statuses,
  value,
  onChange,
}: {
  statuses: { value: string; label: string }[];
  value: string;
  onChange: (status: string) => void;
}) {
  return (
    <Field label="Status">
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">All</option>
          {statuses.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
