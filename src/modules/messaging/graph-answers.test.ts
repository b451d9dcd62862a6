import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { workspaceWithNumber } from '../../../test/support/messaging.js';
import { syncTemplates } from '../templates/sync-templates.js';
import { hubSignature } from './cloud-api/signature.js';
import type { ConnectedNumber } from './connected-numbers.js';
import { MAX_UNCONFIRMED_RESENDS, retrySend, TransientSendError } from './retry-send.js';
import { sweepAbandonedSends } from './sweep-sends.js';

// Every answer the Graph URL can give a send maps to a defined outcome: a refusal fails the message
// once with the network's words, a 2xx that does not name the message leaves it to the status
// webhook, a throttle or a 5xx is tried again by the existing policy. Never a 500, never a resend of
// a refused message. A local server stands in for the Graph API and answers what each case says.

interface Answer {
  status: number;
  body: string;
  type?: string;
}
const json = (status: number, body: unknown): Answer => ({ status, body: JSON.stringify(body) });
const metaError = (code: unknown, message: string) => ({
  error: { message, type: 'OAuthException', code, fbtrace_id: 'Atrace' },
});
const happy = (to: string) =>
  json(200, {
    messaging_product: 'whatsapp',
    contacts: [{ input: to, wa_id: to }],
    messages: [{ id: `wamid.${Math.random().toString(36).slice(2)}` }],
  });
const html500: Answer = {
  status: 500,
  body: '<html><body>Internal Server Error</body></html>',
  type: 'text/html',
};

let t: TestApp;
let graph: Server;
let graphUrl: string;
// What the fake Graph API answers each POST .../messages with, in turn (the last one repeats).
let script: Answer[] = [];
let calls = 0;
// messages.send jobs the code asked for, run by the test itself (see runSendJobs).
const jobs: string[] = [];

beforeAll(async () => {
  graph = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET' && req.url?.includes('/message_templates')) {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            data: [
              {
                id: 't1',
                name: 'hello',
                language: 'en_US',
                status: 'APPROVED',
                category: 'UTILITY',
                components: [{ type: 'BODY', text: 'Hello!' }],
              },
            ],
          }),
        );
        return;
      }
      const answer = script[Math.min(calls, script.length - 1)]!;
      calls += 1;
      res.statusCode = answer.status;
      res.setHeader('content-type', answer.type ?? 'application/json');
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => graph.listen(0, '127.0.0.1', resolve));
  graphUrl = `http://127.0.0.1:${(graph.address() as AddressInfo).port}`;
  t = await createTestApp({ env: { SEND_CONFIRM_WINDOW_MS: '1000' } });
  t.ctx.queue = {
    send: async (_name, data) => {
      jobs.push((data as { messageId: string }).messageId);
      return null;
    },
    insert: async () => {},
    wake() {},
  };
});
afterAll(async () => {
  await t?.close();
  graph?.closeAllConnections();
  graph?.close();
});

async function connected() {
  const ws = await workspaceWithNumber(t, graphUrl);
  await syncTemplates(t.ctx, ws.number);
  return ws;
}

async function message(workspaceId: string, id: string) {
  const { rows } = await t.ctx.db.query<{
    status: string;
    wamid: string | null;
    error_code: number | null;
    error_reason: string | null;
  }>('SELECT status, wamid, error_code, error_reason FROM messages WHERE workspace_id = $1 AND id = $2', [
    workspaceId,
    id,
  ]);
  return rows[0]!;
}

/**
 * Runs the messages.send jobs for one message as pg-boss would, with the clock moved on instead of
 * waited for: a job's lease and confirmation window have run out when it starts, the sweep of
 * abandoned sends runs between jobs, and a transient failure is tried again up to the job's 8 retries.
 */
async function runSendJobs(workspaceId: string, messageId: string) {
  for (let round = 0; round < 12; round++) {
    await t.ctx.db.query(
      `UPDATE messages SET sending_until = sending_until - interval '1 hour',
         unconfirmed_since = unconfirmed_since - interval '1 hour' WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, messageId],
    );
    await sweepAbandonedSends(t.ctx);
    const index = jobs.indexOf(messageId);
    if (index === -1) return;
    jobs.splice(index, 1);
    for (let attempt = 0; ; attempt++) {
      try {
        await retrySend(t.ctx, { workspaceId, messageId }, attempt === 8);
        break;
      } catch (err) {
        if (!(err instanceof TransientSendError)) throw err;
      }
    }
  }
  throw new Error('the send jobs never settled');
}

interface Case {
  answers: Answer[];
  api: { status: number; body: Record<string, unknown> };
  final: Record<string, unknown>;
  calls: number;
}

const to = '14155550123';
const CASES: Record<string, Case> = {
  '404 whose error code is a string': {
    answers: [json(404, metaError('GraphMethodException', 'Unsupported post request'))],
    api: { status: 201, body: { status: 'failed', wamid: null } },
    final: {
      status: 'failed',
      error_code: 0,
      error_reason: 'Unsupported post request (network code GraphMethodException)',
    },
    calls: 1,
  },
  '400 with a numeric code (131026, undeliverable)': {
    answers: [json(400, metaError(131026, 'Message Undeliverable.'))],
    api: { status: 201, body: { status: 'failed' } },
    final: { status: 'failed', error_code: 131026, error_reason: 'Message Undeliverable.' },
    calls: 1,
  },
  '400 with the code as a numeric string': {
    answers: [
      json(400, { error: { ...metaError('131026', 'x').error, error_data: { details: 'Undeliverable' } } }),
    ],
    api: { status: 201, body: { status: 'failed' } },
    final: { status: 'failed', error_code: 131026, error_reason: 'Undeliverable' },
    calls: 1,
  },
  '404 in HTML (no Graph API behind the URL)': {
    answers: [{ status: 404, body: '<html>Not Found</html>', type: 'text/html' }],
    api: { status: 201, body: { status: 'failed' } },
    final: { status: 'failed', error_code: 0, error_reason: 'the network answered 404 without JSON' },
    calls: 1,
  },
  '400 cut off mid-JSON': {
    answers: [{ status: 400, body: '{"error":{"message":"Invalid par' }],
    api: { status: 201, body: { status: 'failed' } },
    final: { status: 'failed', error_code: 0, error_reason: 'the network answered 400 without JSON' },
    calls: 1,
  },
  '500 in HTML, then the network takes it': {
    answers: [html500, happy(to)],
    api: { status: 201, body: { status: 'queued', wamid: null } },
    final: { status: 'accepted', wamid: expect.stringMatching(/^wamid\./) },
    calls: 2,
  },
  '500 in HTML every time: sent again at most twice, then never confirmed': {
    answers: [html500],
    api: { status: 201, body: { status: 'queued', wamid: null } },
    final: { status: 'failed', error_reason: expect.stringMatching(/never confirmed/) },
    calls: 1 + MAX_UNCONFIRMED_RESENDS,
  },
  '500 with a Graph error (code 1), then the network takes it': {
    answers: [json(500, metaError(1, 'An unknown error occurred')), happy(to)],
    api: { status: 201, body: { status: 'queued', wamid: null } },
    final: { status: 'accepted', wamid: expect.stringMatching(/^wamid\./) },
    calls: 2,
  },
  '429 throttled (130429), then taken': {
    answers: [json(429, metaError(130429, 'Rate limit hit')), happy(to)],
    api: { status: 201, body: { status: 'queued', wamid: null } },
    final: { status: 'accepted', wamid: expect.stringMatching(/^wamid\./) },
    calls: 2,
  },
  '400 throttled (130429), then taken': {
    answers: [
      json(400, metaError(130429, 'Rate limit hit')),
      json(400, metaError('130429', 'again')),
      happy(to),
    ],
    api: { status: 201, body: { status: 'queued', wamid: null } },
    final: { status: 'accepted', wamid: expect.stringMatching(/^wamid\./) },
    calls: 3,
  },
  "400 the business account's rate limit (80007), then taken": {
    answers: [json(400, metaError(80007, 'Rate limit issues')), happy(to)],
    api: { status: 201, body: { status: 'queued', wamid: null } },
    final: { status: 'accepted', wamid: expect.stringMatching(/^wamid\./) },
    calls: 2,
  },
  '200 with an empty body': {
    answers: [{ status: 200, body: '' }],
    api: { status: 201, body: { status: 'accepted', wamid: null } },
    final: { status: 'accepted', wamid: null, error_code: null },
    calls: 1,
  },
  '200 that is not JSON': {
    answers: [{ status: 200, body: 'OK', type: 'text/plain' }],
    api: { status: 201, body: { status: 'accepted', wamid: null } },
    final: { status: 'accepted', wamid: null },
    calls: 1,
  },
  '200 JSON without messages[]': {
    answers: [json(200, { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }] })],
    api: { status: 201, body: { status: 'accepted', wamid: null } },
    final: { status: 'accepted', wamid: null },
    calls: 1,
  },
  '200 JSON that is not an object': {
    answers: [json(200, null), json(200, ['x'])],
    api: { status: 201, body: { status: 'accepted', wamid: null } },
    final: { status: 'accepted', wamid: null },
    calls: 1,
  },
  '200 cut off mid-JSON': {
    answers: [{ status: 200, body: '{"messaging_product":"whatsapp","messages":[{"id":"wamid.HBgL' }],
    api: { status: 201, body: { status: 'accepted', wamid: null } },
    final: { status: 'accepted', wamid: null },
    calls: 1,
  },
  '200 past the 1 MiB read cap': {
    answers: [
      { status: 200, body: JSON.stringify({ messages: [{ id: 'wamid.big' }], pad: 'x'.repeat(1 << 20) }) },
    ],
    api: { status: 201, body: { status: 'accepted', wamid: null } },
    final: { status: 'accepted', wamid: null },
    calls: 1,
  },
  '200 with a wamid (the happy answer)': {
    answers: [happy(to)],
    api: { status: 201, body: { status: 'accepted', wamid: expect.stringMatching(/^wamid\./) } },
    final: { status: 'accepted', wamid: expect.stringMatching(/^wamid\./) },
    calls: 1,
  },
};

describe('a send answered by the Graph URL with', () => {
  it.each(Object.entries(CASES))('%s', async (_name, c) => {
    const ws = await connected();
    script = c.answers;
    calls = 0;
    const res = await t.api('POST', '/messages', ws.key, {
      to: `+${to}`,
      template: { name: 'hello', language: 'en_US' },
    });
    expect(res.statusCode).toBe(c.api.status);
    expect(res.json()).toMatchObject(c.api.body);
    const id = res.json().id;
    await runSendJobs(ws.id, id);
    expect(await message(ws.id, id)).toMatchObject(c.final);
    expect(calls).toBe(c.calls);
  });
});

function statusWebhook(number: ConnectedNumber, status: Record<string, unknown>) {
  const raw = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: number.businessAccountId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550100', phone_number_id: number.phoneNumberId },
              statuses: [{ timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: to, ...status }],
            },
          },
        ],
      },
    ],
  });
  return t.app.inject({
    method: 'POST',
    url: `/api/webhooks/whatsapp/${number.id}`,
    payload: raw,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, 'app-secret') },
  });
}

describe('a 200 with an empty body', () => {
  it('is settled by the status webhooks: sent, then delivered, with the wamid they bring', async () => {
    const ws = await connected();
    script = [{ status: 200, body: '' }];
    calls = 0;
    const res = await t.api('POST', '/messages', ws.key, {
      to: `+${to}`,
      template: { name: 'hello', language: 'en_US' },
    });
    const id = res.json().id;
    expect(res.json()).toMatchObject({ status: 'accepted', wamid: null });
    const wamid = 'wamid.settled-by-webhook';
    // The network echoes biz_opaque_callback_data (the message id) in its statuses.
    expect(
      (await statusWebhook(ws.number, { id: wamid, status: 'sent', biz_opaque_callback_data: id }))
        .statusCode,
    ).toBe(200);
    expect(
      (await statusWebhook(ws.number, { id: wamid, status: 'delivered', biz_opaque_callback_data: id }))
        .statusCode,
    ).toBe(200);
    await runSendJobs(ws.id, id);
    expect(await message(ws.id, id)).toMatchObject({ status: 'delivered', wamid, error_code: null });
    expect(calls).toBe(1);
  });
});
