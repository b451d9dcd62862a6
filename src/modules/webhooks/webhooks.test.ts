import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { simHeaders, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { queueIdle, unfinishedJobs } from '../../../test/support/queue-idle.js';
import { until } from '../../../test/support/until.js';
import { deliverWebhook } from './deliver.js';
import { createEndpoint } from './endpoints.js';
import { isPublicAddress } from './safe-fetch.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A customer's endpoint: records what arrives, answers with the statuses queued in `answers`. */
function receiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(answers.shift() ?? 200).end();
    });
  });
  return {
    received,
    answers,
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
    },
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const t = simulatorAppForTests({ queue: true, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
const hooks = receiver();
let hookUrl: string;
beforeAll(async () => {
  hookUrl = await hooks.start();
  simState(t).statusDelaysMs = [-1, -1, -1];
});
afterAll(async () => {
  await hooks.stop();
});

describe('outbound webhooks', () => {
  it('delivers message.status with callback_data and message.received, signed per Standard Webhooks', async () => {
    const ws = await t.connectedWorkspace();
    const { secret } = await createEndpoint(t.ctx, ws.id, hookUrl);
    const sent = (
      await t.api('POST', '/messages', ws.key, {
        to: '+14155552671',
        template: { name: 'hello', language: 'en_US' },
        callback_data: 'order-42',
      })
    ).json();
    await fetch(`${t.base}/_sim/status`, {
      method: 'POST',
      headers: simHeaders,
      body: JSON.stringify({ wamid: sent.wamid, status: 'delivered' }),
    });
    // Accepted is announced first; the delivered status follows.
    const status = await until(() =>
      hooks.received.find((r) => r.body.includes(sent.id) && r.body.includes('"delivered"')),
    );
    const verified = new Webhook(secret).verify(status.body, {
      'webhook-id': String(status.headers['webhook-id']),
      'webhook-timestamp': String(status.headers['webhook-timestamp']),
      'webhook-signature': String(status.headers['webhook-signature']),
    }) as { type: string; data: Record<string, unknown> };
    expect(verified).toMatchObject({
      type: 'message.status',
      data: { id: sent.id, wamid: sent.wamid, status: 'delivered', callback_data: 'order-42' },
    });
    expect(() =>
      new Webhook(`whsec_${Buffer.from('other-secret-000000').toString('base64')}`).verify(status.body, {
        'webhook-id': String(status.headers['webhook-id']),
        'webhook-timestamp': String(status.headers['webhook-timestamp']),
        'webhook-signature': String(status.headers['webhook-signature']),
      }),
    ).toThrow();

    await fetch(`${t.base}/_sim/inbound`, {
      method: 'POST',
      headers: simHeaders,
      body: JSON.stringify({
        from: '14155552671',
        text: 'thanks!',
        phone_number_id: ws.number.phoneNumberId,
      }),
    });
    const inbound = await until(() => hooks.received.find((r) => r.body.includes('thanks!')));
    expect(JSON.parse(inbound.body)).toMatchObject({
      type: 'message.received',
      data: { from: '14155552671', text: 'thanks!' },
    });
  });

  it('retries a failing endpoint with the same webhook-id until it answers 2xx', async () => {
    const ws = await t.connectedWorkspace();
    await createEndpoint(t.ctx, ws.id, hookUrl, ['message.received']);
    hooks.answers.push(500);
    const before = hooks.received.length;
    await fetch(`${t.base}/_sim/inbound`, {
      method: 'POST',
      headers: simHeaders,
      body: JSON.stringify({
        from: '14155559999',
        text: 'retry me',
        phone_number_id: ws.number.phoneNumberId,
      }),
    });
    const attempts = await until(() => {
      const mine = hooks.received.slice(before).filter((r) => r.body.includes('retry me'));
      return mine.length >= 2 ? mine : undefined;
    }, 30_000);
    expect(attempts[0]!.headers['webhook-id']).toBe(attempts[1]!.headers['webhook-id']);
    // The receiver saw the second attempt; its outcome is recorded right after the answer.
    const deliveries = async () =>
      (
        await t.ctx.db.query<{ status: string; attempts: number }>(
          "SELECT status, attempts FROM webhook_deliveries WHERE workspace_id = $1 AND event_type = 'message.received'",
          [ws.id],
        )
      ).rows;
    await until(async () => (await deliveries())[0]?.status === 'delivered');
    // No third attempt may follow a delivered one: nothing is running, due, or set for later.
    await queueIdle(t.ctx.db, ['webhooks.deliver']);
    expect(await unfinishedJobs(t.ctx.db, ['webhooks.deliver'])).toBe(0);
    expect(await deliveries()).toEqual([{ status: 'delivered', attempts: 2 }]);
    expect(hooks.received.slice(before).filter((r) => r.body.includes('retry me'))).toHaveLength(2);
  });

  it('refuses a private or loopback endpoint when it is added, naming the setting that allows it', async () => {
    const strict = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'false' } });
    try {
      const { client } = await workspaceWithOwner(strict);
      for (const url of [
        hookUrl,
        'http://10.1.2.3/hook',
        'https://[::1]/hook',
        'http://app.localhost/hook',
      ]) {
        const res = await client.call('POST', '/webhooks', { url });
        expect(res.statusCode, url).toBe(422);
        const { error } = res.json();
        expect(error.details).toEqual([
          { field: 'url', message: expect.stringContaining('WEBHOOKS_ALLOW_PRIVATE=true') },
        ]);
        expect(error.message).toMatch(/is a private or local address/);
      }
      expect((await client.call('GET', '/webhooks')).json().endpoints ?? []).toEqual([]);
      // A name that does not resolve is left to the check at each delivery.
      const unresolved = await client.call('POST', '/webhooks', { url: 'https://hooks.example.invalid/x' });
      expect(unresolved.statusCode).toBe(201);
    } finally {
      await strict.close();
    }
  });

  it('refuses delivery to private and loopback targets unless the operator allows them', async () => {
    // An endpoint added while they were allowed, or whose name now resolves to a private address.
    const strict = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'false' } });
    try {
      const ws = await strict.workspace();
      const id = 'we_private';
      await strict.ctx.db.query(
        'INSERT INTO webhook_endpoints (workspace_id, id, url, secret_enc, events) VALUES ($1, $2, $3, $4, $5)',
        [ws.id, id, hookUrl, strict.ctx.secrets.seal('whsec_c2VjcmV0c2VjcmV0c2VjcmV0'), ['message.status']],
      );
      await strict.ctx.db.query(
        `INSERT INTO webhook_deliveries (workspace_id, id, endpoint_id, event_type, event_key, payload)
         VALUES ($1, 'evt_x', $2, 'message.status', 'k', '{}')`,
        [ws.id, id],
      );
      const before = hooks.received.length;
      await deliverWebhook(strict.ctx, { workspaceId: ws.id, deliveryId: 'evt_x' }, true);
      const { rows } = await strict.ctx.db.query<{ status: string; last_error: string }>(
        "SELECT status, last_error FROM webhook_deliveries WHERE id = 'evt_x'",
      );
      expect(rows[0]).toMatchObject({
        status: 'failed',
        last_error: expect.stringMatching(/private address/),
      });
      expect(hooks.received.length).toBe(before);
    } finally {
      await strict.close();
    }
  });

  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['192.168.1.1', false],
    ['172.16.0.1', false],
    ['169.254.169.254', false],
    ['::1', false],
    ['::ffff:127.0.0.1', false],
    ['fd00::1', false],
    ['0.0.0.0', false],
    ['8.8.8.8', true],
    ['2606:4700::1111', true],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
