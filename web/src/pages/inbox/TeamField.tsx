import { useId } from 'react';
import { api, useApi } from '../../api';
import type { Conversation, RoutingTeamList } from '../../server-types';
import { ErrorNote } from '../../ui/ErrorNote';
import { useAction } from '../../ui/use-action';

/** The conversation's team; choosing one gives it to that team's next available member in turn. */
export function TeamField({
  contactId,
  conversation,
  onChanged,
}: {
  contactId: string;
  conversation: Conversation['conversation'];
  onChanged: () => void;
}) {
  const teams = useApi<RoutingTeamList>('/teams').data?.teams ?? [];
  const { busy, error, run } = useAction();
  const id = useId();
  if (teams.length === 0 && !conversation.team_id) return null;
  const give = (teamId: string) =>
    run(async () => {
      await api('POST', `/conversations/${encodeURIComponent(contactId)}/team`, { team_id: teamId });
      onChanged();
    });
  return (
    <div className="inline-field">
      <label htmlFor={id} className="small muted">
        Team
      </label>
      <select
        id={id}
        value={conversation.team_id ?? ''}
        disabled={busy}
        onChange={(e) => void give(e.target.value)}
      >
        {!conversation.team_id && <option value="">No team</option>}
        {conversation.team_id && !teams.some((t) => t.id === conversation.team_id) && (
          <option value={conversation.team_id}>{conversation.team_name ?? 'A team'}</option>
        )}
        {teams.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
      {error && <ErrorNote message={error} />}
    </div>
  );
}
