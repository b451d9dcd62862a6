import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { submit } from '../../../test/support/intake.js';
import { until } from '../../../test/support/until.js';

const t = testAppForTests({ queue: true });

describe('forms in the web app', () => {
  it('creates a form as a draft, edits its fields, switches it on and off and gives its publish codes', async () => {
    const { client } = await workspaceWithOwner(t);
    const created = await client.call('POST', '/forms', { name: 'Enquiry' });
    expect(created.statusCode).toBe(201);
    const { id, token } = created.json();
    // A new form is a draft: nothing is taken until it is switched on.
    expect((await client.call('GET', `/forms/${id}`)).json().form.active).toBe(false);
    expect((await submit(t, { token, email: 'early@example.com' })).statusCode).toBe(404);
    expect((await client.call('PATCH', `/forms/${id}`, { active: true })).statusCode).toBe(200);
    const fields = [
      { name: 'email', label: 'E-mail', type: 'email', required: true },
      { name: 'budget', label: 'Budget', type: 'select', required: false, options: ['<1k', '1k+'] },
    ];
    expect(
      (await client.call('PATCH', `/forms/${id}`, { fields, thank_you_message: 'Merci' })).statusCode,
    ).toBe(200);
    const got = (await client.call('GET', `/forms/${id}`)).json();
    expect(got.form).toMatchObject({
      name: 'Enquiry',
      token,
      active: true,
      fields,
      thank_you_message: 'Merci',
    });
    expect(got.publish.hosted_url).toBe(`http://parley.test/f/${token}`);
    expect(got.publish.script).toContain(`/f/${token}/embed.js`);
    expect(got.publish.html).toContain(`value="${token}"`);

    expect((await submit(t, { token, email: 'a@example.com', budget: '1k+' })).statusCode).toBe(201);
    expect((await client.call('PATCH', `/forms/${id}`, { active: false })).statusCode).toBe(200);
    expect((await submit(t, { token, email: 'b@example.com' })).statusCode).toBe(404);
    expect((await client.call('GET', '/forms')).json().forms).toMatchObject([
      { id, active: false, leads: 1 },
    ]);
  });

  it("refuses fields the forms module would refuse, with the module's message", async () => {
    const { client } = await workspaceWithOwner(t);
    const { id } = (await client.call('POST', '/forms', {})).json();
    for (const body of [
      { fields: [{ name: 'city', label: 'City', type: 'text', required: false }] },
      { fields: [{ name: 'Bad Name', label: 'x', type: 'text', required: false }] },
      { fields: [{ name: 'email', label: 'E', type: 'number', required: false }] },
      { fields: [{ name: 'email', label: 'E', type: 'weird', required: false }] },
      { redirect_url: 'javascript:alert(1)' },
      { name: '   ' },
      { fields: [] },
    ]) {
      expectRestError(await client.call('PATCH', `/forms/${id}`, body), 422, 'validation_error');
    }
  });
});

describe('leads in the web app', () => {
  it('lists leads with filters, shows one with all fields, and changes its status', async () => {
    const { client } = await workspaceWithOwner(t);
    const { token } = (await client.call('POST', '/forms', { name: 'Site', active: true })).json();
    await submit(t, { token, name: 'Ana', email: 'ana@example.com', city: 'Lisbon' });
    await submit(t, { token, name: 'Ben', phone: '+14155552671' });
    const all = (await client.call('GET', '/leads')).json().leads;
    expect(all.map((l: { name: string }) => l.name)).toEqual(['Ben', 'Ana']);
    expect(all[0]).toMatchObject({ source: 'form', source_name: 'Site', status: 'new' });
    const ana = all[1];
    const detail = (await client.call('GET', `/leads/${ana.id}`)).json();
    expect(detail.lead.fields).toMatchObject({ city: 'Lisbon' });
    expect(detail.runs).toEqual([]);

    expect((await client.call('PATCH', `/leads/${ana.id}`, { status: 'qualified' })).statusCode).toBe(200);
    expect((await client.call('GET', '/leads?status=qualified')).json().leads).toMatchObject([
      { id: ana.id },
    ]);
    expect((await client.call('GET', '/leads?source=webhook')).json().leads).toEqual([]);
    expect((await client.call('GET', '/leads?q=ben')).json().leads).toMatchObject([{ name: 'Ben' }]);
    expectRestError(
      await client.call('PATCH', `/leads/${ana.id}`, { status: 'hot' }),
      422,
      'validation_error',
    );
    expect((await client.call('GET', '/usage')).json().leads_this_month.used).toBe(2);
  });

  it('shows the sequences a lead went through, by name', async () => {
    const { client } = await workspaceWithOwner(t);
    const definition = {
      name: 'Every new lead',
      trigger: { type: 'lead_created' },
      steps: [{ id: 'tag', type: 'add_tag', tag: 'lead' }],
    };
    expect(
      (await client.call('POST', '/automations', { kind: 'sequence', definition, publish: true })).statusCode,
    ).toBe(201);
    const { token } = (await client.call('POST', '/forms', { active: true })).json();
    expect((await submit(t, { token, phone: '+14155550123' })).statusCode).toBe(201);
    const lead = (await client.call('GET', '/leads')).json().leads[0];
    const runs = await until(async () => {
      const detail = (await client.call('GET', `/leads/${lead.id}`)).json();
      return detail.runs.length > 0 && detail.runs;
    });
    expect(runs).toMatchObject([{ automation_name: 'Every new lead' }]);
  });

  it("keeps another workspace's forms and leads behind the wall (404)", async () => {
    const a = await workspaceWithOwner(t);
    const b = await workspaceWithOwner(t);
    const form = (await b.client.call('POST', '/forms', { active: true })).json();
    await submit(t, { token: form.token, email: 'x@example.com' });
    const lead = (await b.client.call('GET', '/leads')).json().leads[0];
    for (const [method, url, body] of [
      ['GET', `/forms/${form.id}`, undefined],
      ['PATCH', `/forms/${form.id}`, { active: false }],
      ['GET', `/leads/${lead.id}`, undefined],
      ['PATCH', `/leads/${lead.id}`, { status: 'won' }],
    ] as const) {
      expectRestError(await a.client.call(method, url, body), 404, 'not_found');
    }
    expect((await a.client.call('GET', '/leads')).json().leads).toEqual([]);
    expect((await a.client.call('GET', '/forms')).json().forms).toEqual([]);
  });
});
