import type { Queryable } from '../../src/db/db.js';
import type { Tenant } from './tenant.js';
import type { WallCase } from './tenant-wall.js';

type Wall = (a: Tenant, b: Tenant) => Promise<Omit<WallCase, 'a'>>;

const teams = new Map<Tenant, Promise<{ id: string; name: string }>>();
/** A team only A has, with A's second member in it. */
const teamOf = (x: Tenant) => {
  if (!teams.has(x))
    teams.set(
      x,
      (async () => {
        const member = await x.member();
        const res = await x.app('POST', '/teams', { name: `Team ${x.tag}`, member_ids: [member.userId] });
        if (res.statusCode !== 201) throw new Error(`a team for a fixture: ${res.statusCode} ${res.body}`);
        return res.json().team as { id: string; name: string };
      })(),
    );
  return teams.get(x)!;
};

const read = (x: Tenant, path: string) => async () => (await x.app('GET', path)).json();

/** The web app's routing routes (teams, routing settings, availability, a conversation's team): their tenant walls. */
export function routingWalls(db: Queryable): Record<string, Wall> {
  const byId =
    (snapshot: boolean, body?: unknown): Wall =>
    async (a) => {
      const { id } = await teamOf(a);
      return { params: { id }, body, ...(snapshot ? { snapshot: read(a, '/teams') } : { markers: [id] }) };
    };
  return {
    'GET /teams': async (a) => ({ markers: [(await teamOf(a)).id] }),
    // B names A's member: refused, as any user who is not B's member.
    'POST /teams': async (a) => {
      const member = await a.member();
      await teamOf(a);
      return {
        body: { name: 'Of B', member_ids: [member.userId] },
        status: 422,
        code: 'validation_error',
        snapshot: read(a, '/teams'),
      };
    },
    'GET /teams/:id': byId(false),
    'PATCH /teams/:id': byId(true, { name: 'Renamed by B', max_open_per_member: 1 }),
    'DELETE /teams/:id': byId(true),
    'GET /routing': async (a) => {
      const { id } = await teamOf(a);
      await a.app('PUT', '/routing', { auto_assign_team_id: id, idle_minutes: 7 });
      return { markers: [id] };
    },
    'PUT /routing': async (a) => {
      const { id } = await teamOf(a);
      return {
        body: { auto_assign_team_id: id, idle_minutes: 5 },
        status: 422,
        code: 'validation_error',
        snapshot: read(a, '/routing'),
      };
    },
    // Each person's own: B's answer is B's (online), never A's (away).
    'GET /me/availability': async (a) => {
      await a.app('PUT', '/me/availability', { availability: 'away' });
      return { shows: (body) => (body as { availability: string }).availability === 'away' };
    },
    'PUT /me/availability': async (a) => {
      await a.app('PUT', '/me/availability', { availability: 'away' });
      return { body: { availability: 'online' }, status: 200, snapshot: read(a, '/me/availability') };
    },
    // Both workspaces have a team of the same id, so only the conversation's wall can stop B.
    'POST /conversations/:id/team': async (a, b) => {
      const { id } = await a.contact();
      await a.message();
      const teamId = `team_same_${a.tag}`;
      for (const x of [a, b])
        await db.query('INSERT INTO teams (workspace_id, id, name) VALUES ($1, $2, $3)', [
          await x.workspaceId(),
          teamId,
          `Same ${a.tag}`,
        ]);
      return {
        params: { id },
        body: { team_id: teamId },
        snapshot: async () => (await read(a, `/conversations/${id}`)()).conversation,
      };
    },
  };
}
