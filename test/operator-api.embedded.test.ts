import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type RunningServer, startServer, tempDataDir } from './support/cli.js';
import { until } from './support/until.js';

// Issue 30's "Done when", the operator API: an outside script (a business's own bot or AI agent),
// holding only an API key and a signed webhook endpoint, works conversations over HTTP on the real
// server: it lists them with the cursor while customers keep writing, takes one, answers it, adds a
// note, resolves it, and receives conversation.created, .assigned and .resolved.

type Conversation = {
  id: string;
  contact: { id: string; phone: string; name: string | null };
  status: string;
  assignee: { id: string; name: string } | null;
};
type Event = {
  type: string;
  data: Conversation & { changed_by?: { type: string; member_id: string | null } };
};

describe('issue 30 done: an outside bot works conversations through REST v1', { timeout: 180_000 }, () => {
  const data = tempDataDir();
  let server: RunningServer;
  let base = '';
  let receiver: Server;
  let hookUrl = '';
  const events: Event[] = [];
  let secret = '';
  let apiKey = '';
  let memberId = '';

  beforeAll(async () => {
    // The bot's own endpoint: it takes only what verifies against the endpoint's signing secret.
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        try {
          const event = new Webhook(secret).verify(body, {
            'webhook-id': String(req.headers['webhook-id']),
            'webhook-timestamp': String(req.headers['webhook-timestamp']),
            'webhook-signature': String(req.headers['webhook-signature']),
          }) as Event;
          events.push(event);
          res.writeHead(204).end();
        } catch {
          res.writeHead(401).end();
        }
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/parley`;

    const port = await freePort();
    server = await startServer([], {
      DATA_DIR: data.dir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      GRAPH_API_URL: `http://127.0.0.1:${port}/_sim`,
      CHECK_RESPONSE_SCHEMAS: 'true',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    });
    base = server.url;

    // The business sets up once in the app: its account, the number, a key and the endpoint.
    const setup = await fetch(`${base}/api/app/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-parley-csrf': '1' },
      body: JSON.stringify({
        email: 'asha@example.com',
        password: 'a long enough password',
        name: 'Asha Rao',
        workspace_name: 'Acme Foods',
        default_country_code: '91',
      }),
    });
    expect(setup.status, await setup.clone().text()).toBe(201);
    const cookie = (setup.headers.get('set-cookie') ?? '').split(';')[0]!;
    const session = (await (await fetch(`${base}/api/app/session`, { headers: { cookie } })).json()) as {
      csrf_token: string;
      user: { id: string };
    };
    memberId = session.user.id;
    const app = async (path: string, body: unknown = {}) => {
      const res = await fetch(`${base}/api/app${path}`, {
        method: 'POST',
        headers: { cookie, 'x-parley-csrf': session.csrf_token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBeLessThan(300);
      return (await res.json()) as Record<string, string>;
    };
    await app('/number/simulator');
    apiKey = (await app('/api-keys', { name: 'Support bot' })).key!;
    secret = (
      await app('/webhooks', {
        url: hookUrl,
        events: ['conversation.created', 'conversation.assigned', 'conversation.resolved'],
      })
    ).secret!;
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await new Promise<void>((r) => receiver?.close(() => r()));
    data.remove();
  });

  /** The script's REST v1 call: the API key is all it holds. */
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : null,
    });
    // biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are what the test asserts
    return { status: res.status, body: (await res.json()) as any };
  };
  const sim = async (method: string, path: string, body?: unknown) => {
    const token = readFileSync(join(data.dir, 'simulator.token'), 'utf8');
    const res = await fetch(`${base}/_sim${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : null,
    });
    expect(res.status).toBeLessThan(300);
    return res.json() as Promise<{ messages: { type: string; payload: { text?: { body: string } } }[] }>;
  };
  /** A customer writes in; answers the conversation's id, from its conversation.created event. */
  const customerWrites = async (phone: string, name: string, text: string) => {
    await sim('POST', '/inbound', { from: phone, name, text });
    const created = await until(() =>
      events.find((e) => e.type === 'conversation.created' && e.data.contact.phone === phone),
    );
    return created.data.id;
  };
  const phone = (i: number) => `9198765${String(43200 + i)}`;

  it('lists with the cursor, takes one, answers, notes, resolves, and hears each step', async () => {
    const first: string[] = [];
    for (let i = 0; i < 5; i++) first.push(await customerWrites(phone(i), `Customer ${i}`, `Hello ${i}`));
    const created = events.filter((e) => e.type === 'conversation.created');
    expect(created.map((e) => e.data)).toEqual(
      first.map((id, i) =>
        expect.objectContaining({
          id,
          status: 'open',
          assignee: null,
          contact: expect.objectContaining({ id, phone: phone(i), name: `Customer ${i}` }),
        }),
      ),
    );

    // The walk: two a page, and customers keep writing between pages (new ones and old ones).
    const seen: string[] = [];
    let page = await api('GET', '/conversations?status=open&limit=2');
    let arrivals = 0;
    for (;;) {
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      seen.push(...page.body.conversations.map((c: Conversation) => c.id));
      if (!page.body.next_cursor) break;
      await customerWrites(phone(10 + arrivals), `Newcomer ${arrivals}`, 'Hi, me too');
      await sim('POST', '/inbound', {
        from: phone(arrivals),
        name: `Customer ${arrivals}`,
        text: 'Still there?',
      });
      arrivals++;
      page = await api(
        'GET',
        `/conversations?status=open&limit=2&cursor=${encodeURIComponent(page.body.next_cursor)}`,
      );
    }
    expect(arrivals).toBe(2);
    expect(seen).toEqual([...first].reverse());
    const all = await api('GET', '/conversations?limit=100');
    expect(all.body.conversations).toHaveLength(7);

    // It takes the oldest one, reads it, answers and notes it.
    const id = first[0]!;
    const taken = await api('POST', `/conversations/${id}/assign`, { member_id: memberId });
    expect(taken.status).toBe(200);
    expect(taken.body.conversation).toMatchObject({ id, assignee: { id: memberId, name: 'Asha Rao' } });
    const unassigned = await api('GET', '/conversations?status=open&assignee=unassigned&limit=100');
    expect(unassigned.body.conversations.map((c: Conversation) => c.id)).not.toContain(id);
    const thread = await until(async () => {
      const { body } = await api('GET', `/conversations/${id}/messages?limit=10`);
      return body.messages.length === 2 && body.messages;
    });
    expect(thread.map((m: { text: string }) => m.text)).toEqual(['Still there?', 'Hello 0']);
    const answer = await api('POST', '/messages', {
      to: `+${phone(0)}`,
      type: 'text',
      text: 'Yes! Your order ships today.',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const note = await api('POST', `/conversations/${id}/notes`, { text: 'Told them it ships today.' });
    expect(note.status).toBe(201);
    const resolved = await api('POST', `/conversations/${id}/resolve`);
    expect(resolved.body.conversation).toMatchObject({ status: 'resolved', assignee: { id: memberId } });

    // The customer got the answer; the thread holds it; the events came, signed, saying the API did it.
    const got = await until(async () => {
      const { messages } = await sim('GET', `/messages?to=${phone(0)}`);
      return messages.find((m) => m.payload.text?.body === 'Yes! Your order ships today.');
    });
    expect(got.type).toBe('text');
    const after = await api('GET', `/conversations/${id}/messages?limit=1`);
    expect(after.body.messages[0]).toMatchObject({ id: answer.body.id, direction: 'outbound' });
    const assigned = await until(() =>
      events.find((e) => e.type === 'conversation.assigned' && e.data.id === id),
    );
    expect(assigned.data).toMatchObject({
      assignee: { id: memberId },
      changed_by: { type: 'api', member_id: null },
    });
    const done = await until(() =>
      events.find((e) => e.type === 'conversation.resolved' && e.data.id === id),
    );
    expect(done.data).toMatchObject({ status: 'resolved', changed_by: { type: 'api', member_id: null } });
    const open = await api('GET', '/conversations?status=open&limit=100');
    expect(open.body.conversations.map((c: Conversation) => c.id)).not.toContain(id);
    expect(events.filter((e) => e.type === 'conversation.created')).toHaveLength(7);
  });
});
