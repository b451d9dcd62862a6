import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { submit } from '../../../test/support/intake.js';
import { addMember, createUser } from '../accounts/users.js';

const t = testAppForTests();

type Client = Awaited<ReturnType<typeof workspaceWithOwner>>['client'];
const names = async (client: Client, query: string) =>
  (await client.call('GET', `/leads?${query}`)).json().leads.map((l: { name: string }) => l.name);

/** A workspace with a form whose fields have labels, and three leads from it. */
async function withLeads() {
  const ws = await workspaceWithOwner(t);
  const form = (await ws.client.call('POST', '/forms', { name: 'Site', active: true })).json();
  const fields = [
    { name: 'name', label: 'Your name', type: 'text', required: false },
    { name: 'email', label: 'E-mail', type: 'email', required: false },
    { name: 'phone', label: 'Phone', type: 'tel', required: false },
    { name: 'company_size', label: 'Company size', type: 'text', required: false },
  ];
  expect((await ws.client.call('PATCH', `/forms/${form.id}`, { fields })).statusCode).toBe(200);
  await submit(t, { token: form.token, name: 'Ana', email: 'ana@example.com', company_size: '50_100%' });
  await submit(t, {
    token: form.token,
    name: 'Ben',
    email: 'ben@example.com',
    company_size: 'Lisbon office',
  });
  await submit(t, { token: form.token, name: 'Cy', phone: '+14155552671' });
  const leads = (await ws.client.call('GET', '/leads')).json().leads as { id: string; name: string }[];
  const byName = Object.fromEntries(leads.map((l) => [l.name, l.id]));
  const team = (await ws.client.call('GET', '/team')).json().members as { id: string }[];
  return { ...ws, form, byName, ownerId: team[0]!.id };
}

describe('lead search', () => {
  it('finds leads by name, e-mail, phone and any field value, taking % _ and \\ literally', async () => {
    const { client } = await withLeads();
    expect(await names(client, 'q=ANA')).toEqual(['Ana']);
    expect(await names(client, 'q=ben%40example')).toEqual(['Ben']);
    expect(await names(client, 'q=4155552671')).toEqual(['Cy']);
    expect(await names(client, 'q=lisbon')).toEqual(['Ben']);
    expect(await names(client, 'q=50_100%25')).toEqual(['Ana']);
    expect(await names(client, 'q=%25')).toEqual(['Ana']);
    expect(await names(client, 'q=_')).toEqual(['Ana']);
    expect(await names(client, 'q=%5C')).toEqual([]);
    expect(await names(client, `q=${encodeURIComponent("' OR 1=1 --")}`)).toEqual([]);
    expect(await names(client, 'q=company_size')).toEqual([]);
  });

  it('refuses a search too long or holding a NUL with 422', async () => {
    const { client } = await withLeads();
    expectRestError(await client.call('GET', `/leads?q=${'a'.repeat(201)}`), 422, 'validation_error');
    expectRestError(await client.call('GET', '/leads?q=a%00b'), 422, 'validation_error');
    expectRestError(await client.call('GET', `/leads?form_id=${'f'.repeat(65)}`), 422, 'validation_error');
    expectRestError(await client.call('GET', '/leads?owner='), 422, 'validation_error');
  });

  it('filters by form', async () => {
    const { client, form } = await withLeads();
    const other = (await client.call('POST', '/forms', { name: 'Other', active: true })).json();
    await submit(t, { token: other.token, name: 'Dee', email: 'dee@example.com' });
    expect(await names(client, `form_id=${other.id}`)).toEqual(['Dee']);
    expect(await names(client, `form_id=${form.id}`)).toEqual(['Cy', 'Ben', 'Ana']);
    expect(await names(client, 'form_id=fm_nosuchform')).toEqual([]);
  });
});

describe('lead labels', () => {
  it("gives each field's label from the form", async () => {
    const { client, byName } = await withLeads();
    const { lead } = (await client.call('GET', `/leads/${byName.Ana}`)).json();
    expect(lead.fields).toEqual({ company_size: '50_100%' });
    expect(lead.labels).toMatchObject({ company_size: 'Company size', email: 'E-mail' });
  });
});

describe('lead owner', () => {
  it('gives a lead to a member, filters by owner, and takes it back', async () => {
    const ws = await withLeads();
    const memberId = await createUser(t.ctx.db, `m-${ws.workspaceId}@example.com`, 'a long password', 'Mia');
    await addMember(t.ctx.db, ws.workspaceId, memberId, 'member');
    const set = (id: string, body: unknown) => ws.client.call('PATCH', `/leads/${id}`, body);
    expect((await set(ws.byName.Ana!, { owner_id: memberId })).statusCode).toBe(200);
    expect((await set(ws.byName.Ben!, { owner_id: ws.ownerId, status: 'contacted' })).statusCode).toBe(200);
    const ana = (await ws.client.call('GET', `/leads/${ws.byName.Ana}`)).json().lead;
    expect(ana).toMatchObject({ owner_id: memberId, owner_name: 'Mia' });
    expect(await names(ws.client, `owner=${memberId}`)).toEqual(['Ana']);
    expect(await names(ws.client, 'owner=none')).toEqual(['Cy']);
    expect(await names(ws.client, `owner=${ws.ownerId}&status=contacted`)).toEqual(['Ben']);
    expect((await set(ws.byName.Ana!, { owner_id: null })).statusCode).toBe(200);
    expect(await names(ws.client, 'owner=none')).toEqual(['Cy', 'Ana']);
  });

  it('refuses an owner who is not a member of the workspace (422), changing nothing', async () => {
    const ws = await withLeads();
    const other = await workspaceWithOwner(t);
    const outsider = (await other.client.call('GET', '/team')).json().members[0].id;
    const stranger = await createUser(t.ctx.db, `s-${ws.workspaceId}@example.com`, 'a long password');
    for (const owner_id of [outsider, stranger, 'usr_nobody', "'; DROP TABLE leads; --"]) {
      const res = await ws.client.call('PATCH', `/leads/${ws.byName.Ana}`, { owner_id, status: 'won' });
      expectRestError(res, 422, 'validation_error');
      expect(res.json().error.details).toEqual([
        { field: 'owner_id', message: 'Pick a member of this workspace.' },
      ]);
    }
    expect((await ws.client.call('GET', `/leads/${ws.byName.Ana}`)).json().lead).toMatchObject({
      owner_id: null,
      status: 'new',
    });
    for (const body of [{}, { owner_id: 5 }, { owner_id: '' }, { owner_id: 'x'.repeat(65) }, { other: 1 }]) {
      expectRestError(
        await ws.client.call('PATCH', `/leads/${ws.byName.Ana}`, body),
        422,
        'validation_error',
      );
    }
  });
});

describe('lead notes', () => {
  it('keeps who wrote each note and when, oldest first', async () => {
    const ws = await withLeads();
    const add = (body: unknown) => ws.client.call('POST', `/leads/${ws.byName.Ana}/notes`, body);
    const first = await add({ body: 'Called, no answer.' });
    expect(first.statusCode).toBe(201);
    expect(first.json().note).toMatchObject({
      body: 'Called, no answer.',
      author_id: ws.ownerId,
      author_name: 'Owner',
    });
    await add({ body: '  Wants a demo <b>Tuesday</b> 🙂  ' });
    const { notes } = (await ws.client.call('GET', `/leads/${ws.byName.Ana}`)).json();
    expect(notes.map((n: { body: string }) => n.body)).toEqual([
      'Called, no answer.',
      'Wants a demo <b>Tuesday</b> 🙂',
    ]);
    expect(new Date(notes[0].created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await ws.client.call('GET', `/leads/${ws.byName.Ben}`)).json().notes).toEqual([]);
  });

  it('refuses an empty, oversized or hostile note with 422, and a note on no lead with 404', async () => {
    const ws = await withLeads();
    const add = (body: unknown) => ws.client.call('POST', `/leads/${ws.byName.Ana}/notes`, body);
    for (const body of [
      {},
      { body: '' },
      { body: '   ' },
      { body: 'x'.repeat(5001) },
      { body: 'a\u0000b' },
      { body: '\ud800' },
      { body: 5 },
      { body: 'ok', extra: 1 },
    ]) {
      expectRestError(await add(body), 422, 'validation_error');
    }
    expect((await add({ body: 'x'.repeat(5000) })).statusCode).toBe(201);
    expectRestError(
      await ws.client.call('POST', '/leads/ld_nosuchlead/notes', { body: 'hi' }),
      404,
      'not_found',
    );
  });
});
