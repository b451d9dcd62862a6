import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER } from '../src/http/app-api.js';
import { createAutomation } from '../src/modules/automation/save-automation.js';
import { createTestApp } from './support/app.js';
import { broadcastWalls } from './support/broadcast-walls.js';
import { expectRestError } from './support/endpoint-security.js';
import { submit } from './support/intake.js';
import { labelWalls, savedViewWalls } from './support/label-walls.js';
import { jpeg } from './support/media-files.js';
import { mentionWalls } from './support/mention-walls.js';
import { listen, simControl } from './support/messaging.js';
import {
  fillPath,
  pathParams,
  type RegisteredRoute,
  routeName,
  withRouteTable,
} from './support/route-table.js';
import { routingWalls } from './support/routing-walls.js';
import { csvForm, SEQUENCE, Tenant } from './support/tenant.js';
import { expectTenantWall, type WallCase } from './support/tenant-wall.js';
import { until } from './support/until.js';

// The routes come from the server itself, so a route added to the web app's API gets these tests or fails them.
const { value: t, routes } = await withRouteTable(() => createTestApp({ queue: true, role: 'api' }));
const base = await listen(t);
afterAll(async () => {
  await t.close();
});

const appRoutes = routes.filter((r) => r.prefix === '/api/app');
const sessionRoutes = appRoutes.filter((r) => !r.public);
const named = (list: RegisteredRoute[]) => list.map((r) => [routeName(r), r] as const);
const changesState = (r: RegisteredRoute) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method);

/** The routes reachable without a session: first-run setup, sign-in, invitations, password resets. */
const PUBLIC = [
  'GET /session',
  'POST /setup',
  'POST /login',
  'GET /invitations/:token',
  'POST /invitations/accept',
  'POST /password-reset',
  'POST /password-reset/complete',
];

const call = (route: RegisteredRoute, headers: Record<string, string>) =>
  t.app.inject({
    method: route.method as 'GET',
    url: `/api/app${fillPath(route.path, Object.fromEntries(pathParams(route.path).map((p) => [p, 'x1'])))}`,
    headers,
  });

describe('the route table', () => {
  it('has exactly the listed public routes (config.public)', () => {
    expect(appRoutes.length).toBeGreaterThan(PUBLIC.length);
    expect(
      appRoutes
        .filter((r) => r.public)
        .map(routeName)
        .sort(),
    ).toEqual([...PUBLIC].sort());
  });
});

describe.each(named(sessionRoutes))('%s', (_name, route) => {
  it.each([
    ['no session cookie', {}],
    ['an unknown session', { cookie: 'parley_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['a malformed cookie', { cookie: 'parley_session=%%%; parley_session=' }],
  ])('refuses %s with 401', async (_case, headers) => {
    expectRestError(await call(route, { [CSRF_HEADER]: '1', ...headers }), 401, 'unauthorized');
  });
});

// Two sessions for every route: a refused request changes nothing, so they can be shared.
const signedIn = [new Tenant(t, base), new Tenant(t, base)] as const;

describe.each(named(appRoutes.filter(changesState)))('%s', (_name, route) => {
  it('refuses a state change without the CSRF token, or with another session’s, with 403', async () => {
    const a = await signedIn[0].owner();
    const b = await signedIn[1].owner();
    const cookie = a.client.cookie;
    expectRestError(await call(route, { cookie }), 403, 'csrf_failed');
    // A public route has no session to match a token against; the header must still be there.
    if (route.public) return;
    expectRestError(await call(route, { cookie, [CSRF_HEADER]: b.client.csrf }), 403, 'csrf_failed');
    expectRestError(
      await call(route, { cookie, [CSRF_HEADER]: a.client.csrf, origin: 'https://evil.example' }),
      403,
      'csrf_failed',
    );
  });
});

type Wall = (a: Tenant, b: Tenant) => Promise<Omit<WallCase, 'a'>>;

const quickReplies = new Map<Tenant, Promise<{ id: string; title: string }>>();
/** A quick reply only A has. */
const quickReply = (a: Tenant) => {
  if (!quickReplies.has(a)) {
    quickReplies.set(
      a,
      a.app('POST', '/quick-replies', { title: `Reply ${a.tag}`, text: 'Hi {{name}}' }).then((res) => ({
        id: res.json().id,
        title: `Reply ${a.tag}`,
      })),
    );
  }
  return quickReplies.get(a)!;
};

/** The id of A's own template, as the web app lists it. */
const templateId = async (a: Tenant): Promise<string> => {
  const { name } = await a.template();
  const listed = (await a.app('GET', '/templates')).json().templates as { id: string; name: string }[];
  return listed.find((x) => x.name === name)!.id;
};

const read = (x: Tenant, path: string) => async () => (await x.app('GET', path)).json();

/**
 * Every route a session reaches: how to make A's real rows it could touch, and what B sends at them.
 * A route with path parameters must answer B 404 for A's ids; a list must never show A's rows; a
 * write must leave A's snapshot as it was.
 */
const WALLS: Record<string, Wall> = {
  // Sessions and workspaces
  'POST /logout': async (a) => ({ status: 200, snapshot: read(a, '/session') }),
  'POST /workspaces': async (a) => ({
    body: { name: 'Of B' },
    status: 201,
    markers: [await a.workspaceId()],
    snapshot: read(a, '/session'),
  }),
  'POST /session/workspace': async (a, b) => ({
    body: { workspace_id: await a.workspaceId() },
    status: 404,
    snapshot: read(a, '/team'),
    after: async () =>
      expect((await b.app('GET', '/session')).json().workspace.id).toBe(await b.workspaceId()),
  }),

  // One person's own language: B's choice leaves A's as it was.
  'PUT /me/language': async (a) => {
    await a.app('PUT', '/me/language', { language: 'hi' });
    return {
      body: { language: 'ar' },
      status: 200,
      snapshot: async () => (await a.app('GET', '/session')).json().user.language,
    };
  },

  // Team
  'GET /team': async (a) => ({
    markers: [(await a.member()).email, (await a.invitation()).id],
  }),
  'POST /invitations': async (a) => ({
    body: { email: (await a.member()).email, role: 'admin' },
    status: 201,
    snapshot: read(a, '/team'),
  }),
  'DELETE /invitations/:id': async (a) => ({
    params: { id: (await a.invitation()).id },
    snapshot: read(a, '/team'),
  }),
  'PATCH /members/:id': async (a) => ({
    params: { id: (await a.member()).userId },
    body: { role: 'admin' },
    snapshot: read(a, '/team'),
  }),
  'DELETE /members/:id': async (a) => ({
    params: { id: (await a.member()).userId },
    snapshot: read(a, '/team'),
  }),

  // Settings
  'GET /workspace': async (a) => ({ markers: [await a.workspaceId()] }),
  'PATCH /workspace': async (a) => ({
    body: { name: 'Renamed by B', default_country_code: '44' },
    status: 200,
    snapshot: read(a, '/workspace'),
  }),
  'GET /workspace/retention': async (a) => {
    await a.app('PATCH', '/workspace/retention', { media_days: 4321 });
    return { shows: (body) => JSON.stringify(body).includes('4321') };
  },
  'PATCH /workspace/retention': async (a) => ({
    body: { media_days: 7, delivery_logs_days: null },
    status: 200,
    snapshot: read(a, '/workspace/retention'),
  }),
  'GET /business-hours': async (a) => {
    await a.app('PUT', '/business-hours', {
      schedule: { mon: [{ from: '07:15', to: '11:45' }] },
      holidays: [{ date: '2026-12-25', name: `Holiday ${a.tag}` }],
      away: { enabled: true, text: `Away ${a.tag}` },
      greeting: { enabled: false, text: 'Hi' },
    });
    return { markers: [`Holiday ${a.tag}`, `Away ${a.tag}`] };
  },
  'PUT /business-hours': async (a) => ({
    body: {
      schedule: null,
      holidays: [],
      away: { enabled: false, text: 'B was here' },
      greeting: { enabled: true, text: 'B greets' },
    },
    status: 200,
    snapshot: read(a, '/business-hours'),
  }),
  'GET /number': async (a) => {
    const number = await a.number();
    return { markers: [number.id, number.phoneNumberId] };
  },
  // B cannot take A's number by its id (refused before any Graph call), nor disconnect it.
  'POST /number': async (a) => {
    const number = await a.number();
    return {
      body: {
        phone_number_id: number.phoneNumberId,
        business_account_id: '1234567',
        access_token: 'EAAother',
        app_secret: 'other',
      },
      status: 422,
      code: 'validation_error',
      snapshot: read(a, '/number'),
    };
  },
  'DELETE /number': async (a) => {
    await a.number();
    return { status: 409, code: 'no_connected_number', snapshot: read(a, '/number') };
  },
  'POST /number/check': async (a) => {
    await a.number();
    return { status: 409, code: 'no_connected_number', snapshot: read(a, '/number') };
  },
  'POST /number/simulator': async (a) => {
    await a.number();
    return { status: 201, snapshot: read(a, '/number') };
  },
  // A's test customer (a contact with its phone) is A's; B's has another phone, and B has no number to write to.
  'GET /number/simulator/customer': async (a) => {
    const { phone } = (await a.app('GET', '/number/simulator/customer')).json();
    const { id } = (await a.rest('POST', '/contacts', { phone: `+${phone}` })).json();
    return { markers: [id, phone] };
  },
  'POST /number/simulator/customer/messages': async (a) => {
    await a.number();
    return {
      body: { text: 'From B' },
      status: 409,
      code: 'no_connected_number',
      snapshot: read(a, '/number/simulator/customer'),
    };
  },
  'GET /usage': async (a) => {
    await a.contact();
    return { shows: (body) => (body as { contacts: { used: number } }).contacts.used > 0 };
  },
  'GET /api-keys': async (a) => ({ markers: [(await a.apiKey()).id] }),
  'POST /api-keys': async (a) => ({
    body: { name: 'Of B' },
    status: 201,
    markers: [(await a.apiKey()).id],
    snapshot: read(a, '/api-keys'),
  }),
  'DELETE /api-keys/:id': async (a) => ({
    params: { id: (await a.apiKey()).id },
    snapshot: read(a, '/api-keys'),
  }),

  // Outbound webhooks
  'GET /webhooks': async (a) => ({ markers: [(await a.webhook()).id] }),
  'POST /webhooks': async (a) => ({
    body: { url: 'https://b.example.invalid/hook' },
    status: 201,
    snapshot: read(a, '/webhooks'),
  }),
  'DELETE /webhooks/:id': async (a) => {
    const { id } = await a.webhook();
    return { params: { id }, snapshot: read(a, '/webhooks') };
  },
  'POST /webhooks/:id/test': async (a) => {
    const { id } = await a.webhook();
    return { params: { id }, snapshot: read(a, `/webhooks/${id}/deliveries`) };
  },
  'GET /webhooks/:id/deliveries': async (a) => ({ params: { id: (await a.webhook()).id } }),

  // Contacts and messages
  'GET /contacts': async (a) => ({ markers: [(await a.contact()).id] }),
  'GET /contacts/tags': async (a) => {
    const tag = `tag_${a.tag}`;
    const res = await a.rest('POST', '/contacts', { phone: a.phone(), tags: [tag] });
    expect(res.statusCode).toBeLessThan(300);
    return { markers: [tag] };
  },
  'GET /contacts/:id': async (a) => {
    const contact = await a.contact();
    return { params: { id: contact.id }, markers: [contact.name] };
  },
  // B adds a contact with A's phone: its own, in its own workspace; A's stays as it was.
  'POST /contacts': async (a) => {
    const contact = await a.contact();
    return {
      body: { phone: `+${contact.phone}`, name: 'Of B' },
      status: 201,
      snapshot: read(a, `/contacts/${contact.id}`),
    };
  },
  'PATCH /contacts/:id': async (a) => {
    const contact = await a.contact();
    return {
      params: { id: contact.id },
      body: { name: 'Renamed by B', add_tags: ['b'], remove_traits: ['x'] },
      snapshot: read(a, `/contacts/${contact.id}`),
    };
  },
  'DELETE /contacts/:id': async (a) => {
    const contact = await a.contact();
    return { params: { id: contact.id }, snapshot: read(a, `/contacts/${contact.id}`) };
  },
  // Who did what in A: B's log never shows A's entries.
  'GET /audit-log': async (a) => ({ markers: [(await a.contact()).id] }),
  'PUT /contacts/:id/opt-out': async (a) => {
    const contact = await a.contact();
    return {
      params: { id: contact.id },
      body: { opted_out: true },
      snapshot: read(a, `/contacts/${contact.id}`),
    };
  },
  'POST /contacts/import': async (a) => {
    await a.contact();
    return {
      body: csvForm(`phone,name\n${a.phone()},Of B\n`),
      status: 202,
      snapshot: read(a, '/contacts'),
    };
  },
  'GET /contacts/imports/:id': async (a) => {
    const { id } = await a.contactImport();
    return { params: { id }, markers: [id] };
  },
  'GET /contacts/export': async (a) => ({ markers: [(await a.contact()).id] }),
  'GET /leads/export': async (a) => ({ markers: [(await a.lead()).id] }),
  'GET /messages': async (a) => ({ markers: [(await a.message()).id] }),
  'GET /conversations/:id': async (a) => {
    const contact = await a.contact();
    const message = await a.message();
    return { params: { id: contact.id }, markers: [message.id] };
  },
  // A's image as received and kept: B asking for it by A's message id gets 404.
  'GET /messages/:id/media': async (a) => {
    const ws = await a.workspaceId();
    const contact = await a.contact();
    const id = `msg_media_${a.tag}`;
    await t.ctx.db.query(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, content, status, status_rank)
       VALUES ($1, $2, 'inbound', $3, $4, 'image', '{"id": "1"}', 'read', 4)`,
      [ws, id, contact.id, contact.phone],
    );
    await t.ctx.db.query(
      `INSERT INTO media (workspace_id, id, direction, network_id, message_id, kind, mime_type, storage_key, state)
       VALUES ($1, $2, 'inbound', '1', $3, 'image', 'image/png', $4, 'stored')`,
      [ws, `med_${a.tag}`, id, `${ws}/med_${a.tag}`],
    );
    await t.ctx.media.put(`${ws}/med_${a.tag}`, Readable.from([Buffer.from('png bytes')]));
    return { params: { id } };
  },
  // A has an unread customer message and reads them on the network: B's call must not mark it.
  'POST /conversations/:id/read': async (a) => {
    const { id, phone } = await a.contact();
    const { phoneNumberId } = await a.number();
    await a.app('PATCH', '/workspace', { mark_read: true });
    await simControl(base, '/inbound', { from: phone, text: 'unread', phone_number_id: phoneNumberId });
    const conversation = read(a, `/conversations/${id}`);
    await until(async () => (await conversation()).messages.length > 0);
    return { params: { id }, snapshot: conversation };
  },
  'POST /conversations/:id/messages': async (a, b) => {
    const { id } = await a.contact();
    await b.number();
    return { params: { id }, body: { text: 'From B' }, snapshot: read(a, `/conversations/${id}`) };
  },

  // The inbox: A's conversation (a message sent to A's contact) and quick replies.
  'GET /inbox': async (a) => {
    await a.message();
    return { markers: [(await a.contact()).id] };
  },
  'GET /inbox/unread': async (a) => {
    const { phone } = await a.contact();
    const { phoneNumberId } = await a.number();
    await simControl(base, '/inbound', { from: phone, text: 'unread', phone_number_id: phoneNumberId });
    await until(async () => (await (await a.app('GET', '/inbox/unread')).json()).unread_conversations > 0);
    return { shows: (body) => (body as { unread_conversations: number }).unread_conversations > 0 };
  },
  // Only the conversation's handling: its messages' statuses move on by themselves.
  'PATCH /conversations/:id': async (a) => {
    const { id } = await a.contact();
    await a.message();
    const handling = async () => (await read(a, `/conversations/${id}`)()).conversation;
    return { params: { id }, body: { state: 'resolved' }, snapshot: handling };
  },
  // A bot answers A's customer: B's call must not stop it.
  'POST /conversations/:id/bot/stop': async (a) => {
    const { id, phone } = await a.contact();
    const { phoneNumberId } = await a.number();
    const bot = {
      name: 'Holds the conversation',
      trigger: { type: 'message_received', keywords: ['wall'] },
      steps: [{ id: 'hold', type: 'wait', duration: '1h' }],
    };
    await createAutomation(t.ctx, await a.workspaceId(), bot, { publish: true });
    await simControl(base, '/inbound', { from: phone, text: 'wall', phone_number_id: phoneNumberId });
    const handling = async () => (await read(a, `/conversations/${id}`)()).conversation;
    await until(async () => (await handling()).bot !== null);
    return { params: { id }, snapshot: handling };
  },
  // A bot handed A's customer to the team and waits (as its assign step leaves it; this app runs no
  // workers): B's call must not hand it back.
  'POST /conversations/:id/bot/resume': async (a) => {
    const { id } = await a.contact();
    const ws = await a.workspaceId();
    const bot = {
      name: 'Hands over',
      trigger: { type: 'message_received', keywords: ['hand over'] },
      // biome-ignore lint/suspicious/noThenProperty: the assign step's field
      steps: [{ id: 'handoff', type: 'assign', to: null, then: 'wait' }],
    };
    const { id: automationId } = await createAutomation(t.ctx, ws, bot, { publish: true });
    await t.ctx.db.query(
      `INSERT INTO runs (workspace_id, id, automation_id, version, contact_id, status, current_step, awaiting)
       VALUES ($1, $2, $3, 1, $4, 'waiting', 'handoff', '{"kind": "handoff", "step": "handoff", "visit": 1}')`,
      [ws, `run_wall_${a.tag}`, automationId, id],
    );
    await t.ctx.db.query(
      `INSERT INTO conversations (workspace_id, contact_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [ws, id],
    );
    return { params: { id }, snapshot: async () => (await read(a, `/conversations/${id}`)()).conversation };
  },
  'POST /conversations/:id/notes': async (a) => {
    const { id } = await a.contact();
    return { params: { id }, body: { text: 'From B' }, snapshot: read(a, `/conversations/${id}`) };
  },
  'GET /quick-replies': async (a) => ({ markers: [(await quickReply(a)).title] }),
  'POST /quick-replies': async (a) => {
    await quickReply(a);
    return { body: { title: 'Of B', text: 'x' }, status: 201, snapshot: read(a, '/quick-replies') };
  },
  'PUT /quick-replies/:id': async (a) => ({
    params: { id: (await quickReply(a)).id },
    body: { title: 'Changed by B', text: 'x' },
    snapshot: read(a, '/quick-replies'),
  }),
  'DELETE /quick-replies/:id': async (a) => ({
    params: { id: (await quickReply(a)).id },
    snapshot: read(a, '/quick-replies'),
  }),
  // B's own upload, to B's own number: nothing of A's moves.
  'POST /media': async (a, b) => {
    await a.number();
    await b.number();
    const form = new FormData();
    form.append('file', new Blob([jpeg()], { type: 'image/jpeg' }), 'photo.jpg');
    return { body: form, status: 200, snapshot: read(a, '/number') };
  },
  // Without EventSource's Accept header, the events kept for the workspace as JSON: A's message's own.
  'GET /events': async (a) => {
    const { id } = await a.message();
    await until(async () => JSON.stringify((await a.app('GET', '/events')).json()).includes(id));
    return { markers: [id] };
  },

  // Templates: B has a number of its own, so its sync and submission really happen.
  'GET /templates': async (a) => ({ markers: [(await a.template()).name] }),
  'POST /templates/sync': async (a, b) => {
    await a.template();
    await b.number();
    return { status: 200, snapshot: read(a, '/templates') };
  },
  'POST /templates': async (a, b) => {
    const { name, language } = await a.template();
    await b.number();
    return {
      body: { name, language, category: 'UTILITY', body: 'From B' },
      status: 201,
      snapshot: read(a, '/templates'),
    };
  },

  // B's own sample, through B's own number: nothing of A's moves.
  'POST /templates/header-sample': async (a, b) => {
    await a.template();
    await b.number();
    const form = new FormData();
    form.append('file', new Blob([jpeg()], { type: 'image/jpeg' }), 'sample.jpg');
    return { body: form, status: 200, snapshot: read(a, '/templates') };
  },

  'DELETE /templates/:id': async (a) => {
    const id = await templateId(a);
    return { params: { id }, snapshot: read(a, '/templates') };
  },
  'POST /templates/:id/archive': async (a) => {
    const id = await templateId(a);
    return { params: { id }, snapshot: read(a, '/templates') };
  },
  'POST /templates/:id/restore': async (a) => {
    const id = await templateId(a);
    await a.app('POST', `/templates/${id}/archive`);
    return { params: { id }, snapshot: read(a, '/templates?archived=true') };
  },

  // Flows and sequences
  'POST /automations/:id/archive': async (a) => {
    const { id } = await a.sequence();
    return { params: { id }, snapshot: read(a, `/automations/${id}`) };
  },
  'POST /automations/:id/restore': async (a) => {
    const { id } = await a.sequence();
    await a.app('POST', `/automations/${id}/archive`);
    return { params: { id }, snapshot: read(a, `/automations/${id}`) };
  },
  'GET /automations': async (a) => ({ markers: [(await a.sequence()).id] }),
  'POST /automations': async (a) => {
    await a.sequence();
    return {
      body: { kind: 'sequence', definition: SEQUENCE('Of B'), publish: true },
      status: 201,
      snapshot: read(a, '/automations'),
    };
  },
  'GET /automations/:id': async (a) => {
    const { id, secret } = await a.sequence();
    return { params: { id }, markers: [secret] };
  },
  'PUT /automations/:id': async (a) => {
    const { id } = await a.sequence();
    return {
      params: { id },
      body: { definition: SEQUENCE('Of B') },
      snapshot: read(a, `/automations/${id}`),
    };
  },
  'POST /automations/:id/publish': async (a) => {
    const { id } = await a.sequence();
    // A draft change publishing would make live.
    await a.app('PUT', `/automations/${id}`, { definition: SEQUENCE(`Draft ${a.tag}`) });
    return { params: { id }, snapshot: read(a, `/automations/${id}`) };
  },
  'POST /automations/:id/unpublish': async (a) => {
    const { id } = await a.sequence();
    return { params: { id }, snapshot: read(a, `/automations/${id}`) };
  },
  'POST /automations/:id/rotate-secret': async (a) => {
    const { id } = await a.sequence();
    return { params: { id }, snapshot: read(a, `/automations/${id}`) };
  },
  'GET /runs': async (a) => ({ markers: [(await a.lead()).runId] }),
  'GET /runs/:id': async (a) => {
    const { runId } = await a.lead();
    return { params: { id: runId }, markers: [runId] };
  },

  // Leads and forms
  'GET /leads': async (a) => ({ markers: [(await a.lead()).id] }),
  'GET /leads/:id': async (a) => {
    const { id } = await a.lead();
    return { params: { id }, markers: [id] };
  },
  'PATCH /leads/:id': async (a) => {
    const { id } = await a.lead();
    return { params: { id }, body: { status: 'won' }, snapshot: read(a, `/leads/${id}`) };
  },
  'POST /leads/:id/archive': async (a) => {
    const { id } = await a.lead();
    return { params: { id }, snapshot: read(a, `/leads/${id}`) };
  },
  'POST /leads/:id/restore': async (a) => {
    const { id } = await a.lead();
    await a.app('POST', `/leads/${id}/archive`);
    return { params: { id }, snapshot: read(a, `/leads/${id}`) };
  },
  'POST /forms/:id/archive': async (a) => {
    const { id } = await a.form();
    return { params: { id }, snapshot: read(a, `/forms/${id}`) };
  },
  'POST /forms/:id/restore': async (a) => {
    const { id } = await a.form();
    await a.app('POST', `/forms/${id}/archive`);
    return { params: { id }, snapshot: read(a, `/forms/${id}`) };
  },
  'POST /leads/:id/notes': async (a) => {
    const { id } = await a.lead();
    return { params: { id }, body: { body: 'Written by B' }, snapshot: read(a, `/leads/${id}`) };
  },
  'GET /dashboard': async (a) => {
    const { id, token } = await a.form();
    const res = await submit(t, { token, email: `dashboard-${a.tag}@example.com` });
    if (res.statusCode !== 201) throw new Error(`form submit for a fixture: ${res.statusCode} ${res.body}`);
    return { markers: [id] };
  },
  // Satisfaction survey: A's settings, and a rating of A's member on A's dashboard.
  'GET /satisfaction/settings': async (a) => {
    await a.app('PUT', '/satisfaction/settings', { enabled: true, question: `Rate ${a.tag}` });
    return { markers: [`Rate ${a.tag}`] };
  },
  'PUT /satisfaction/settings': async (a) => {
    await a.app('PUT', '/satisfaction/settings', { enabled: true, question: `Rate ${a.tag}` });
    return {
      body: { enabled: false, question: 'Of B' },
      status: 200,
      snapshot: read(a, '/satisfaction/settings'),
    };
  },
  'GET /satisfaction': async (a) => {
    const { userId } = await a.member();
    await t.ctx.db.query(
      `INSERT INTO satisfaction_surveys (workspace_id, id, contact_id, assignee_id, message_id, rating, answered_at)
       VALUES ($1, $2, 'ct_x', $3, 'msg_x', 4, now())`,
      [await a.workspaceId(), `csat_${a.tag}`, userId],
    );
    return { markers: [userId] };
  },
  'GET /forms': async (a) => ({ markers: [(await a.form()).id] }),
  'POST /forms': async (a) => {
    await a.form();
    return { body: { name: 'Of B' }, status: 201, snapshot: read(a, '/forms') };
  },
  'GET /forms/:id': async (a) => {
    const { id, token } = await a.form();
    return { params: { id }, markers: [token] };
  },
  'PATCH /forms/:id': async (a) => {
    const { id } = await a.form();
    return {
      params: { id },
      body: { name: 'Renamed by B', active: false },
      snapshot: read(a, `/forms/${id}`),
    };
  },
  ...broadcastWalls((x) => x.app),
  ...routingWalls(t.ctx.db),
  ...labelWalls(),
  ...savedViewWalls(),
  ...mentionWalls(),
};

describe.each(named(sessionRoutes))('%s', (name, route) => {
  it('keeps workspaces apart', async () => {
    const wall = WALLS[name];
    if (!wall) {
      throw new Error(
        `route ${name} has no tenant-wall fixture: add one to WALLS in test/app-api.tenancy.test.ts`,
      );
    }
    const a = new Tenant(t, base);
    const b = new Tenant(t, base);
    await b.owner();
    await expectTenantWall(route, { a: a.app, ...(await wall(a, b)) }, b.app);
  });
});

it('has a fixture only for routes that exist', () => {
  const names = new Set(sessionRoutes.map(routeName));
  expect(Object.keys(WALLS).filter((name) => !names.has(name))).toEqual([]);
});
