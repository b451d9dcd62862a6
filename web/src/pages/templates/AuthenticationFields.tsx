import { InputField } from '../../ui/Field';
import type { SectionProps } from './draft';

/** An authentication template: WhatsApp's preset text, so only its options. */
export function AuthenticationFields({ draft, errors, onChange }: SectionProps) {
  return (
    <fieldset className="editor-section">
      <legend>One-time code</legend>
      <p className="small muted">
        WhatsApp writes the text of authentication templates itself (“123456 is your verification code.”),
        with a button that copies the code. Each send gives the code.
      </p>
      <label className="check">
        <input
          type="checkbox"
          checked={draft.security}
          onChange={(e) => onChange({ ...draft, security: e.target.checked })}
        />
        Add the security advice (“For your security, do not share this code.”)
      </label>
      <InputField
        label="Code expires after (minutes)"
        hint="1 to 90; leave empty for no expiry note."
        error={errors.expiry ?? errors.body ?? errors.components}
        inputMode="numeric"
        value={draft.expiry}
        onChange={(e) => onChange({ ...draft, expiry: e.target.value })}
      />
    </fieldset>
  );
}
