import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEndpoint, WEBHOOK_EVENTS } from '../src/modules/webhooks/endpoints.js';
import { workspaceWithOwner } from './support/app-session.js';
import { connectSimulator, simControl, simState, simulatorAppForTests } from './support/messaging.js';
import { until } from './support/until.js';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

// The server sends each outbound event for real (the simulator, REST v1, the app, the job queue) to
// an endpoint here; each must be signed and match its schema in the OpenAPI document's `webhooks`.
const t = simulatorAppForTests({ queue: true, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
const received: Delivery[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.writeHead(200).end();
  });
});
let hookUrl: string;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const events = () =>
  received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
const arrived = (type: string, match: (data: Record<string, unknown>) => boolean = () => true) =>
  until(() => events().find((e) => e.type === type && match(e.data)), 15_000);

it('sends every outbound event signed and as the OpenAPI document describes it', async () => {
  const owner = await workspaceWithOwner(t);
  const ws = owner.workspaceId;
  const number = await connectSimulator(t, t.base, ws);
  const { secret } = await createEndpoint(t.ctx, ws, hookUrl);
  const api = async (method: string, path: string, body?: unknown, status = [200, 201, 202]) => {
    const res = await t.api(method, path, owner.apiKey, body);
    expect(status, `${method} ${path}: ${res.body}`).toContain(res.statusCode);
    return res.json();
  };
  const { rows } = await t.ctx.db.query<{ user_id: string }>(
    'SELECT user_id FROM memberships WHERE workspace_id = $1',
    [ws],
  );
  const phone = '14155550142';

  // message.status: a template sent, then delivered.
  simState(t).statusDelaysMs = [-1, -1, -1];
  const sent = await api('POST', '/messages', {
    to: `+${phone}`,
    template: { name: 'hello', language: 'en_US' },
  });
  await simControl(t.base, '/status', { wamid: sent.wamid, status: 'delivered' });
  await arrived('message.status', (d) => d.id === sent.id && d.status === 'delivered');

  // message.received and conversation.created: the customer writes; .assigned and .resolved through REST v1.
  await simControl(t.base, '/inbound', {
    from: phone,
    text: 'Where is my order?',
    phone_number_id: number.phoneNumberId,
  });
  const inbound = await arrived('message.received', (d) => d.text === 'Where is my order?');
  const conversation = String(inbound.data.contact_id);
  await arrived('conversation.created', (d) => d.id === conversation);
  await api('POST', `/conversations/${conversation}/assign`, { member_id: rows[0]!.user_id });
  await api('POST', `/conversations/${conversation}/resolve`);
  await arrived('conversation.assigned', (d) => d.id === conversation);
  await arrived('conversation.resolved', (d) => d.id === conversation);

  // contact.opted_out and .opted_in: the customer's keywords.
  await simControl(t.base, '/inbound', { from: phone, text: 'STOP', phone_number_id: number.phoneNumberId });
  await arrived('contact.opted_out', (d) => d.phone === phone);
  await simControl(t.base, '/inbound', { from: phone, text: 'START', phone_number_id: number.phoneNumberId });
  await arrived('contact.opted_in', (d) => d.phone === phone);

  // flow.run.finished: a published flow started by an event runs to its end.
  const flow = await api('POST', '/automations', {
    name: 'Tag sign-ups',
    trigger: { type: 'event', event: 'signup' },
    steps: [{ id: 'tag', type: 'add_tag', tag: 'signed-up' }],
    published: true,
  });
  await api('POST', '/events', { phone: `+${phone}`, event: 'signup' });
  await arrived('flow.run.finished', (d) => d.automation_id === flow.id && d.status === 'completed');

  // lead.created: a sequence's webhook takes a lead.
  const sequence = await api('POST', '/automations', {
    name: 'From the site',
    trigger: { type: 'webhook' },
    steps: [{ id: 'wait', type: 'wait', duration: '1d' }],
    published: true,
  });
  const intake = await t.app.inject({
    method: 'POST',
    url: new URL(sequence.webhook.url).pathname,
    headers: { 'content-type': 'application/json' },
    payload: { name: 'Asha', email: 'asha@example.com', phone: '+919876543210', budget: '10-20k' },
  });
  expect(intake.statusCode, intake.body).toBe(202);
  await arrived('lead.created', (d) => d.source_id === sequence.id);

  // broadcast.completed: a draft cancelled is announced as finished.
  await api('POST', '/contacts', { phone: `+${phone}`, tags: ['vip'] });
  const draft = await api('POST', '/broadcasts', {
    name: 'Later',
    template: { name: 'hello', language: 'en_US' },
    audience: { tags_any: ['vip'] },
    values: {},
    draft: true,
  });
  await api('POST', `/broadcasts/${draft.broadcast.id}/cancel`);
  await arrived('broadcast.completed', (d) => d.id === draft.broadcast.id);

  // number.paused and .resumed: Meta refuses the number, then the owner checks it again.
  await simControl(t.base, '/control', { failNext: 1, failNextCode: 131031 });
  await api('POST', '/messages', { to: '+14155557997', template: { name: 'hello', language: 'en_US' } });
  await arrived('number.paused', (d) => d.code === 131031);
  expect((await owner.client.call('POST', '/number/check')).json()).toEqual({ result: true, resumed: true });
  await arrived('number.resumed');

  const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  expect(Object.keys(doc.webhooks)).toEqual([...WEBHOOK_EVENTS]);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validators: Record<string, ValidateFunction | undefined> = Object.fromEntries(
    WEBHOOK_EVENTS.map((type) => [
      type,
      ajv.compile({
        ...doc.webhooks[type].post.requestBody.content['application/json'].schema,
        components: doc.components,
      }),
    ]),
  );
  const hook = new Webhook(secret);
  const problems: string[] = [];
  for (const delivery of received) {
    const event = hook.verify(delivery.body, {
      'webhook-id': String(delivery.headers['webhook-id']),
      'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
      'webhook-signature': String(delivery.headers['webhook-signature']),
    }) as { type: string };
    const { type } = event;
    const validate = validators[type];
    if (!validate) problems.push(`${type}: not in the document`);
    else if (!validate(event))
      problems.push(`${type}: ${ajv.errorsText(validate.errors)} in ${delivery.body}`);
  }
  expect(problems).toEqual([]);
  expect(new Set(events().map((e) => e.type))).toEqual(new Set(WEBHOOK_EVENTS));
}, 90_000);
