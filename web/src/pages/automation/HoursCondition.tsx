import { Field } from '../../ui/Field';
import type { Check, HoursCheck } from './model';

type Single = Check | HoursCheck;

/** What a single-check condition reads: a field of the run, or the workspace's business hours. */
export function ConditionOn({ check, onChange }: { check: Single; onChange: (c: Single) => void }) {
  const hours = 'inside_business_hours' in check;
  return (
    <Field label="Condition on">
      {(id) => (
        <select
          id={id}
          value={hours ? 'hours' : 'field'}
          onChange={(e) =>
            onChange(
              e.target.value === 'hours'
                ? { inside_business_hours: true }
                : { field: 'contact.tags', op: 'contains', value: '' },
            )
          }
        >
          <option value="field">a contact, event or lead value</option>
          <option value="hours">business hours (Settings › Business hours)</option>
        </select>
      )}
    </Field>
  );
}

/** Inside or outside business hours, read when the step runs. */
export function HoursCheckFields({
  check,
  error,
  onChange,
}: {
  check: HoursCheck;
  error?: string;
  onChange: (c: HoursCheck) => void;
}) {
  return (
    <Field
      label="When the step runs, it is"
      hint="In the workspace's time zone; no schedule set counts as always inside."
      error={error}
    >
      {(id) => (
        <select
          id={id}
          value={check.inside_business_hours ? 'inside' : 'outside'}
          onChange={(e) => onChange({ inside_business_hours: e.target.value === 'inside' })}
        >
          <option value="inside">inside business hours</option>
          <option value="outside">outside business hours</option>
        </select>
      )}
    </Field>
  );
}
