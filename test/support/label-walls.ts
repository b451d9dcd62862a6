import { expect } from 'vitest';
import type { Tenant } from './tenant.js';
import type { WallCase } from './tenant-wall.js';

type Wall = (a: Tenant, b: Tenant) => Promise<Omit<WallCase, 'a'>>;

const labels = new Map<Tenant, Promise<{ id: string; name: string }>>();
/** A label only A has, on A's conversation. */
const labelOf = (x: Tenant) => {
  if (!labels.has(x))
    labels.set(
      x,
      (async () => {
        const name = `Label ${x.tag}`;
        const res = await x.rest('POST', '/labels', { name, colour: 'teal' });
        if (res.statusCode !== 201) throw new Error(`a label for a fixture: ${res.statusCode} ${res.body}`);
        const { id } = await x.conversation();
        await x.rest('POST', `/conversations/${id}/labels`, { label_id: res.json().label.id });
        return { id: res.json().label.id as string, name };
      })(),
    );
  return labels.get(x)!;
};

/**
 * The label, snooze and bulk routes' tenant walls, the same under REST v1 and the web app's API
 * (their paths are alike). A's rows are made and read back through A's key.
 */
export function labelWalls(): Record<string, Wall> {
  const read = (x: Tenant, path: string) => async () => (await x.rest('GET', path)).json();
  const labelsOfA = (a: Tenant) => read(a, '/labels');
  const conversationOfA = (a: Tenant, id: string) => read(a, `/conversations/${id}`);
  const onConversation =
    (body: (a: Tenant) => Promise<unknown>, before?: (a: Tenant, id: string) => Promise<unknown>): Wall =>
    async (a) => {
      const { id } = await a.conversation();
      await before?.(a, id);
      return { params: { id }, body: await body(a), snapshot: conversationOfA(a, id) };
    };
  return {
    'GET /labels': async (a) => ({ markers: [(await labelOf(a)).id] }),
    // B may have a label of A's name: names are unique per workspace.
    'POST /labels': async (a) => ({
      body: { name: (await labelOf(a)).name },
      status: 201,
      snapshot: labelsOfA(a),
    }),
    'PATCH /labels/:id': async (a) => ({
      params: { id: (await labelOf(a)).id },
      body: { name: 'Renamed by B', colour: 'red' },
      snapshot: labelsOfA(a),
    }),
    'DELETE /labels/:id': async (a) => ({ params: { id: (await labelOf(a)).id }, snapshot: labelsOfA(a) }),
    'POST /conversations/:id/labels': onConversation(async (a) => ({ label_id: (await labelOf(a)).id })),
    'DELETE /conversations/:id/labels/:label_id': async (a) => {
      const { id } = await a.conversation();
      const label = await labelOf(a);
      return { params: { id, label_id: label.id }, snapshot: conversationOfA(a, id) };
    },
    'POST /conversations/:id/snooze': onConversation(async () => ({ until_reply: true })),
    'POST /conversations/:id/unsnooze': async (a) => {
      const { id } = await a.conversation();
      await a.rest('POST', `/conversations/${id}/snooze`, { until_reply: true });
      return { params: { id }, snapshot: conversationOfA(a, id) };
    },
    // B names A's conversation: not B's, so not found and untouched.
    'POST /conversations/bulk': async (a) => {
      const { id } = await a.conversation();
      return {
        body: { ids: [id], action: 'resolve' },
        status: 200,
        snapshot: conversationOfA(a, id),
        after: async (res) => expect(res.json()).toMatchObject({ done: 0, not_found: [id] }),
      };
    },
  };
}

/** The saved views' tenant walls (web app only: a view is one member's). */
export function savedViewWalls(): Record<string, Wall> {
  const views = new Map<Tenant, Promise<string>>();
  const viewOf = (x: Tenant) => {
    if (!views.has(x))
      views.set(
        x,
        x
          .app('POST', '/saved-views', { name: `View ${x.tag}`, query: { filter: 'open' }, shared: true })
          .then((res) => res.json().view.id as string),
      );
    return views.get(x)!;
  };
  const viewsOfA = (a: Tenant) => async () => (await a.app('GET', '/saved-views')).json();
  return {
    'GET /saved-views': async (a) => ({ markers: [await viewOf(a)] }),
    'POST /saved-views': async (a) => {
      await viewOf(a);
      return { body: { name: 'Of B', query: { filter: 'mine' } }, status: 201, snapshot: viewsOfA(a) };
    },
    'PATCH /saved-views/:id': async (a) => ({
      params: { id: await viewOf(a) },
      body: { name: 'Renamed by B' },
      snapshot: viewsOfA(a),
    }),
    'DELETE /saved-views/:id': async (a) => ({ params: { id: await viewOf(a) }, snapshot: viewsOfA(a) }),
  };
}
