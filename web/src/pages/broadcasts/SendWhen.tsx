import { Choice } from '../../ui/Choice';
import { InputField } from '../../ui/Field';
import { nowIn } from './zoned-time';

export interface When {
  later: boolean;
  /** A `datetime-local` value, on the workspace's wall clock. */
  at: string;
}

/** Now, or a date and time on the workspace's clock (its zone named). */
export function SendWhen({
  value,
  onChange,
  timeZone,
  error,
}: {
  value: When;
  onChange: (v: When) => void;
  timeZone: string;
  error?: string;
}) {
  return (
    <div className="stack">
      <Choice
        legend="When"
        name="send-when"
        options={[
          { value: 'now', label: 'Now' },
          { value: 'later', label: 'Later' },
        ]}
        value={value.later ? 'later' : 'now'}
        onChange={(v) => onChange({ ...value, later: v === 'later' })}
      />
      {value.later && (
        <InputField
          label={`Send at (${timeZone})`}
          hint={`On the workspace's clock: ${timeZone}, where it is now ${nowIn(timeZone).replace('T', ' ')}.`}
          type="datetime-local"
          error={error}
          value={value.at}
          onChange={(e) => onChange({ ...value, at: e.target.value })}
        />
      )}
    </div>
  );
}
