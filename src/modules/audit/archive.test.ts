import { describe, expect, it } from 'vitest';
import { PASSWORD, signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { expectIntakeError, submit } from '../../../test/support/intake.js';
import { connectSimulator, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { addMember, createUser } from '../accounts/users.js';

const t = simulatorAppForTests({ queue: true });

/** A member of the workspace besides its owner, signed in. */
async function memberOf(workspaceId: string) {
  const email = `m-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await addMember(t.ctx.db, workspaceId, await createUser(t.ctx.db, email, PASSWORD), 'member');
  return signIn(t, email);
}

const actions = async (workspaceId: string, entityId: string) =>
  (
    await t.ctx.db.query<{ action: string }>(
      'SELECT action FROM audit_log WHERE workspace_id = $1 AND entity_id = $2 ORDER BY id',
      [workspaceId, entityId],
    )
  ).rows.map((r) => r.action);

describe('archiving a form', () => {
  it('closes its page (410) and its submissions (404, "closed"), hides it, and restores it', async () => {
    const { client, workspaceId } = await workspaceWithOwner(t);
    const { id, token } = (await client.call('POST', '/forms', { name: 'Closing', active: true })).json();
    expect((await submit(t, { token, email: 'a@example.com' })).statusCode).toBe(201);

    const member = await memberOf(workspaceId);
    expectRestError(await member.call('POST', `/forms/${id}/archive`), 403, 'forbidden');
    expect((await client.call('POST', `/forms/${id}/archive`)).statusCode).toBe(200);

    const page = await t.app.inject({ method: 'GET', url: `/f/${token}` });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('This form is closed');
    expect((await t.app.inject({ method: 'GET', url: `/f/${token}/embed.js` })).statusCode).toBe(410);
    expectIntakeError(await submit(t, { token, email: 'b@example.com' }), 404, /This form is closed/);
    // A form switched off, not archived, keeps the spec's plain 404.
    const other = (await client.call('POST', '/forms', { name: 'Draft' })).json();
    expect((await t.app.inject({ method: 'GET', url: `/f/${other.token}` })).statusCode).toBe(404);

    const listed = async (q = '') =>
      (await client.call('GET', `/forms${q}`)).json().forms.map((f: { id: string }) => f.id);
    expect(await listed()).toEqual([other.id]);
    expect(await listed('?archived=true')).toEqual([id]);

    expect((await client.call('POST', `/forms/${id}/restore`)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/f/${token}` })).statusCode).toBe(200);
    expect((await submit(t, { token, email: 'c@example.com' })).statusCode).toBe(201);
    expect(await listed('?archived=true')).toEqual([]);
    expect(await actions(workspaceId, id)).toEqual(['create', 'archive', 'restore']);
    expectRestError(await client.call('POST', '/forms/fm_nope/archive'), 404, 'not_found');
  });
});

describe('archiving a lead', () => {
  it('is open to members, hides the lead from the list, and restores it', async () => {
    const { client, workspaceId } = await workspaceWithOwner(t);
    const { token } = (await client.call('POST', '/forms', { active: true })).json();
    await submit(t, { token, email: 'lead@example.com' });
    const lead = (await client.call('GET', '/leads')).json().leads[0];
    const member = await memberOf(workspaceId);
    expect((await member.call('POST', `/leads/${lead.id}/archive`)).statusCode).toBe(200);
    expect((await client.call('GET', '/leads')).json().leads).toEqual([]);
    expect((await client.call('GET', '/leads?archived=true')).json().leads).toMatchObject([{ id: lead.id }]);
    expect((await member.call('POST', `/leads/${lead.id}/restore`)).statusCode).toBe(200);
    expect((await client.call('GET', '/leads')).json().leads).toMatchObject([{ id: lead.id }]);
  });
});

describe('archiving a flow', () => {
  it('unpublishes it so events start nothing, refuses to publish it, and restores it as a draft', async () => {
    const { client, apiKey, workspaceId } = await workspaceWithOwner(t);
    const definition = {
      name: 'Tagger',
      trigger: { type: 'event', event: 'joined' },
      steps: [{ id: 's', type: 'add_tag', tag: 'joined' }],
    };
    const { id } = (
      await client.call('POST', '/automations', { kind: 'flow', definition, publish: true })
    ).json();
    expect((await client.call('POST', `/automations/${id}/archive`)).statusCode).toBe(200);
    const got = (await client.call('GET', `/automations/${id}`)).json().automation;
    expect(got).toMatchObject({ status: 'archived', published_version: null });
    expect(
      (await t.api('POST', '/events', apiKey, { phone: '+14155550130', event: 'joined' })).statusCode,
    ).toBe(202);
    const { rows } = await t.ctx.db.query('SELECT flows FROM events WHERE workspace_id = $1', [workspaceId]);
    expect(rows).toEqual([{ flows: [] }]);
    expectRestError(await client.call('POST', `/automations/${id}/publish`), 409, 'conflict');
    expect((await client.call('GET', '/automations?kind=flow')).json().automations).toEqual([]);

    expect((await client.call('POST', `/automations/${id}/restore`)).statusCode).toBe(200);
    expect((await client.call('GET', `/automations/${id}`)).json().automation.status).toBe('draft');
    expect((await client.call('POST', `/automations/${id}/publish`)).statusCode).toBe(200);
    expect(await actions(workspaceId, id)).toEqual(['create', 'publish', 'archive', 'restore', 'publish']);
  });
});

describe('deleting a template', () => {
  it('deletes it on the network and here; one the network never had is archived, hidden from REST v1', async () => {
    const { client, apiKey, workspaceId } = await workspaceWithOwner(t);
    const number = await connectSimulator(t, t.base, workspaceId);
    const listed = async (q = '') =>
      (await client.call('GET', `/templates${q}`)).json().templates as { id: string; name: string }[];
    const hello = (await listed()).find((x) => x.name === 'hello')!;
    const member = await memberOf(workspaceId);
    expectRestError(await member.call('DELETE', `/templates/${hello.id}`), 403, 'forbidden');

    expect((await client.call('DELETE', `/templates/${hello.id}`)).json()).toEqual({
      result: true,
      outcome: 'deleted',
    });
    expect(
      simState(t)
        .templates.get(number.businessAccountId)!
        .map((x) => x.name),
    ).not.toContain('hello');
    expect((await listed()).map((x) => x.name)).not.toContain('hello');

    // The network no longer has "welcome": its refusal leaves the template archived here only.
    const onTheNetwork = simState(t).templates.get(number.businessAccountId)!;
    simState(t).templates.set(number.businessAccountId, []);
    const welcome = (await listed()).find((x) => x.name === 'welcome')!;
    const answer = (await client.call('DELETE', `/templates/${welcome.id}`)).json();
    expect(answer).toMatchObject({
      outcome: 'archived',
      reason: expect.stringMatching(/^WhatsApp answered/),
    });
    expect((await listed()).map((x) => x.name)).toEqual(['draft']);
    expect((await listed('?archived=true')).map((x) => x.name)).toEqual(['welcome']);
    expect((await t.api('GET', '/templates', apiKey)).json().templates).toEqual([]);
    // Were the network to have it still, Parley refuses it first: archived is not sent.
    simState(t).templates.set(number.businessAccountId, onTheNetwork);
    const send = await t.api('POST', '/messages', apiKey, {
      to: '+14155550140',
      template: { name: 'welcome', language: 'en', body: ['a', 'b'] },
    });
    expectRestError(send, 404, 'template_not_found');
    expect(simState(t).messages.filter((m) => m.to === '14155550140')).toEqual([]);

    expect((await client.call('POST', `/templates/${welcome.id}/restore`)).statusCode).toBe(200);
    expect((await t.api('GET', '/templates', apiKey)).json().templates).toMatchObject([{ name: 'welcome' }]);
    expect(await actions(workspaceId, hello.id)).toEqual(['delete']);
    expect(await actions(workspaceId, welcome.id)).toEqual(['archive', 'restore']);
  });
});
