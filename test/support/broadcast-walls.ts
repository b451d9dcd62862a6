import type { Tenant } from './tenant.js';
import type { Call, WallCase } from './tenant-wall.js';

type Wall = (a: Tenant, b: Tenant) => Promise<Omit<WallCase, 'a'>>;

/**
 * The broadcast routes' tenant walls, the same under REST v1 and the web app's API: `via` is the
 * tenant's caller there. B's number knows the same templates, so only Parley's own scoping stops it.
 */
export function broadcastWalls(via: (x: Tenant) => Call): Record<string, Wall> {
  const ofA = (a: Tenant) => async () => (await via(a)('GET', '/broadcasts')).json();
  const one = (a: Tenant, id: string) => async () => (await via(a)('GET', `/broadcasts/${id}`)).json();
  const byId: Wall = async (a) => {
    const { id } = await a.broadcast();
    return { params: { id }, markers: [id] };
  };
  // A draft has no recipients or timeline points yet: B's 404 and A's 200 are the wall.
  const under: Wall = async (a) => ({ params: { id: (await a.broadcast()).id } });
  const move: Wall = async (a) => {
    const { id } = await a.broadcast();
    return { params: { id }, snapshot: one(a, id) };
  };
  return {
    // B names A's own template: B has none of that name.
    'POST /broadcasts': async (a, b) => {
      const template = await a.template();
      await a.broadcast();
      await b.number();
      return {
        body: {
          name: 'Of B',
          template: { name: template.name, language: template.language },
          audience: {},
          values: { body: [{ from: 'text', text: 'x' }] },
        },
        status: 404,
        code: 'template_not_found',
        snapshot: ofA(a),
      };
    },
    // B's count covers B's contacts: A's never show in the sample.
    'POST /broadcasts/audience': async (a) => {
      const contact = await a.contact();
      return { body: { audience: {} }, markers: [contact.id], snapshot: ofA(a) };
    },
    // B cannot preview with A's contact.
    'POST /broadcasts/preview': async (a, b) => {
      const contact = await a.contact();
      await b.number();
      return {
        body: {
          template: { name: 'welcome', language: 'en' },
          values: {
            body: [
              { from: 'contact', field: 'name' },
              { from: 'text', text: 'x' },
            ],
          },
          contact_id: contact.id,
        },
        status: 422,
        code: 'validation_error',
        markers: [contact.id, contact.name],
        snapshot: ofA(a),
      };
    },
    'GET /broadcasts': async (a) => ({ markers: [(await a.broadcast()).id] }),
    'GET /broadcasts/:id': byId,
    'GET /broadcasts/:id/recipients': under,
    'GET /broadcasts/:id/timeline': under,
    'POST /broadcasts/:id/pause': move,
    'POST /broadcasts/:id/resume': move,
    'POST /broadcasts/:id/cancel': move,
  };
}
