import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Cluster } from '../../../test/support/cluster.js';
import { connectedWorkspace, simControl, simState } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { getBroadcast } from './get-broadcast.js';

// A MARKETING broadcast whose worker is killed (SIGKILL) twice mid-way; after each kill, contacts
// whose message the dead worker had stored but not yet sent opt out (and one not yet released). The
// next worker sends the stored ones again (the resend path), which checks the opt-out again: nothing
// reaches them, and they are counted skipped; everyone else gets exactly one message.
const RECIPIENTS = 600;
const PREFIX = '1416777';

let cluster: Cluster;
let ws: Awaited<ReturnType<typeof connectedWorkspace>>;

beforeAll(async () => {
  cluster = await Cluster.start({ apis: 1, workers: 1, env: { SEND_CONFIRM_WINDOW_MS: '10000' } });
  ws = await connectedWorkspace(cluster.t, cluster.base, { messagesPerSecond: 50 });
  simState(cluster.t).statusDelaysMs = [50, -1, -1];
  await simControl(cluster.base, `/numbers/${ws.number.phoneNumberId}/tier`, {
    messaging_limit_tier: 'TIER_10K',
  });
  await cluster.t.ctx.db.query(
    `INSERT INTO contacts (workspace_id, id, phone, tags)
     SELECT $1, 'ct_optout' || g, $3 || lpad(g::text, 4, '0'), ARRAY['optout'] FROM generate_series(1, $2::int) g`,
    [ws.id, RECIPIENTS, PREFIX],
  );
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

const sentTo = (phones: string[]) => simState(cluster.t).messages.filter((m) => phones.includes(m.to));

/**
 * Opts out through REST v1 five contacts whose message is stored, still queued and not at the network
 * (the dead worker's, waiting for their resend), and one whose message is not yet stored.
 */
async function optOutWhileDelivering(broadcastId: string) {
  const { rows } = await cluster.t.ctx.db.query<{ phone: string; stored: boolean }>(
    `(SELECT m.phone, true AS stored FROM messages m JOIN contacts c ON c.workspace_id = m.workspace_id AND c.id = m.contact_id
      WHERE m.workspace_id = $1 AND m.source_key LIKE $2 AND m.status_rank = 0 AND NOT c.opted_out)
     UNION ALL
     (SELECT r.phone, false FROM broadcast_recipients r JOIN contacts c ON c.workspace_id = r.workspace_id AND c.id = r.contact_id
      WHERE r.workspace_id = $1 AND r.broadcast_id = $3 AND r.state IN ('pending', 'releasing') AND NOT c.opted_out
        AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.workspace_id = $1 AND m.source_key = $4 || r.contact_id)
      ORDER BY r.contact_id DESC LIMIT 1)`,
    [ws.id, `broadcast:${broadcastId}:%`, broadcastId, `broadcast:${broadcastId}:`],
  );
  const unsent = rows.filter((r) => r.stored && sentTo([r.phone]).length === 0).slice(0, 5);
  expect(unsent).toHaveLength(5);
  const phones = [...unsent, ...rows.filter((r) => !r.stored)].map((r) => r.phone);
  await Promise.all(
    phones.map(async (phone) => {
      const res = await fetch(`${cluster.apiUrl(0)}/api/v1/contacts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ws.key}` },
        body: JSON.stringify({ phone: `+${phone}`, opted_out: true }),
      });
      expect(res.status).toBe(200);
    }),
  );
  return phones;
}

it('sends nothing to a contact after their opt-out, through two SIGKILLs of the worker', async () => {
  const res = await fetch(`${cluster.apiUrl(0)}/api/v1/broadcasts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ws.key}` },
    body: JSON.stringify({
      name: 'Opt-out under crashes',
      template: { name: 'welcome', language: 'en' },
      audience: { tags_all: ['optout'] },
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
  const sentSoFar = () => simState(cluster.t).messages.filter((m) => m.to.startsWith(PREFIX)).length;

  const optedOut: string[] = [];
  for (let kill = 0; kill < 2; kill++) {
    const before = sentSoFar();
    await until(() => sentSoFar() > before + 100, 60_000);
    await cluster.kill('worker', 0);
    // What the dead worker had on its way has reached the network by now.
    await sleep(500);
    optedOut.push(...(await optOutWhileDelivering(broadcast.id)));
    await cluster.startWorker(0);
  }
  expect(new Set(optedOut).size).toBe(12);

  const done = await until(async () => {
    const b = await getBroadcast(cluster.t.ctx.db, ws.id, broadcast.id);
    return b.status === 'completed' && b;
  }, 180_000);
  expect(sentTo(optedOut)).toEqual([]);
  expect(done.counts).toMatchObject({
    audience: RECIPIENTS,
    sent: RECIPIENTS - optedOut.length,
    skipped: optedOut.length,
    failed: 0,
    queued: 0,
  });
  const perPhone = new Map<string, number>();
  for (const m of simState(cluster.t).messages.filter((m) => m.to.startsWith(PREFIX)))
    perPhone.set(m.to, (perPhone.get(m.to) ?? 0) + 1);
  expect([...perPhone.values()].filter((count) => count !== 1)).toEqual([]);
}, 400_000);
