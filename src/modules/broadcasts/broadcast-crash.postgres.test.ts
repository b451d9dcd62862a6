import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Cluster } from '../../../test/support/cluster.js';
import { connectedWorkspace, simControl, simState } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { getBroadcast } from './get-broadcast.js';

// A broadcast delivered by a worker that is killed (SIGKILL) three times mid-way and restarted: every
// recipient gets exactly one message, none twice (the source keys), none missing (the lease, the job
// retried after its heartbeat stops, the sweep).
const RECIPIENTS = 1_500;

let cluster: Cluster;
let ws: Awaited<ReturnType<typeof connectedWorkspace>>;

beforeAll(async () => {
  cluster = await Cluster.start({ apis: 1, workers: 1, env: { SEND_CONFIRM_WINDOW_MS: '20000' } });
  ws = await connectedWorkspace(cluster.t, cluster.base, { messagesPerSecond: 100 });
  simState(cluster.t).statusDelaysMs = [50, -1, -1];
  // Past the simulator's default TIER_1K: the limit is another test's subject.
  await simControl(cluster.base, `/numbers/${ws.number.phoneNumberId}/tier`, {
    messaging_limit_tier: 'TIER_10K',
  });
  await cluster.t.ctx.db.query(
    `INSERT INTO contacts (workspace_id, id, phone, tags)
     SELECT $1, 'ct_crash' || g, '1416555' || lpad(g::text, 4, '0'), ARRAY['crash'] FROM generate_series(1, $2::int) g`,
    [ws.id, RECIPIENTS],
  );
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

it('sends every recipient exactly once through three SIGKILLs of the worker', async () => {
  const res = await fetch(`${cluster.apiUrl(0)}/api/v1/broadcasts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ws.key}` },
    body: JSON.stringify({
      name: 'Crash',
      template: { name: 'welcome', language: 'en' },
      audience: { tags_all: ['crash'] },
      values: {
        body: [
          { from: 'contact', field: 'phone' },
          { from: 'text', text: 'Parley' },
        ],
      },
    }),
  });
  expect(res.status).toBe(201);
  const { broadcast } = (await res.json()) as { broadcast: { id: string } };
  const sentSoFar = () => simState(cluster.t).messages.filter((m) => m.to.startsWith('1416555')).length;
  for (let kill = 0; kill < 3; kill++) {
    const before = sentSoFar();
    await until(() => sentSoFar() > before + 100, 60_000);
    await cluster.kill('worker', 0);
    await sleep(500);
    await cluster.startWorker(0);
  }
  const done = await until(async () => {
    const b = await getBroadcast(cluster.t.ctx.db, ws.id, broadcast.id);
    return b.status === 'completed' && b;
  }, 120_000).catch(async (err) => {
    const db = cluster.t.ctx.db;
    console.log(JSON.stringify(await getBroadcast(db, ws.id, broadcast.id)));
    console.log(
      JSON.stringify(
        (
          await db.query(
            `SELECT status, lease_until, now() AS now, snapshot_done, updated_at FROM broadcasts WHERE id = $1`,
            [broadcast.id],
          )
        ).rows,
      ),
    );
    console.log(
      JSON.stringify(
        (
          await db.query(
            `SELECT r.state, m.status, count(*) FROM broadcast_recipients r LEFT JOIN messages m ON m.workspace_id = r.workspace_id AND m.id = r.message_id WHERE r.broadcast_id = $1 GROUP BY 1, 2`,
            [broadcast.id],
          )
        ).rows,
      ),
    );
    console.log(
      JSON.stringify(
        (
          await db.query(
            `SELECT name, state, count(*) FROM pgboss.job WHERE name LIKE 'broadcasts%' GROUP BY 1, 2`,
          )
        ).rows,
      ),
    );
    throw err;
  });
  expect(done.counts).toMatchObject({
    audience: RECIPIENTS,
    sent: RECIPIENTS,
    failed: 0,
    skipped: 0,
    queued: 0,
  });
  const perPhone = new Map<string, number>();
  for (const m of simState(cluster.t).messages.filter((m) => m.to.startsWith('1416555')))
    perPhone.set(m.to, (perPhone.get(m.to) ?? 0) + 1);
  expect(perPhone.size).toBe(RECIPIENTS);
  expect([...perPhone.entries()].filter(([, count]) => count !== 1)).toEqual([]);
}, 300_000);
