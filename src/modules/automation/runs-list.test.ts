import { describe, expect, it } from 'vitest';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { connectSimulator, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';

const t = simulatorAppForTests({ queue: true });

type Client = Awaited<ReturnType<typeof workspaceWithOwner>>['client'];

/** A published webhook sequence whose first step sends free text, then tags. */
async function textSequence(client: Client) {
  const definition = {
    name: 'Say hi',
    trigger: { type: 'webhook' },
    steps: [
      { id: 'hello', type: 'send_text', text: 'Hi {{lead.name}}' },
      { id: 'done', type: 'update_lead_status', status: 'contacted' },
    ],
  };
  const { id } = (
    await client.call('POST', '/automations', { kind: 'sequence', definition, publish: true })
  ).json();
  const { automation } = (await client.call('GET', `/automations/${id}`)).json();
  const intake = async (payload: Record<string, string>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/automation/webhooks/${id}/${automation.webhook.secret}`,
      payload,
    });
    expect(res.statusCode, res.body).toBe(202);
    return res.json().run_id as string;
  };
  return { id, automation, intake };
}

const finished = (client: Client, runId: string) =>
  until(async () => {
    const { run } = (await client.call('GET', `/runs/${runId}`)).json();
    return ['completed', 'failed'].includes(run.status) && run;
  });

describe('a free-text step in a webhook sequence', () => {
  it('is flagged in the builder before publishing; a flow with one is not', async () => {
    const { client } = await workspaceWithOwner(t);
    const { automation } = await textSequence(client);
    expect(automation.warnings).toEqual([
      { step: 'hello', message: expect.stringMatching(/24-hour window.*the run ends there/) },
    ]);
    const flow = {
      name: 'Reply',
      trigger: { type: 'event', event: 'x' },
      steps: [{ id: 'hello', type: 'send_text', text: 'Hi' }],
    };
    const { id } = (await client.call('POST', '/automations', { kind: 'flow', definition: flow })).json();
    expect((await client.call('GET', `/automations/${id}`)).json().automation.warnings).toEqual([]);
  });

  it('is skipped with its reason when the lead has no phone or the window is closed, and the run says so', async () => {
    const { client, workspaceId } = await workspaceWithOwner(t);
    await connectSimulator(t, t.base, workspaceId);
    const { intake } = await textSequence(client);

    const noPhone = await finished(client, await intake({ name: 'Ana', email: 'ana@example.com' }));
    expect(noPhone).toMatchObject({ status: 'completed', skipped_steps: 1, contact_id: null });
    expect(noPhone.skipped_reason).toMatch(/no contact with a phone/);
    expect(noPhone.steps).toMatchObject([
      { step_id: 'hello', status: 'skipped', outcome: { sent: false, code: 'no_phone' } },
    ]);
    expect(noPhone.definition.steps[0]).toMatchObject({ id: 'hello', text: 'Hi {{lead.name}}' });

    const closed = await finished(client, await intake({ name: 'Ben', phone: '+14155552671' }));
    expect(closed).toMatchObject({
      status: 'completed',
      skipped_steps: 1,
      contact_name: 'Ben',
      contact_phone: '14155552671',
    });
    expect(closed.steps).toMatchObject([
      { step_id: 'hello', status: 'skipped', outcome: { code: 'outside_window' } },
    ]);
    expect(closed.skipped_reason).toMatch(/24-hour window was closed/);
  });
});

describe('GET /api/app/runs', () => {
  it('lists runs newest first with their contact, by status, a page at a time', async () => {
    const { client } = await workspaceWithOwner(t);
    const { intake } = await textSequence(client);
    const first = await intake({ name: 'Ana', phone: '+14155552671' });
    const second = await intake({ name: 'Ben', email: 'ben@example.com' });
    await finished(client, first);
    await finished(client, second);
    const all = (await client.call('GET', '/runs')).json();
    expect(all.runs.map((r: { id: string }) => r.id)).toEqual([second, first]);
    expect(all.has_next_page).toBe(false);
    // No connected number: the text to Ana fails the run; Ben has no phone, so his is skipped.
    expect(all.runs[1]).toMatchObject({
      status: 'failed',
      contact_name: 'Ana',
      contact_phone: '14155552671',
    });
    expect((await client.call('GET', '/runs?status=failed')).json().runs).toMatchObject([{ id: first }]);
    expect((await client.call('GET', '/runs?status=completed')).json().runs).toMatchObject([{ id: second }]);
    expect((await client.call('GET', '/runs?status=waiting')).json().runs).toEqual([]);
    const page = (await client.call('GET', '/runs?limit=1')).json();
    expect(page).toMatchObject({ runs: [{ id: second }], has_next_page: true });
    expect((await client.call('GET', '/runs?limit=1&offset=1')).json().runs).toMatchObject([{ id: first }]);
  });

  it('refuses a bad status or page with 422', async () => {
    const { client } = await workspaceWithOwner(t);
    for (const q of [
      'status=done',
      'status=%00',
      'limit=0',
      'limit=201',
      'offset=-1',
      'limit=abc',
      `status=${'x'.repeat(5000)}`,
    ]) {
      expectRestError(await client.call('GET', `/runs?${q}`), 422, 'validation_error');
    }
  });
});
