import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest } from '../src/modules/automation/steps/http-request.js';
import { CloudApiClient, CloudApiError } from '../src/modules/messaging/cloud-api/client.js';
import { deliverWebhook } from '../src/modules/webhooks/deliver.js';
import { createEndpoint } from '../src/modules/webhooks/endpoints.js';
import { testAppForTests } from './support/app.js';
import { until } from './support/until.js';

/**
 * A server whose answer never ends: it writes as fast as the reader takes it, and counts what it
 * wrote. A caller that reads whole bodies would take megabytes per second until its timeout.
 */
function endlessServer() {
  const chunk = Buffer.alloc(64 * 1024, '7');
  const state = { status: 200, sent: 0, closed: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(state.status, { 'content-type': 'application/json' });
    res.write('{"messages":[{"id":"');
    const pump = () => {
      while (!res.destroyed) {
        state.sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    res.on('close', () => state.closed++);
    pump();
  });
  return {
    state,
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    },
    stop() {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

// Far below what a whole read would take in the time allowed (several seconds at hundreds of MB/s),
// above what the socket buffers hold when the reader stops.
const MOST_SENT = 32 * 1024 * 1024;

const t = testAppForTests({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
const endless = endlessServer();
let url: string;
beforeAll(async () => {
  url = await endless.start();
});
afterAll(async () => {
  await endless.stop();
});

async function timed<T>(call: () => Promise<T>): Promise<{ result: T | Error; ms: number }> {
  const before = endless.state.closed;
  endless.state.sent = 0;
  const started = Date.now();
  const result = await call().catch((err: Error) => err);
  const ms = Date.now() - started;
  await until(() => endless.state.closed > before, 2_000);
  expect(endless.state.sent).toBeLessThan(MOST_SENT);
  return { result, ms };
}

describe('an endless answer is cut off at a cap', () => {
  const graph = () =>
    new CloudApiClient({ baseUrl: url, version: 'v21.0', accessToken: 't', timeoutMs: 20_000 });

  it('Graph API: a 2xx past the cap is the network taking the message, without naming it', async () => {
    endless.state.status = 200;
    const { result, ms } = await timed(() => graph().send('123', { type: 'text', to: '1', text: 'hi' }));
    expect(ms).toBeLessThan(3_000);
    expect(result).toEqual({ wamid: null, waId: null });
  });

  it('Graph API: a 5xx past the cap is transient, its outcome unknown', async () => {
    endless.state.status = 503;
    const { result, ms } = await timed(() => graph().listTemplates('waba'));
    expect(ms).toBeLessThan(3_000);
    expect(result).toBeInstanceOf(CloudApiError);
    expect(result).toMatchObject({ httpStatus: 503, transient: true, unconfirmed: true });
  });

  it('HTTP step: records the status and the first 2,048 characters', async () => {
    endless.state.status = 200;
    const ws = await t.workspace();
    const { result, ms } = await timed(() =>
      httpRequest(
        {
          ctx: t.ctx,
          db: t.ctx.db,
          workspaceId: ws.id,
          runId: 'run_x',
          contactId: null,
          leadId: null,
          scope: {},
          key: 'run_x/s1',
        },
        { method: 'GET', url: `${url}/big`, timeout_ms: 20_000 },
      ),
    );
    expect(ms).toBeLessThan(3_000);
    expect(result).toEqual({
      status: 'done',
      outcome: { status_code: 200, body: `{"messages":[{"id":"${'7'.repeat(2048 - 20)}` },
    });
  });

  it('webhook delivery: a 2xx is delivered without reading the answer through', async () => {
    endless.state.status = 200;
    const ws = await t.workspace();
    const { id } = await createEndpoint(t.ctx, ws.id, `${url}/hooks`);
    await t.ctx.db.query(
      `INSERT INTO webhook_deliveries (workspace_id, id, endpoint_id, event_type, event_key, payload)
       VALUES ($1, 'evt_big', $2, 'message.status', 'k', '{}')`,
      [ws.id, id],
    );
    const { result, ms } = await timed(() =>
      deliverWebhook(t.ctx, { workspaceId: ws.id, deliveryId: 'evt_big' }, true),
    );
    expect(ms).toBeLessThan(3_000);
    expect(result).toBeUndefined();
    const { rows } = await t.ctx.db.query<{ status: string; last_status: number }>(
      "SELECT status, last_status FROM webhook_deliveries WHERE id = 'evt_big'",
    );
    expect(rows[0]).toEqual({ status: 'delivered', last_status: 200 });
  });
});
