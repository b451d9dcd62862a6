import { useApi } from './api';
import type { Team } from './server-types';

type Member = Team['members'][number];

/** The workspace's members, for a picker of who owns or handles something. */
export const useMembers = (): Member[] => useApi<Team>('/team').data?.members ?? [];

/**
 * An option per member, and one for an id not among them (a removed member, a link's filter),
 * named `name` when the server gave it.
 */
export function MemberOptions({
  members,
  current,
  name,
}: {
  members: Member[];
  current: string | null;
  name?: string | null;
}) {
  return (
    <>
      {members.map((m) => (
        <option key={m.id} value={m.id}>
          {m.name || m.email}
        </option>
      ))}
      {current && current !== 'none' && !members.some((m) => m.id === current) && (
        <option value={current}>{name || 'A former member'}</option>
      )}
    </>
  );
}
