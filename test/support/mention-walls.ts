import type { Tenant } from './tenant.js';
import type { WallCase } from './tenant-wall.js';
import { until } from './until.js';

type Wall = (a: Tenant, b: Tenant) => Promise<Omit<WallCase, 'a'>>;

const mentions = new Map<Tenant, Promise<string>>();
/** A's owner mentioned in a note on A's conversation (by A's API key): the note's id. */
const mentionOf = (x: Tenant) => {
  if (!mentions.has(x))
    mentions.set(
      x,
      (async () => {
        const { id } = await x.conversation();
        const owner = (await x.owner()).client.userId;
        const res = await x.rest('POST', `/conversations/${id}/notes`, { text: `For <@${owner}> ${x.tag}` });
        if (res.statusCode !== 201) throw new Error(`a mention for a fixture: ${res.statusCode} ${res.body}`);
        return res.json().id as string;
      })(),
    );
  return mentions.get(x)!;
};

const notices = (x: Tenant) => async () => (await x.app('GET', '/notifications')).json();

/** What A's presence shows, less the time it has left (which moves between reads). */
const presenceOf = (x: Tenant) => async () =>
  ((await x.app('GET', '/presence')).json().presence as { ttl_ms?: number }[]).map(
    ({ ttl_ms: _, ...p }) => p,
  );

/** A's owner viewing A's conversation, heard back (every instance hears presence through NOTIFY). */
const viewing = async (a: Tenant) => {
  const { id } = await a.contact();
  await a.app('POST', '/presence', { contact_id: id, state: 'viewing' });
  await until(async () => (await presenceOf(a)()).length > 0);
  return id;
};

/** The web app's notifications and presence routes (issue 32): their tenant walls. */
export function mentionWalls(): Record<string, Wall> {
  return {
    'GET /notifications': async (a) => {
      await mentionOf(a);
      return { markers: [a.tag] };
    },
    // B marking all read marks B's own: A's stay unread.
    'POST /notifications/read': async (a) => {
      await mentionOf(a);
      return { body: { all: true }, status: 200, snapshot: notices(a) };
    },
    'GET /presence': async (a) => ({ markers: [await viewing(a)] }),
    'POST /presence': async (a) => {
      const id = await viewing(a);
      return {
        body: { contact_id: id, state: 'replying' },
        status: 404,
        snapshot: presenceOf(a),
      };
    },
  };
}
