import { MemberOptions, useMembers } from '../../members';
import { Field } from '../../ui';
import type { Step } from './model';

/** An assign step: a member or the unassigned queue, then the run ends or waits to be handed back. */
export function AssignFields({
  step,
  set,
  problems,
}: {
  step: Step;
  set: (patch: Record<string, unknown>) => void;
  problems: Record<string, string>;
}) {
  const members = useMembers();
  const to = (step.to as string | null | undefined) ?? null;
  // An assign that ends the run goes nowhere after it: its link goes with it.
  const setThen = (value: string) => {
    const patch: Record<string, unknown> = value === 'end' ? { next: undefined } : {};
    // biome-ignore lint/suspicious/noThenProperty: the definition names the field `then` (docs/automation.md)
    patch.then = value;
    set(patch);
  };
  return (
    <div className="grid-fields">
      <Field label="Hand the conversation to" error={problems.to}>
        {(id) => (
          <select id={id} value={to ?? ''} onChange={(e) => set({ to: e.target.value || null })}>
            <option value="">The unassigned queue</option>
            <MemberOptions members={members} current={to} />
          </select>
        )}
      </Field>
      <Field label="Then the bot" error={problems.then}>
        {(id) => (
          <select id={id} value={String(step.then ?? 'end')} onChange={(e) => setThen(e.target.value)}>
            <option value="end">ends its run</option>
            <option value="wait">waits until a teammate hands the conversation back, then goes on</option>
          </select>
        )}
      </Field>
    </div>
  );
}
