import { InputField } from '../../ui/Field';
import { type ButtonType, type Draft, type DraftButton, LIMITS, type SectionProps } from './draft';

const KINDS: { type: ButtonType; label: string }[] = [
  { type: 'QUICK_REPLY', label: 'Quick reply' },
  { type: 'URL', label: 'Website link' },
  { type: 'PHONE_NUMBER', label: 'Call a number' },
  { type: 'COPY_CODE', label: 'Copy offer code' },
];

/** Why a kind of button cannot be added, in words; null when it can. */
function addBlocked(draft: Draft, type: ButtonType): string | null {
  if (draft.buttons.length >= LIMITS.buttons) return `A template has at most ${LIMITS.buttons} buttons.`;
  const count = draft.buttons.filter((b) => b.type === type).length;
  if (count >= LIMITS.perType[type]) return `At most ${LIMITS.perType[type]} of this kind.`;
  if (type === 'COPY_CODE' && draft.category !== 'MARKETING') return 'Only marketing templates have it.';
  return null;
}

/** Buttons: added by kind, quick replies kept together as WhatsApp requires. */
export function ButtonsFields({ draft, errors, onChange }: SectionProps) {
  const setButtons = (buttons: DraftButton[]) => onChange({ ...draft, buttons });
  const add = (type: ButtonType) => {
    const key = Math.max(0, ...draft.buttons.map((b) => b.key)) + 1;
    const button: DraftButton = {
      key,
      type,
      text: '',
      target: type === 'URL' ? 'https://' : '',
      example: '',
    };
    // A new button joins its group: quick replies after the last quick reply, others after the last other.
    const quick = type === 'QUICK_REPLY';
    const last = draft.buttons.findLastIndex((b) => (b.type === 'QUICK_REPLY') === quick);
    const at = last >= 0 ? last + 1 : draft.buttons.length;
    setButtons([...draft.buttons.slice(0, at), button, ...draft.buttons.slice(at)]);
  };
  const update = (i: number, patch: Partial<DraftButton>) =>
    setButtons(draft.buttons.map((b, j) => (j === i ? { ...b, ...patch } : b)));
  return (
    <fieldset className="editor-section">
      <legend>Buttons</legend>
      {errors.buttons && <p className="field-error">{errors.buttons}</p>}
      {draft.buttons.map((b, i) => {
        const at = `buttons.${i}`;
        const kind = KINDS.find((k) => k.type === b.type)!.label;
        const dynamic = b.type === 'URL' && /\{\{\s*1\s*\}\}/.test(b.target);
        return (
          <fieldset key={b.key} className="button-editor">
            <legend className="small">
              Button {i + 1}: {kind}
            </legend>
            <div className="grid-fields">
              {b.type !== 'COPY_CODE' && (
                <InputField
                  label="Button label"
                  error={errors[`${at}.text`]}
                  maxLength={LIMITS.buttonText + 10}
                  value={b.text}
                  onChange={(e) => update(i, { text: e.target.value })}
                />
              )}
              {b.type === 'URL' && (
                <InputField
                  label="Web address"
                  hint="End it with {{1}} to add a different ending to each send."
                  error={errors[`${at}.target`]}
                  value={b.target}
                  onChange={(e) => update(i, { target: e.target.value })}
                />
              )}
              {dynamic && (
                <InputField
                  label="Sample ending for {{1}}"
                  error={errors[`${at}.example`]}
                  value={b.example}
                  onChange={(e) => update(i, { example: e.target.value })}
                />
              )}
              {b.type === 'PHONE_NUMBER' && (
                <InputField
                  label="Phone number"
                  hint="With the country code, like +14155550123."
                  error={errors[`${at}.target`]}
                  value={b.target}
                  type="tel"
                  onChange={(e) => update(i, { target: e.target.value })}
                />
              )}
              {b.type === 'COPY_CODE' && (
                <InputField
                  label="Sample offer code"
                  hint={`Up to ${LIMITS.code} characters; each send gives its own code.`}
                  error={errors[`${at}.example`]}
                  value={b.example}
                  onChange={(e) => update(i, { example: e.target.value })}
                />
              )}
            </div>
            <button
              type="button"
              className="btn small ghost button-remove"
              onClick={() => setButtons(draft.buttons.filter((_, j) => j !== i))}
            >
              Remove <span className="sr-only">button {i + 1}</span>
            </button>
          </fieldset>
        );
      })}
      <div className="row wrap">
        {KINDS.map((k) => {
          const blocked = addBlocked(draft, k.type);
          return (
            <button
              key={k.type}
              type="button"
              className="btn small"
              onClick={() => add(k.type)}
              disabled={blocked !== null}
              title={blocked ?? undefined}
            >
              + {k.label}
            </button>
          );
        })}
      </div>
      <p className="hint">
        Up to {LIMITS.buttons} buttons: {LIMITS.perType.URL} website links, one call button and one copy-code
        button at most.
      </p>
    </fieldset>
  );
}
