import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { simControl, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { queueIdle } from '../../../test/support/queue-idle.js';
import { until } from '../../../test/support/until.js';
import { DatabaseUnreachableError } from '../../db/outage.js';
import { jobCatalog } from '../../jobs/catalog.js';
import { deliver, statusPayload } from '../../simulator/webhooks.js';
import { CloudApiClient, type CloudApiError } from './cloud-api/client.js';
import { MAX_UNCONFIRMED_RESENDS, retrySend } from './retry-send.js';
import { sweepAbandonedSends } from './sweep-sends.js';

// The messages.send job. The Cloud API has no idempotency key: a send whose answer is lost may have
// gone out, so these tests also make the simulator lose answers and check that Parley waits for the
// status webhook instead of sending the message a second time.
const t = simulatorAppForTests({ queue: true, env: { SEND_CONFIRM_WINDOW_MS: '1000' } });
afterEach(async () => {
  await simControl(t.base, '/control', { lostAnswerRate: 0, status_delays_ms: [20, 40, 60] });
});

const welcome = (to: string) => ({ to, template: { name: 'welcome', language: 'en', body: ['A', 'B'] } });

async function message(workspaceId: string, id: string, app = t) {
  const { rows } = await app.ctx.db.query<{
    status: string;
    wamid: string | null;
    error_reason: string | null;
    unconfirmed_since: Date | null;
  }>(
    'SELECT status, wamid, error_reason, unconfirmed_since FROM messages WHERE workspace_id = $1 AND id = $2',
    [workspaceId, id],
  );
  return rows[0]!;
}

/** A queued message as a sender leaves it, its send lease running out `leaseEnds` from now. */
async function storeQueued(ws: { id: string; key: string }, id: string, phone: string, leaseEnds: string) {
  const contact = await t.api('POST', '/contacts', ws.key, { phone: `+${phone}` });
  await t.ctx.db.query(
    `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, template_name, template_language,
       template_values, status, status_rank, sending_until)
     VALUES ($1, $2, 'outbound', $3, $4, 'template', 'hello', 'en_US', '[]', 'queued', 0, now() + $5::interval)`,
    [ws.id, id, contact.json().id, phone, leaseEnds],
  );
}

async function sendJobsSettled(messageId: string, app = t) {
  const { rows } = await app.ctx.db.query<{ open: number; done: number }>(
    `SELECT count(*) FILTER (WHERE state IN ('created', 'retry', 'active'))::int AS open,
            count(*) FILTER (WHERE state = 'completed')::int AS done
     FROM pgboss.job WHERE name = 'messages.send' AND data->>'messageId' = $1`,
    [messageId],
  );
  return rows[0]!.open === 0 && rows[0]!.done > 0;
}

describe("a send under another attempt's lease", () => {
  // Found by the crash test: a job that met another attempt's lease ended there, and when that attempt's
  // process had died the message stayed queued for ever.
  it('comes back when another attempt holds the lease, and sends the message once it has run out', async () => {
    const ws = await t.connectedWorkspace();
    const messageId = 'msg_leasedbyadeadprocess';
    await storeQueued(ws, messageId, '14155550999', '2 seconds');
    await retrySend(t.ctx, { workspaceId: ws.id, messageId }, false);
    expect(simState(t).messages.filter((m) => m.to === '14155550999')).toEqual([]);

    await until(async () => (await message(ws.id, messageId)).status !== 'queued', 20_000);
    await queueIdle(t.ctx.db, ['messages.send']);
    expect(simState(t).messages.filter((m) => m.to === '14155550999')).toHaveLength(1);
  });
});

describe('a send whose answer is lost', () => {
  it('is confirmed by the status webhook naming it, and not sent again', async () => {
    const ws = await t.connectedWorkspace();
    await simControl(t.base, '/control', { lostAnswerRate: 1, status_delays_ms: [20, -1, -1] });
    const res = await t.api('POST', '/messages', ws.key, welcome('+14155550301'));
    expect(res.statusCode).toBe(201);
    const sent = res.json();
    expect(sent).toMatchObject({ status: 'queued', wamid: null });

    const atNetwork = () => simState(t).messages.filter((m) => m.to === '14155550301');
    await until(async () => (await message(ws.id, sent.id)).status === 'sent', 10_000);
    expect(await message(ws.id, sent.id)).toMatchObject({
      status: 'sent',
      wamid: atNetwork()[0]!.wamid,
      unconfirmed_since: null,
    });
    // The retry queued for the lost answer has run, and found nothing to send.
    await until(() => sendJobsSettled(sent.id), 15_000);
    expect(atNetwork()).toHaveLength(1);
    expect(atNetwork()[0]!.callbackData).toBe(sent.id);
  });

  it('with no confirmation, is sent again after the window, at most twice more, then failed', async () => {
    const ws = await t.connectedWorkspace();
    await simControl(t.base, '/control', { lostAnswerRate: 1, status_delays_ms: [-1, -1, -1] });
    const res = await t.api('POST', '/messages', ws.key, welcome('+14155550302'));
    expect(res.json().status).toBe('queued');
    const id = res.json().id;

    await until(async () => (await message(ws.id, id)).status === 'failed', 30_000);
    const atNetwork = simState(t).messages.filter((m) => m.to === '14155550302');
    expect(atNetwork).toHaveLength(1 + MAX_UNCONFIRMED_RESENDS);
    expect((await message(ws.id, id)).error_reason).toMatch(/never confirmed/);

    // A late status for any of those sends still tells the truth: the message went out.
    await simControl(t.base, '/status', { wamid: atNetwork[1]!.wamid, status: 'delivered' });
    expect(await message(ws.id, id)).toMatchObject({ status: 'delivered', wamid: atNetwork[1]!.wamid });
  }, 60_000);

  it("is confirmed only through its own workspace's number", async () => {
    const mine = await t.connectedWorkspace();
    const other = await t.connectedWorkspace();
    await simControl(t.base, '/control', { lostAnswerRate: 1, status_delays_ms: [-1, -1, -1] });
    const theirs = (await t.api('POST', '/messages', other.key, welcome('+14155550303'))).json();
    const statusNaming = (number: { phoneNumberId: string }) => {
      const sim = simState(t).numbers.get(number.phoneNumberId)!;
      const status = {
        id: 'wamid.forged',
        status: 'read' as const,
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: '14155550303',
        biz_opaque_callback_data: theirs.id,
      };
      return deliver(sim, statusPayload(sim, status));
    };
    expect(await statusNaming(mine.number)).toBe(200);
    expect(await message(other.id, theirs.id)).toMatchObject({ status: 'queued', wamid: null });
    expect(await statusNaming(other.number)).toBe(200);
    expect(await message(other.id, theirs.id)).toMatchObject({ status: 'read', wamid: 'wamid.forged' });
  });
});

describe('timed by the queue', () => {
  // The window (4 s) outlasts the 2 s after which a lost answer's job first runs: only the window's
  // own guard in retrySend holds that job back. Retries wait at most 1 s, so a job's last try comes
  // within seconds.
  const WINDOW_MS = 4_000;
  const w = simulatorAppForTests({
    queue: true,
    env: { SEND_CONFIRM_WINDOW_MS: String(WINDOW_MS), JOB_RETRY_DELAY_MAX_SECONDS: '1' },
  });
  afterEach(async () => {
    await simControl(w.base, '/control', {
      lostAnswerRate: 0,
      failNext: 0,
      failNextCode: 130429,
      status_delays_ms: [20, 40, 60],
    });
  });

  describe('the confirmation window of a send whose answer is lost', () => {
    it('is sent again only once the window after the lost attempt has passed', async () => {
      const ws = await w.connectedWorkspace();
      await simControl(w.base, '/control', { lostAnswerRate: 1, status_delays_ms: [-1, -1, -1] });
      const res = await w.api('POST', '/messages', ws.key, welcome('+14155550321'));
      expect(res.json()).toMatchObject({ status: 'queued', wamid: null });

      const attempts = () => simState(w).attempts.filter((a) => a.to === '14155550321');
      await until(() => attempts().length >= 2, 20_000);
      const [first, second] = attempts();
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(WINDOW_MS);
    }, 30_000);

    it('confirmed late within the window, is not sent again', async () => {
      const ws = await w.connectedWorkspace();
      // The `sent` status comes 3 s after the send: after the job's first turn, inside the window.
      await simControl(w.base, '/control', { lostAnswerRate: 1, status_delays_ms: [3_000, -1, -1] });
      const res = await w.api('POST', '/messages', ws.key, welcome('+14155550322'));
      expect(res.json()).toMatchObject({ status: 'queued', wamid: null });
      const id = res.json().id;

      const status = async () =>
        (await w.ctx.db.query<{ status: string }>('SELECT status FROM messages WHERE id = $1', [id])).rows[0]!
          .status;
      await until(async () => (await status()) === 'sent', 10_000);
      // The job held back by the window has come back after it, and found the message confirmed.
      await until(() => sendJobsSettled(id, w), 15_000);
      expect(simState(w).messages.filter((m) => m.to === '14155550322')).toHaveLength(1);
    }, 30_000);
  });

  describe('a send the network keeps failing', () => {
    it("is tried up to the queue's last retry, then failed with its message.status event", async () => {
      const ws = await w.connectedWorkspace();
      await w.ctx.db.query(
        `INSERT INTO webhook_endpoints (workspace_id, id, url, secret_enc, events)
         VALUES ($1, 'we_status', 'https://hook.invalid/parley', 'unused', '{message.status}')`,
        [ws.id],
      );
      // HTTP 500 with Graph code 1 to every attempt: transient each time, never a refusal.
      await simControl(w.base, '/control', { failNext: 1_000, failNextCode: 1 });
      const res = await w.api('POST', '/messages', ws.key, welcome('+14155550331'));
      expect(res.json()).toMatchObject({ status: 'queued', wamid: null });
      const id = res.json().id;

      await until(async () => (await message(ws.id, id, w)).status !== 'queued', 60_000);
      expect(await message(ws.id, id, w)).toMatchObject({
        status: 'failed',
        error_reason: 'the network kept failing; retries exhausted',
      });
      // The request's attempt, then the job's first try and each of its retries.
      const attempts = simState(w).attempts.filter((a) => a.to === '14155550331');
      expect(attempts.map((a) => a.code)).toEqual(Array(2 + jobCatalog['messages.send'].retryLimit).fill(1));
      const { rows } = await w.ctx.db.query<{ payload: { data: Record<string, unknown> } }>(
        `SELECT payload FROM webhook_deliveries WHERE workspace_id = $1 AND event_type = 'message.status'`,
        [ws.id],
      );
      expect(rows.map((r) => r.payload.data)).toEqual([
        {
          id,
          wamid: null,
          status: 'failed',
          callback_data: null,
          error: { code: 1, reason: 'the network kept failing; retries exhausted' },
        },
      ]);
      await until(() => sendJobsSettled(id, w), 10_000);
    }, 90_000);
  });
});

describe('a send the network took while the database could not record it', () => {
  // Found by the pacing bench: 5,000 sends at once left no free connection to write `accepted`, the
  // attempt failed and, with no status webhook, the job sent the message a second time.
  it('is recorded once the database answers, and never sent again', async () => {
    const ws = await t.connectedWorkspace();
    await simControl(t.base, '/control', { status_delays_ms: [-1, -1, -1] });
    const query = t.ctx.db.query;
    let refused = 0;
    t.ctx.db.query = (async (text: string, params?: unknown[]) => {
      if (text.includes("status = 'accepted'") && refused < 3) {
        refused++;
        throw new DatabaseUnreachableError();
      }
      return query(text, params);
    }) as typeof query;
    try {
      const res = await t.api('POST', '/messages', ws.key, welcome('+14155550401'));
      expect(res.statusCode).toBe(201);
      const { id } = res.json();
      await until(async () => (await message(ws.id, id)).status === 'accepted', 20_000);
      expect(refused).toBe(3);
      // Past the confirmation window (1 s here) and the send job's turn: nothing goes out again.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await queueIdle(t.ctx.db, ['messages.send']);
      const atNetwork = simState(t).messages.filter((m) => m.to === '14155550401');
      expect(atNetwork).toHaveLength(1);
      expect((await message(ws.id, id)).wamid).toBe(atNetwork[0]!.wamid);
    } finally {
      t.ctx.db.query = query;
    }
  });
});

describe('the sweep of abandoned sends', () => {
  it('hands a queued message whose sender died to the send job, once', async () => {
    const ws = await t.connectedWorkspace();
    await storeQueued(ws, 'msg_abandoned', '14155550305', '-5 minutes');
    expect(await sweepAbandonedSends(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await sweepAbandonedSends(t.ctx)).toBe(0);
    await until(async () => (await message(ws.id, 'msg_abandoned')).status !== 'queued', 10_000);
    await queueIdle(t.ctx.db, ['messages.send']);
    expect(simState(t).messages.filter((m) => m.to === '14155550305')).toHaveLength(1);
  });

  it('takes every abandoned send in one pass, a round at a time', async () => {
    const ws = await t.connectedWorkspace();
    const phones = ['14155550311', '14155550312', '14155550313', '14155550314', '14155550315'];
    for (const [i, phone] of phones.entries())
      await storeQueued(ws, `msg_abandoned${i}`, phone, '-5 minutes');
    // Rounds of 2: a pass that stopped after its first round would find 2.
    expect(await sweepAbandonedSends(t.ctx, 2)).toBe(5);
    expect(await sweepAbandonedSends(t.ctx, 2)).toBe(0);
    for (const [i] of phones.entries())
      await until(async () => (await message(ws.id, `msg_abandoned${i}`)).status !== 'queued', 10_000);
    await queueIdle(t.ctx.db, ['messages.send']);
    for (const phone of phones) expect(simState(t).messages.filter((m) => m.to === phone)).toHaveLength(1);
  });
});

describe('the Cloud API client', () => {
  const client = (baseUrl: string, timeoutMs = 2_000) =>
    new CloudApiClient({ baseUrl, version: 'v21.0', accessToken: 'x', timeoutMs });
  const text = { type: 'text' as const, to: '14155550306', text: 'hi' };
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (err: CloudApiError) => err,
    );

  it('knows a refused connection sent nothing, and a cut or silent one may have', async () => {
    const server = createServer((req) => {
      if (req.url?.includes('/cut/')) req.socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const cut = await failure(client(`http://127.0.0.1:${port}/cut`).send('1', text));
      expect(cut).toMatchObject({ transient: true, unconfirmed: true });
      const silent = await failure(client(`http://127.0.0.1:${port}/silent`, 300).send('1', text));
      expect(silent).toMatchObject({ transient: true, unconfirmed: true });
    } finally {
      server.closeAllConnections();
      server.close();
    }
    const refused = await failure(client(`http://127.0.0.1:${port}`).send('1', text));
    expect(refused).toMatchObject({ transient: true, unconfirmed: false });
  });
});
