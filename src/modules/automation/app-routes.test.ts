import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';

const t = testAppForTests();

const flow = {
  name: 'Tag on signup',
  trigger: { type: 'event', event: 'signup' },
  steps: [{ id: 'tag', type: 'add_tag', tag: 'signed-up' }],
};

describe('flows and sequences in the web app', () => {
  it('saves a draft, publishes it, keeps a new draft apart from the published version', async () => {
    const { client } = await workspaceWithOwner(t);
    const created = await client.call('POST', '/automations', { kind: 'flow', definition: flow });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    expect((await client.call('GET', `/automations/${id}`)).json().automation).toMatchObject({
      status: 'draft',
      published_version: null,
      webhook: null,
    });
    expect((await client.call('POST', `/automations/${id}/publish`)).json()).toMatchObject({ version: 1 });
    const edited = { ...flow, steps: [...flow.steps, { id: 'wait', type: 'wait', duration: '1h' }] };
    expect((await client.call('PUT', `/automations/${id}`, { definition: edited })).statusCode).toBe(200);
    const after = (await client.call('GET', `/automations/${id}`)).json().automation;
    expect(after).toMatchObject({ status: 'published', published_version: 1, unpublished_changes: true });
    expect((await client.call('GET', '/automations?kind=flow')).json().automations).toHaveLength(1);
    expect((await client.call('GET', '/automations?kind=sequence')).json().automations).toHaveLength(0);
    expect((await client.call('POST', `/automations/${id}/unpublish`)).statusCode).toBe(200);
    expect((await client.call('GET', `/automations/${id}`)).json().automation.status).toBe('draft');
  });

  it('explains what is wrong with a definition, one detail per problem', async () => {
    const { client } = await workspaceWithOwner(t);
    const bad = {
      name: 'Loop',
      trigger: { type: 'event', event: 'x' },
      steps: [
        { id: 'a', type: 'add_tag', tag: 't', next: 'b' },
        { id: 'b', type: 'add_tag', tag: 't', next: 'a' },
      ],
    };
    const res = await client.call('POST', '/automations', { kind: 'flow', definition: bad });
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.message).toMatch(/loop/);
    const wrongKind = await client.call('POST', '/automations', {
      kind: 'sequence',
      definition: flow,
    });
    expectRestError(wrongKind, 422, 'validation_error');
    for (const definition of [
      null,
      'x',
      [],
      { name: 'n' },
      { ...flow, steps: [{ id: 'a', type: 'nuke' }] },
    ]) {
      expectRestError(await client.call('POST', '/automations', { kind: 'flow', definition }), 422);
    }
  });

  it('shows a webhook sequence its URL with the secret, and rotates the secret', async () => {
    const { client } = await workspaceWithOwner(t);
    const seq = {
      name: 'Follow up',
      trigger: { type: 'webhook' },
      steps: [{ id: 's', type: 'update_lead_status', status: 'contacted' }],
    };
    const { id } = (await client.call('POST', '/automations', { kind: 'sequence', definition: seq })).json();
    const a = (await client.call('GET', `/automations/${id}`)).json().automation;
    expect(a.webhook.url).toBe(`http://parley.test/api/automation/webhooks/${id}/${a.webhook.secret}`);
    expect((await client.call('POST', `/automations/${id}/rotate-secret`)).statusCode).toBe(200);
    const b = (await client.call('GET', `/automations/${id}`)).json().automation;
    expect(b.webhook.secret).not.toBe(a.webhook.secret);
  });

  it("keeps another workspace's flows and runs behind the wall (404)", async () => {
    const a = await workspaceWithOwner(t);
    const b = await workspaceWithOwner(t);
    const { id } = (await b.client.call('POST', '/automations', { kind: 'flow', definition: flow })).json();
    for (const [method, url, body] of [
      ['GET', `/automations/${id}`, undefined],
      ['PUT', `/automations/${id}`, { definition: flow }],
      ['POST', `/automations/${id}/publish`, undefined],
      ['POST', `/automations/${id}/unpublish`, undefined],
      ['POST', `/automations/${id}/rotate-secret`, undefined],
      ['GET', '/runs/run_nope', undefined],
    ] as const) {
      expectRestError(await a.client.call(method, url, body), 404, 'not_found');
    }
    expect((await a.client.call('GET', '/automations')).json().automations).toEqual([]);
  });
});
