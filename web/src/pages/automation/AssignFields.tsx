import { useApi } from '../../api';
import { MemberOptions, useMembers } from '../../members';
import type { RoutingTeamList } from '../../server-types';
import { Field } from '../../ui/Field';
import type { Step } from './model';

/** An assign step: a member, a team (round robin) or the unassigned queue, then the run ends or waits to be handed back. */
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
  const teams = useApi<RoutingTeamList>('/teams').data?.teams ?? [];
  const to = (step.to as string | null | undefined) ?? null;
  const team = step.team as string | undefined;
  // A team is chosen as "team:<id>" in the one list; the definition keeps it in its own field.
  const choose = (value: string) =>
    set(
      value.startsWith('team:')
        ? { team: value.slice(5), to: undefined }
        : { to: value || null, team: undefined },
    );
  // An assign that ends the run goes nowhere after it: its link goes with it.
  const setThen = (value: string) => {
    const patch: Record<string, unknown> = value === 'end' ? { next: undefined } : {};
    // biome-ignore lint/suspicious/noThenProperty: the definition names the field `then` (docs/automation.md)
    patch.then = value;
    set(patch);
  };
  return (
    <div className="grid-fields">
      <Field label="Hand the conversation to" error={problems.to ?? problems.team}>
        {(id) => (
          <select id={id} value={team ? `team:${team}` : (to ?? '')} onChange={(e) => choose(e.target.value)}>
            <option value="">The unassigned queue</option>
            <optgroup label="A member">
              <MemberOptions members={members} current={to} />
            </optgroup>
            <optgroup label="A team: its available members in turn">
              {teams.map((t) => (
                <option key={t.id} value={`team:${t.id}`}>
                  {t.name}
                </option>
              ))}
              {team && !teams.some((t) => t.id === team) && (
                <option value={`team:${team}`}>A deleted team</option>
              )}
            </optgroup>
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
