import { useEffect, useState } from 'react';
import { api, invalidate, useApi } from '../../api';
import { ConfirmButton } from '../../confirm';
import { useMembers } from '../../members';
import type { RoutingAnswer, RoutingTeam, RoutingTeamList } from '../../server-types';
import { useSession } from '../../session';
import { Badge } from '../../ui/Badge';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { Field, InputField } from '../../ui/Field';
import { Loading } from '../../ui/Loading';
import { SaveButton } from '../../ui/SaveButton';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';

/** A whole number as a number; anything else as typed, for the server to say what is wrong with it. */
const numberOf = (typed: string) => (/^\s*\d+\s*$/.test(typed) ? Number(typed) : typed.trim());

/** Settings › Teams and assignment: teams with who is available in them, and who gets new conversations. */
export function TeamsSettings() {
  const { session } = useSession();
  const teams = useApi<RoutingTeamList>('/teams');
  if (teams.error && !teams.data) return <ErrorNote message={teams.error} onRetry={teams.reload} />;
  if (!teams.data) return <Loading />;
  const list = teams.data.teams;
  return (
    <div className="stack">
      <AutoAssignCard teams={list} readOnly={!session.can_manage} />
      {list.map((t) => (
        <TeamCard key={t.id} team={t} readOnly={!session.can_manage} />
      ))}
      {list.length === 0 && <p className="muted">No teams yet.</p>}
      {session.can_manage && <TeamForm />}
    </div>
  );
}

function AutoAssignCard({ teams, readOnly }: { teams: RoutingTeam[]; readOnly: boolean }) {
  const routing = useApi<RoutingAnswer>('/routing');
  const [form, setForm] = useState<{ team: string; idle: string } | null>(null);
  const [saved, setSaved] = useState(false);
  const { busy, error, fieldErrors, run } = useAction();
  useEffect(() => {
    const r = routing.data?.routing;
    if (r) setForm({ team: r.auto_assign_team_id ?? '', idle: String(r.idle_minutes) });
  }, [routing.data]);
  if (routing.error && !routing.data) return <ErrorNote message={routing.error} onRetry={routing.reload} />;
  if (!form) return <Loading />;
  const save = () =>
    run(async () => {
      await api('PUT', '/routing', {
        auto_assign_team_id: form.team || null,
        idle_minutes: numberOf(form.idle),
      });
      await invalidate('/routing');
      setSaved(true);
    });
  const edit = (patch: Partial<typeof form>) => {
    setForm({ ...form, ...patch });
    setSaved(false);
  };
  return (
    <Card
      title="Automatic assignment"
      description="A new conversation goes to the team's available members in turn: online, seen in the app lately, and under the team's limit of open conversations. When nobody is, it waits in the team, unassigned, and is tried again at the customer's next message. Bots answer first: a conversation a bot holds is not assigned."
    >
      <form className="stack narrow" onSubmit={submitHandler(save)}>
        <Field label="New conversations go to" error={fieldErrors.auto_assign_team_id}>
          {(id) => (
            <select
              id={id}
              value={form.team}
              disabled={readOnly}
              onChange={(e) => edit({ team: e.target.value })}
            >
              <option value="">Nobody (the unassigned queue)</option>
              {teams.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <InputField
          label="Away after this many idle minutes"
          hint="Someone online who has not had the app open for this long counts as away (1 to 1440)."
          error={fieldErrors.idle_minutes}
          inputMode="numeric"
          className="days-input"
          value={form.idle}
          disabled={readOnly}
          onChange={(e) => edit({ idle: e.target.value })}
        />
        {error && !Object.keys(fieldErrors).length && <ErrorNote message={error} />}
        {readOnly ? (
          <p className="small muted">Only owners and admins can change these.</p>
        ) : (
          <div className="row">
            <SaveButton busy={busy} saved={saved}>
              {busy ? 'Saving…' : 'Save assignment'}
            </SaveButton>
          </div>
        )}
      </form>
    </Card>
  );
}

function TeamCard({ team, readOnly }: { team: RoutingTeam; readOnly: boolean }) {
  const [editing, setEditing] = useState(false);
  if (editing) return <TeamForm team={team} onDone={() => setEditing(false)} />;
  const cap = team.max_open_per_member;
  return (
    <section className="card" aria-label={`Team ${team.name}`}>
      <div className="row wrap">
        <h3>{team.name}</h3>
        <span className="small muted">
          {cap === null ? 'No limit of open conversations' : `Up to ${cap} open conversations each`}
        </span>
      </div>
      {team.members.length === 0 ? (
        <p className="muted small">No members yet.</p>
      ) : (
        <ul className="team-members">
          {team.members.map((m) => (
            <li key={m.id} className="row" data-testid="team-member">
              <span>{m.name || m.email}</span>
              <Badge tone={m.available ? 'green' : 'amber'}>
                {m.availability === 'away' ? 'Away' : m.available ? 'Available' : 'Idle'}
              </Badge>
              <span className="small muted">
                {m.open_count} open{cap !== null && m.open_count >= cap ? ' (full)' : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      {!readOnly && (
        <div className="row">
          <button type="button" className="btn small" onClick={() => setEditing(true)}>
            Edit {team.name}
          </button>
          <ConfirmButton
            label={`Delete ${team.name}`}
            title={`Delete the team ${team.name}?`}
            confirmLabel="Delete team"
            danger
            small
            onConfirm={async () => {
              await api('DELETE', `/teams/${team.id}`);
              await invalidate('/routing');
            }}
          >
            Its conversations keep their assignees and leave the team; if new conversations go to it, they go
            to nobody instead.
          </ConfirmButton>
        </div>
      )}
    </section>
  );
}

/** A new team, or the changes to one. */
function TeamForm({ team, onDone }: { team?: RoutingTeam; onDone?: () => void }) {
  const members = useMembers();
  const [name, setName] = useState(team?.name ?? '');
  const [cap, setCap] = useState(team?.max_open_per_member == null ? '' : String(team.max_open_per_member));
  const [chosen, setChosen] = useState<string[]>(team?.members.map((m) => m.id) ?? []);
  const { busy, error, fieldErrors, run } = useAction();
  const save = () =>
    run(async () => {
      const body = {
        name,
        max_open_per_member: cap.trim() === '' ? null : numberOf(cap),
        member_ids: chosen,
      };
      if (team) await api('PATCH', `/teams/${team.id}`, body);
      else await api('POST', '/teams', body);
      setName('');
      setCap('');
      setChosen([]);
      onDone?.();
    });
  const toggle = (id: string, on: boolean) =>
    setChosen(on ? [...chosen, id] : chosen.filter((x) => x !== id));
  return (
    <Card title={team ? `Edit ${team.name}` : 'New team'}>
      <form className="stack narrow" onSubmit={submitHandler(save)}>
        <InputField
          label="Team name"
          error={fieldErrors.name}
          required
          maxLength={80}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <InputField
          label="Most open conversations per member"
          hint="Open and pending conversations one member holds before others get the new ones (1 to 1000). Empty: no limit."
          error={fieldErrors.max_open_per_member}
          inputMode="numeric"
          className="days-input"
          value={cap}
          onChange={(e) => setCap(e.target.value)}
        />
        <fieldset className="stack">
          <legend>Members</legend>
          {members.map((m) => (
            <label key={m.id} className="check">
              <input
                type="checkbox"
                checked={chosen.includes(m.id)}
                onChange={(e) => toggle(m.id, e.target.checked)}
              />{' '}
              {m.name || m.email}
            </label>
          ))}
          {fieldErrors.member_ids && <p className="field-error">{fieldErrors.member_ids}</p>}
        </fieldset>
        {error && !Object.keys(fieldErrors).length && <ErrorNote message={error} />}
        <div className="row">
          <button type="submit" className="btn primary" disabled={busy}>
            {team ? 'Save team' : 'Create team'}
          </button>
          {onDone && (
            <button type="button" className="btn ghost" onClick={onDone}>
              Cancel
            </button>
          )}
        </div>
      </form>
    </Card>
  );
}
