import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createAutomation } from '../src/modules/automation/save-automation.js';
import { createTestApp } from './support/app.js';
import { broadcastWalls } from './support/broadcast-walls.js';
import { describeAuthentication } from './support/endpoint-security.js';
import { submit } from './support/intake.js';
import { labelWalls } from './support/label-walls.js';
import { listen, simControl, simState } from './support/messaging.js';
import { openApiRoutes, routeName, withRouteTable } from './support/route-table.js';
import { routingWalls } from './support/routing-walls.js';
import { csvForm, Tenant } from './support/tenant.js';
import { expectTenantWall, type WallCase } from './support/tenant-wall.js';
import { until } from './support/until.js';

// The routes come from the server itself, so a route added to REST v1 gets these tests or fails them.
const { value: t, routes } = await withRouteTable(() => createTestApp({ queue: true, role: 'api' }));
const base = await listen(t);
afterAll(async () => {
  await t.close();
});

const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
const documented = openApiRoutes(doc);

describe('the route table', () => {
  it('documents in OpenAPI exactly the routes REST v1 registers', () => {
    const registered = routes.filter((r) => r.prefix === '/api/v1').map(routeName);
    expect(documented.map(routeName).sort()).toEqual(registered.sort());
  });

  it('serves nothing under /api/v1 outside REST v1 but the API documentation', () => {
    const outside = routes.filter((r) => r.url.startsWith('/api/v1') && r.prefix !== '/api/v1');
    for (const r of outside) expect(r.url).toMatch(/^\/api\/v1\/(openapi\.json$|docs(\/|$))/);
  });
});

describeAuthentication(() => t, documented);

type Wall = (a: Tenant, b: Tenant) => Promise<Omit<WallCase, 'a'>>;

const contactsOf = (x: Tenant) => async () => (await x.rest('GET', '/contacts?limit=200')).json().contacts;

/** Every REST v1 route: how to make A's rows it could reach, and what B sends at them. */
const WALLS: Record<string, Wall> = {
  // B's search by A's contact's phone finds nothing: the phone is B's to have too.
  'GET /contacts': async (a, b) => ({
    markers: [(await a.contact()).id],
    after: async () =>
      expect(
        (await b.rest('GET', `/contacts?phone=${encodeURIComponent(a.phone())}`)).json().contacts,
      ).toEqual([]),
  }),
  ...contactWalls(),

  // The same phone through B is B's own, new contact; A's is untouched.
  'POST /contacts': async (a) => {
    const contact = await a.contact();
    return {
      body: { phone: a.phone(), name: 'Of B', tags: ['b'], traits: { owner: 'b' } },
      status: 201,
      markers: [contact.id],
      snapshot: contactsOf(a),
    };
  },

  // B's import of A's phone makes B's own contact; A's is untouched.
  'POST /contacts/import': async (a) => {
    const contact = await a.contact();
    return {
      body: csvForm(`phone,name,tags\n${a.phone()},Of B,b\n`),
      status: 202,
      markers: [contact.id],
      snapshot: contactsOf(a),
    };
  },
  'GET /contacts/imports/:id': async (a) => {
    const { id } = await a.contactImport();
    return { params: { id }, markers: [id] };
  },
  'GET /contacts/export': async (a) => ({ markers: [(await a.contact()).id] }),

  'GET /templates': async (a) => ({ markers: [(await a.template()).name] }),

  // B's network knows the template too, so only Parley's own lookup can refuse it.
  'POST /messages': async (a, b) => {
    const template = await a.template();
    const number = await b.number();
    simState(t)
      .templates.get(number.businessAccountId)!
      .push({ ...template, status: 'APPROVED', id: 'tx' });
    await a.contact();
    return {
      body: { to: a.phone(), template: { name: template.name, language: template.language, body: ['x'] } },
      status: 404,
      code: 'template_not_found',
      snapshot: contactsOf(a),
      after: async () => {
        expect((await b.app('GET', '/messages')).json().messages).toEqual([]);
        expect((await b.app('GET', '/usage')).json().messages_this_month.used).toBe(0);
      },
    };
  },

  // B's upload goes to B's own number or nowhere (here: no file, 415); A's media stay as they were.
  'POST /media': async (a) => {
    const ws = await a.workspaceId();
    return {
      status: 415,
      code: 'unsupported_media_type',
      snapshot: async () =>
        (await t.ctx.db.query('SELECT id, state FROM media WHERE workspace_id = $1 ORDER BY id', [ws])).rows,
    };
  },

  'GET /messages/:id': async (a) => {
    const message = await a.message();
    return { params: { id: message.id }, markers: [message.id] };
  },
  'GET /messages': async (a) => ({ markers: [(await a.message()).id] }),
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

  // B's event of A's flow's name, for A's contact's phone, starts nothing of A's.
  'POST /events': async (a) => {
    const flow = await a.flow();
    const contact = await a.contact();
    return {
      body: { phone: a.phone(), event: flow.event, properties: { from: 'b' } },
      status: 202,
      markers: [contact.id, flow.id],
      snapshot: async () => ({
        contacts: await contactsOf(a)(),
        flow: (await a.app('GET', `/automations/${flow.id}`)).json(),
      }),
      after: async (res) => expect(res.json().flows_started).toBe(0),
    };
  },
  ...automationWalls(),
  ...conversationWalls(),
  ...leadWalls(),
  ...formWalls(),
  ...templateWalls(),
  ...numberWalls(),
  ...webhookWalls(),
  // B's usage counts B's rows only: A's contact is not among B's contacts.
  'GET /workspace': async (a) => {
    await a.app('PATCH', '/workspace', { name: `Workspace ${a.tag}` });
    return { markers: [`Workspace ${a.tag}`, await a.workspaceId()] };
  },
  // B's change is to B's own workspace; A's stays as it was.
  'PATCH /workspace': async (a) => ({
    body: { name: 'Of B', time_zone: 'UTC' },
    status: 200,
    snapshot: async () => (await a.app('GET', '/workspace')).json(),
  }),
  'GET /workspace/retention': async (a) => {
    await a.app('PATCH', '/workspace/retention', { media_days: 17 });
    return {
      shows: (body) => (body as { retention: { media_days: number | null } }).retention.media_days === 17,
    };
  },
  'PATCH /workspace/retention': async (a) => {
    await a.app('PATCH', '/workspace/retention', { media_days: 17 });
    return {
      body: { media_days: 3 },
      status: 200,
      snapshot: async () => (await a.app('GET', '/workspace/retention')).json(),
    };
  },
  'GET /usage': async (a) => {
    await a.contact();
    return { shows: (body) => (body as { contacts: { used: number } }).contacts.used > 0 };
  },
  ...broadcastWalls((x) => x.rest),
  ...pageWalls(),
  ...labelWalls(),
};

/** The app's other pages (dashboard, runs, settings, teams, quick replies, audit log) through B's key. */
function pageWalls(): Record<string, Wall> {
  const read = (x: Tenant, path: string) => async () => (await x.app('GET', path)).json();
  const routing = routingWalls(t.ctx.db);
  const quickReply = async (a: Tenant) => {
    const res = await a.rest('POST', '/quick-replies', { title: `Reply ${a.tag}`, text: 'Hi there' });
    return res.json().quick_reply as { id: string; title: string };
  };
  const hours = (text: string) => ({
    schedule: { mon: [{ from: '07:15', to: '11:45' }] },
    holidays: [{ date: '2026-12-25', name: `Holiday ${text}` }],
    away: { enabled: true, text: `Away ${text}` },
    greeting: { enabled: false, text: 'Hi' },
  });
  return {
    'GET /dashboard': async (a) => {
      const { id, token } = await a.form();
      const res = await submit(t, { token, email: `dashboard-${a.tag}@example.com` });
      if (res.statusCode !== 201) throw new Error(`form submit for a fixture: ${res.statusCode} ${res.body}`);
      return { markers: [id] };
    },
    'GET /runs': async (a) => ({ markers: [(await a.lead()).runId] }),
    'GET /runs/:id': async (a) => {
      const { runId } = await a.lead();
      return { params: { id: runId }, markers: [runId] };
    },
    'GET /business-hours': async (a) => {
      await a.app('PUT', '/business-hours', hours(a.tag));
      return { markers: [`Holiday ${a.tag}`, `Away ${a.tag}`] };
    },
    'PUT /business-hours': async (a) => {
      await a.app('PUT', '/business-hours', hours(a.tag));
      return { body: hours('of B'), status: 200, snapshot: read(a, '/business-hours') };
    },
    'GET /routing': routing['GET /routing']!,
    'PUT /routing': routing['PUT /routing']!,
    'GET /teams': routing['GET /teams']!,
    'POST /teams': routing['POST /teams']!,
    'GET /teams/:id': routing['GET /teams/:id']!,
    'PATCH /teams/:id': routing['PATCH /teams/:id']!,
    'DELETE /teams/:id': routing['DELETE /teams/:id']!,
    'GET /satisfaction': async (a) => {
      const { userId } = await a.member();
      await t.ctx.db.query(
        `INSERT INTO satisfaction_surveys (workspace_id, id, contact_id, assignee_id, message_id, rating, answered_at)
         VALUES ($1, $2, 'ct_x', $3, 'msg_x', 4, now())`,
        [await a.workspaceId(), `csat_${a.tag}`, userId],
      );
      return { markers: [userId] };
    },
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
    'GET /quick-replies': async (a) => ({ markers: [(await quickReply(a)).title] }),
    // B's quick reply of A's title is B's own.
    'POST /quick-replies': async (a) => {
      const { title } = await quickReply(a);
      return { body: { title, text: 'x' }, status: 201, snapshot: read(a, '/quick-replies') };
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
    'GET /audit-log': async (a) => ({ markers: [(await a.contact()).id] }),
  };
}

/** One contact's routes: A's contact is neither read, changed nor erased through B's key. */
function contactWalls(): Record<string, Wall> {
  const one = (a: Tenant, id: string) => async () => (await a.rest('GET', `/contacts/${id}`)).json();
  const change =
    (body?: unknown): Wall =>
    async (a) => {
      const { id } = await a.contact();
      return { params: { id }, body, snapshot: one(a, id) };
    };
  return {
    'GET /contacts/:id': async (a) => {
      const { id } = await a.contact();
      return { params: { id }, markers: [id] };
    },
    'PATCH /contacts/:id': change({
      name: 'Of B',
      tags: { add: ['b'] },
      traits: { owner: 'b' },
      opted_out: true,
    }),
    'DELETE /contacts/:id': change(),
    // A's contact's history holds its opt-out; B sees none of it.
    'GET /contacts/:id/timeline': async (a) => {
      const { id } = await a.contact();
      await a.rest('PATCH', `/contacts/${id}`, { opted_out: true });
      const [item] = (await a.rest('GET', `/contacts/${id}/timeline`)).json().timeline;
      return { params: { id }, markers: [item.id] };
    },
    'GET /contacts/tags': async (a) => {
      await a.rest('POST', '/contacts', { phone: a.phone(), tags: [`only-${a.tag}`] });
      return { markers: [`only-${a.tag}`] };
    },
  };
}

/** The template routes: B's list is B's own, and A's template is neither read nor deleted through B's key. */
function templateWalls(): Record<string, Wall> {
  const templateOf = async (a: Tenant) => {
    const template = await a.template();
    const { rows } = await t.ctx.db.query<{ id: string }>(
      'SELECT id FROM templates WHERE workspace_id = $1 AND name = $2',
      [await a.workspaceId(), template.name],
    );
    return { ...template, id: rows[0]!.id };
  };
  const all = (a: Tenant) => async () => (await a.rest('GET', '/templates?status=all')).json();
  return {
    // B's template of A's template's name is B's own, submitted to B's own account.
    'POST /templates': async (a, b) => {
      const template = await templateOf(a);
      await b.number();
      return {
        body: { name: template.name, language: 'en', category: 'MARKETING', body: 'Hi {{1}}' },
        status: 201,
        markers: [template.id],
        snapshot: all(a),
      };
    },
    'GET /templates/:id': async (a) => {
      const { id } = await templateOf(a);
      return { params: { id }, markers: [id] };
    },
    // A sample goes to B's own app's uploads; a body that is no file is refused before any.
    'POST /templates/header-sample': async (a, b) => {
      await templateOf(a);
      await b.number();
      return { status: 415, code: 'unsupported_media_type', snapshot: all(a) };
    },
    'DELETE /templates/:id': async (a) => {
      const { id } = await templateOf(a);
      return { params: { id }, snapshot: all(a) };
    },
    // B's sync copies B's account into B's templates; A's stay as they were.
    'POST /templates/sync': async (a, b) => {
      const template = await templateOf(a);
      await a.number();
      await b.number();
      return { status: 200, markers: [template.id], snapshot: all(a) };
    },
    'POST /templates/:id/archive': async (a) => {
      const { id } = await templateOf(a);
      return { params: { id }, snapshot: all(a) };
    },
    'POST /templates/:id/restore': async (a) => {
      const { id } = await templateOf(a);
      await a.rest('POST', `/templates/${id}/archive`);
      return {
        params: { id },
        snapshot: async () =>
          (
            await t.ctx.db.query(
              'SELECT id, archived_at FROM templates WHERE workspace_id = $1 ORDER BY id',
              [await a.workspaceId()],
            )
          ).rows,
      };
    },
  };
}

/** The connected number: B reads, connects, checks and disconnects B's own; A's number stays as it was. */
function numberWalls(): Record<string, Wall> {
  const numberOf = (a: Tenant) => async () => (await a.rest('GET', '/number')).json();
  return {
    'GET /number': async (a) => ({ markers: [(await a.number()).phoneNumberId] }),
    // A's number cannot be taken by B: refused before Meta is asked.
    'PUT /number': async (a, b) => {
      const number = await a.number();
      await b.number();
      return {
        body: {
          phone_number_id: number.phoneNumberId,
          business_account_id: '1234',
          access_token: 'EAAof-b',
          app_secret: 'secret-of-b',
        },
        status: 422,
        code: 'validation_error',
        snapshot: numberOf(a),
      };
    },
    'DELETE /number': async (a, b) => {
      await a.number();
      await b.number();
      return { status: 204, snapshot: numberOf(a) };
    },
    'POST /number/check': async (a, b) => {
      await a.number();
      await b.number();
      return { status: 200, snapshot: numberOf(a) };
    },
  };
}

/** The webhook endpoint routes: B's list is B's own; A's endpoint is not read, tested or removed through B's key. */
function webhookWalls(): Record<string, Wall> {
  const endpoints = (a: Tenant) => async () => ({
    endpoints: (await a.rest('GET', '/webhooks')).json(),
    deliveries: await t.ctx.db.query(
      'SELECT id, status FROM webhook_deliveries WHERE workspace_id = $1 ORDER BY id',
      [await a.workspaceId()],
    ),
  });
  const change: Wall = async (a) => {
    const { id } = await a.webhook();
    return { params: { id }, snapshot: endpoints(a) };
  };
  return {
    'GET /webhooks': async (a) => ({ markers: [(await a.webhook()).id] }),
    'POST /webhooks': async (a) => {
      const { id } = await a.webhook();
      return {
        body: { url: `https://${a.tag}.example.invalid/hook` },
        status: 201,
        markers: [id],
        snapshot: endpoints(a),
      };
    },
    'DELETE /webhooks/:id': change,
    'POST /webhooks/:id/test': change,
    'GET /webhooks/:id/deliveries': async (a) => {
      const { id } = await a.webhook();
      await a.rest('POST', `/webhooks/${id}/test`);
      const { rows } = await t.ctx.db.query<{ id: string }>(
        'SELECT id FROM webhook_deliveries WHERE workspace_id = $1 AND endpoint_id = $2',
        [await a.workspaceId(), id],
      );
      return { params: { id }, markers: [rows[0]!.id] };
    },
  };
}

/** The conversation routes: B's list is B's own, and A's conversation is neither read nor changed through B's key. */
function conversationWalls(): Record<string, Wall> {
  const one = (a: Tenant, id: string) => async () => ({
    conversation: (await a.rest('GET', `/conversations/${id}`)).json(),
    notes: (await a.app('GET', `/conversations/${id}`)).json().notes,
  });
  const byId: Wall = async (a) => {
    const { id } = await a.conversation();
    return { params: { id }, markers: [id] };
  };
  const change =
    (body?: (a: Tenant) => Promise<unknown>): Wall =>
    async (a) => {
      const { id } = await a.conversation();
      return { params: { id }, body: await body?.(a), snapshot: one(a, id) };
    };
  return {
    'GET /conversations': async (a) => ({ markers: [(await a.conversation()).id] }),
    'GET /conversations/:id': byId,
    'GET /conversations/:id/messages': async (a) => {
      const { id } = await a.conversation();
      return { params: { id }, markers: [(await a.message()).id] };
    },
    // B names A's own member: a member of A is no member of B's, and A's conversation is not B's either.
    'POST /conversations/:id/assign': change(async (a) => ({ member_id: (await a.member()).userId })),
    'POST /conversations/:id/resolve': change(),
    'POST /conversations/:id/reopen': change(),
    'POST /conversations/:id/notes': change(async () => ({ text: 'A note from B' })),
    'POST /conversations/:id/pending': change(),
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
      const conversation = async () => (await a.rest('GET', `/conversations/${id}`)).json().conversation;
      await until(async () => (await conversation())?.bot != null);
      return { params: { id }, snapshot: one(a, id) };
    },
    // A bot handed A's customer to the team and waits (as its assign step leaves it; this app runs no
    // workers): B's call must not hand it back.
    'POST /conversations/:id/bot/resume': async (a) => {
      const { id } = await a.conversation();
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
      const runs = async () =>
        (await t.ctx.db.query('SELECT id, status, awaiting FROM runs WHERE workspace_id = $1', [ws])).rows;
      return { params: { id }, snapshot: async () => ({ ...(await one(a, id)()), runs: await runs() }) };
    },
  };
}

/** The lead routes: B's list is B's own, and A's lead is neither read nor changed through B's key. */
function leadWalls(): Record<string, Wall> {
  const one = (a: Tenant, id: string) => async () => ({
    lead: (await a.rest('GET', `/leads/${id}`)).json(),
    notes: (await a.rest('GET', `/leads/${id}/notes`)).json(),
  });
  const byId: Wall = async (a) => {
    const { id } = await a.lead();
    return { params: { id }, markers: [id] };
  };
  return {
    // B filtering by A's sequence or form finds none of A's leads.
    'GET /leads': async (a, b) => {
      const lead = await a.lead();
      const [sequence, form] = [await a.sequence(), await a.form()];
      return {
        markers: [lead.id],
        after: async () => {
          for (const filter of [`automation_id=${sequence.id}`, `form_id=${form.id}`])
            expect((await b.rest('GET', `/leads?${filter}`)).json().leads).toEqual([]);
          expect((await a.rest('GET', `/leads?automation_id=${sequence.id}`)).json().leads).toHaveLength(1);
        },
      };
    },
    'GET /leads/:id': byId,
    'GET /leads/:id/notes': async (a) => {
      const { id } = await a.lead();
      const { note } = (await a.rest('POST', `/leads/${id}/notes`, { text: `Note ${a.tag}` })).json();
      return { params: { id }, markers: [note.id] };
    },
    // B names A's own member: a member of A is no member of B's, and A's lead is not B's either.
    'PATCH /leads/:id': async (a) => {
      const { id } = await a.lead();
      return {
        params: { id },
        body: { status: 'won', owner_id: (await a.member()).userId },
        snapshot: one(a, id),
      };
    },
    'POST /leads/:id/notes': async (a) => {
      const { id } = await a.lead();
      return { params: { id }, body: { text: 'A note from B' }, snapshot: one(a, id) };
    },
    'DELETE /leads/:id': async (a) => {
      const { id } = await a.lead();
      return { params: { id }, snapshot: one(a, id) };
    },
    // A's archived lead stays archived.
    'POST /leads/:id/restore': async (a) => {
      const { id } = await a.lead();
      await a.rest('DELETE', `/leads/${id}`);
      return { params: { id }, snapshot: one(a, id) };
    },
    // B's export filtered by A's sequence or form holds none of A's leads.
    'GET /leads/export': async (a, b) => {
      const lead = await a.lead();
      const [sequence, form] = [await a.sequence(), await a.form()];
      return {
        markers: [lead.id],
        after: async () => {
          for (const filter of [`automation_id=${sequence.id}`, `form_id=${form.id}`])
            expect((await b.rest('GET', `/leads/export?${filter}`)).body).not.toContain(lead.id);
          expect((await a.rest('GET', `/leads/export?automation_id=${sequence.id}`)).body).toContain(lead.id);
        },
      };
    },
  };
}

/** The form routes: B's list is B's own, and A's form is neither read nor changed through B's key. */
function formWalls(): Record<string, Wall> {
  const one = (a: Tenant, id: string) => async () => (await a.rest('GET', `/forms/${id}`)).json();
  const change =
    (body?: unknown): Wall =>
    async (a) => {
      const { id } = await a.form();
      return { params: { id }, body, snapshot: one(a, id) };
    };
  return {
    // B's form of A's form's name is B's own.
    'POST /forms': async (a) => {
      const form = await a.form();
      return {
        body: { name: `Form ${a.tag}`, active: true },
        status: 201,
        markers: [form.id, form.token],
        snapshot: async () => (await a.rest('GET', '/forms')).json(),
      };
    },
    'GET /forms': async (a) => {
      const form = await a.form();
      return { markers: [form.id, form.token] };
    },
    'GET /forms/:id': async (a) => {
      const form = await a.form();
      return { params: { id: form.id }, markers: [form.id, form.token] };
    },
    'PATCH /forms/:id': change({ name: 'Of B', active: false }),
    'DELETE /forms/:id': change(),
    // A's archived form stays archived.
    'POST /forms/:id/restore': async (a) => {
      const { id } = await a.form();
      await a.rest('DELETE', `/forms/${id}`);
      return { params: { id }, snapshot: one(a, id) };
    },
  };
}

/** The automation routes: B's list is B's own, and A's flow is neither read nor changed through B's key. */
function automationWalls(): Record<string, Wall> {
  const one = (a: Tenant, id: string) => async () => (await a.rest('GET', `/automations/${id}`)).json();
  const byId: Wall = async (a) => {
    const { id } = await a.flow();
    return { params: { id }, markers: [id] };
  };
  const change =
    (body?: unknown): Wall =>
    async (a) => {
      const { id } = await a.flow();
      return { params: { id }, body, snapshot: one(a, id) };
    };
  return {
    // B's automation of A's flow's name and event is B's own.
    'POST /automations': async (a) => {
      const flow = await a.flow();
      return {
        body: {
          name: `Flow ${a.tag}`,
          trigger: { type: 'event', event: flow.event },
          steps: [{ id: 'b', type: 'add_tag', tag: 'b' }],
          published: true,
        },
        status: 201,
        markers: [flow.id],
        snapshot: async () => (await a.rest('GET', '/automations')).json(),
      };
    },
    'GET /automations': async (a) => ({ markers: [(await a.flow()).id] }),
    'GET /automations/:id': byId,
    'PATCH /automations/:id': change({ name: 'Of B', published: false }),
    'DELETE /automations/:id': change(),
    // A's archived flow stays archived.
    'POST /automations/:id/restore': async (a) => {
      const { id } = await a.flow();
      await a.rest('DELETE', `/automations/${id}`);
      return { params: { id }, snapshot: one(a, id) };
    },
    // A's secret stays as it was, and B is shown no secret.
    'POST /automations/:id/rotate-secret': async (a) => {
      const { id, secret } = await a.sequence();
      return {
        params: { id },
        markers: [secret],
        snapshot: async () => ({
          automation: await one(a, id)(),
          stored: (await t.ctx.db.query('SELECT secret_enc FROM automations WHERE id = $1', [id])).rows,
        }),
        after: async (res) => expect(res.body).not.toContain('whsec_'),
      };
    },
  };
}

describe.each(documented.map((r) => [routeName(r), r] as const))('%s', (_name, route) => {
  it('keeps workspaces apart', async () => {
    const wall = WALLS[routeName(route)];
    if (!wall) {
      throw new Error(
        `route ${routeName(route)} has no tenant-wall fixture: add one to WALLS in test/rest-v1.tenancy.test.ts`,
      );
    }
    const a = new Tenant(t, base);
    const b = new Tenant(t, base);
    await expectTenantWall(route, { a: a.rest, ...(await wall(a, b)) }, b.rest);
  });
});

it('has a fixture only for routes that exist', () => {
  const names = new Set(documented.map(routeName));
  expect(Object.keys(WALLS).filter((name) => !names.has(name))).toEqual([]);
});
