import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { submit } from '../../../test/support/intake.js';

// REST v1 forms: the app's forms through an API key, with their hosted page and embeds.
const t = testAppForTests({ queue: true, role: 'api' });

const FIELDS = [
  { name: 'email', label: 'E-mail', type: 'email', required: true },
  { name: 'size', label: 'Team size', type: 'select', required: false, options: ['1-10', '11+'] },
];

async function created(key: string, body: unknown) {
  const res = await t.api('POST', '/forms', key, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const audit = async (workspaceId: string, id: string) =>
  (
    await t.ctx.db.query<{ action: string; actor_type: string }>(
      'SELECT action, actor_type FROM audit_log WHERE workspace_id = $1 AND entity_id = $2 ORDER BY id',
      [workspaceId, id],
    )
  ).rows;

describe('POST and GET /api/v1/forms/{id}', () => {
  it('creates a draft with the default fields, answered with its hosted URL and embeds', async () => {
    const ws = await t.workspace();
    const answer = await created(ws.key, { name: 'Enquiry' });
    const { form, embed } = answer;
    expect(form).toMatchObject({
      id: expect.stringMatching(/^fm_/),
      name: 'Enquiry',
      active: false,
      leads: 0,
      archived_at: null,
      fields: [{ name: 'name' }, { name: 'email' }, { name: 'phone' }],
    });
    expect(embed.hosted_url).toBe(`http://parley.test/f/${form.token}`);
    expect(embed.script).toContain(`/f/${form.token}/embed.js`);
    expect(embed.html).toContain(`value="${form.token}"`);
    expect((await t.api('GET', `/forms/${form.id}`, ws.key)).json()).toEqual(answer);
    // A draft takes nothing.
    expect((await submit(t, { token: form.token, email: 'early@example.com' })).statusCode).toBe(404);
    expect(await audit(ws.id, form.id)).toEqual([{ action: 'create', actor_type: 'api_key' }]);
  });

  it('creates an active form with its own fields that takes submissions at once', async () => {
    const ws = await t.workspace();
    const { form } = await created(ws.key, {
      name: 'Demo',
      fields: FIELDS,
      active: true,
      thank_you_message: 'Merci',
      redirect_url: 'https://example.com/thanks',
    });
    expect(form).toMatchObject({ active: true, fields: FIELDS, thank_you_message: 'Merci' });
    expect(form.redirect_url).toBe('https://example.com/thanks');
    expect((await submit(t, { token: form.token, email: 'a@example.com', size: '11+' })).statusCode).toBe(
      201,
    );
    expect((await t.api('GET', `/forms/${form.id}`, ws.key)).json().form.leads).toBe(1);
  });

  it('refuses bad fields and redirects at their field, storing nothing', async () => {
    const ws = await t.workspace();
    for (const [body, field] of [
      [{ redirect_url: 'javascript:alert(1)' }, 'redirect_url'],
      [{ fields: [{ name: 'size', label: 'Size', type: 'select', required: false }] }, 'fields'],
      [{ fields: [FIELDS[0], FIELDS[0]] }, 'fields'],
      [{ name: '   ' }, 'name'],
      [{ active: 'yes' }, 'active'],
    ] as const) {
      const res = await t.api('POST', '/forms', ws.key, body);
      expectRestError(res, 422, 'validation_error');
      expect(JSON.stringify(res.json().error.details)).toContain(field);
    }
    expect((await t.api('GET', '/forms', ws.key)).json().forms).toEqual([]);
  });

  it('replays a create sent again with the same Idempotency-Key', async () => {
    const ws = await t.workspace();
    const send = () => t.api('POST', '/forms', ws.key, { name: 'Once' }, { 'idempotency-key': 'form-1' });
    const a = await send();
    const b = await send();
    expect(a.statusCode, a.body).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json()).toEqual(a.json());
    expect((await t.api('GET', '/forms', ws.key)).json().forms).toHaveLength(1);
  });
});

describe('PATCH and DELETE /api/v1/forms/{id}', () => {
  it('edits, publishes and unpublishes a form, audited as the key', async () => {
    const ws = await t.workspace();
    const { form } = await created(ws.key, { name: 'Enquiry', thank_you_message: 'Thanks' });
    const published = await t.api('PATCH', `/forms/${form.id}`, ws.key, {
      active: true,
      fields: FIELDS,
      thank_you_message: null,
    });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().form).toMatchObject({ name: 'Enquiry', active: true, fields: FIELDS });
    expect(published.json().form.thank_you_message).toBeNull();
    expect(published.json().embed.html).toContain('name="size"');
    expect((await submit(t, { token: form.token, email: 'b@example.com' })).statusCode).toBe(201);

    const off = await t.api('PATCH', `/forms/${form.id}`, ws.key, { active: false, name: 'Closed' });
    expect(off.json().form).toMatchObject({ name: 'Closed', active: false, leads: 1 });
    expect((await submit(t, { token: form.token, email: 'c@example.com' })).statusCode).toBe(404);
    expect(await audit(ws.id, form.id)).toEqual([
      { action: 'create', actor_type: 'api_key' },
      { action: 'update', actor_type: 'api_key' },
      { action: 'update', actor_type: 'api_key' },
    ]);
  });

  it('refuses an empty edit and a bad redirect, changing nothing', async () => {
    const ws = await t.workspace();
    const { form } = await created(ws.key, { name: 'Enquiry' });
    expectRestError(await t.api('PATCH', `/forms/${form.id}`, ws.key, {}), 422, 'validation_error');
    const bad = await t.api('PATCH', `/forms/${form.id}`, ws.key, { name: 'New', redirect_url: 'ftp://x' });
    expectRestError(bad, 422, 'validation_error');
    expect(bad.json().error.details[0].field).toBe('redirect_url');
    expect((await t.api('GET', `/forms/${form.id}`, ws.key)).json().form.name).toBe('Enquiry');
  });

  it('archives a form: it leaves the list and closes, twice is 204, another workspace gets 404', async () => {
    const ws = await t.workspace();
    const other = await t.workspace();
    const { form } = await created(ws.key, { name: 'Enquiry', active: true });
    expectRestError(await t.api('DELETE', `/forms/${form.id}`, other.key), 404, 'not_found');
    expectRestError(await t.api('GET', `/forms/${form.id}`, other.key), 404, 'not_found');
    expectRestError(await t.api('PATCH', `/forms/${form.id}`, other.key, { name: 'B' }), 404, 'not_found');
    const res = await t.api('DELETE', `/forms/${form.id}`, ws.key);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await t.api('DELETE', `/forms/${form.id}`, ws.key)).statusCode).toBe(204);
    expect((await t.api('GET', '/forms', ws.key)).json().forms).toEqual([]);
    expect((await t.api('GET', `/forms/${form.id}`, ws.key)).json().form.archived_at).toEqual(
      expect.any(String),
    );
    expect((await submit(t, { token: form.token, email: 'late@example.com' })).statusCode).toBe(404);
    expectRestError(await t.api('DELETE', '/forms/fm_nothing', ws.key), 404, 'not_found');
  });
});

describe('POST /api/v1/forms/{id}/restore', () => {
  it('brings an archived form back to the list, taking submissions again, audited as the key', async () => {
    const ws = await t.workspace();
    const { form } = await created(ws.key, { name: 'Enquiry', active: true });
    const before = await t.api('GET', `/forms/${form.id}`, ws.key);
    expect((await t.api('DELETE', `/forms/${form.id}`, ws.key)).statusCode).toBe(204);
    const res = await t.api('POST', `/forms/${form.id}/restore`, ws.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ...before.json(),
      form: { ...before.json().form, updated_at: expect.any(String) },
    });
    expect(res.json().form.archived_at).toBeNull();
    expect((await t.api('GET', '/forms', ws.key)).json().forms.map((f: { id: string }) => f.id)).toEqual([
      form.id,
    ]);
    expect((await submit(t, { token: form.token, email: 'back@example.com' })).statusCode).toBe(201);
    // Restoring again changes nothing.
    expect((await t.api('POST', `/forms/${form.id}/restore`, ws.key)).json().form.archived_at).toBeNull();
    expect(await audit(ws.id, form.id)).toEqual([
      { action: 'create', actor_type: 'api_key' },
      { action: 'archive', actor_type: 'api_key' },
      { action: 'restore', actor_type: 'api_key' },
      { action: 'restore', actor_type: 'api_key' },
    ]);
  });

  it('keeps a draft closed when restored, and answers 404 for another workspace and no form', async () => {
    const ws = await t.workspace();
    const other = await t.workspace();
    const { form } = await created(ws.key, { name: 'Draft' });
    await t.api('DELETE', `/forms/${form.id}`, ws.key);
    expectRestError(await t.api('POST', `/forms/${form.id}/restore`, other.key), 404, 'not_found');
    expect((await t.api('GET', '/forms', ws.key)).json().forms).toEqual([]);
    expect(await audit(other.id, form.id)).toEqual([]);
    const res = await t.api('POST', `/forms/${form.id}/restore`, ws.key);
    expect(res.json().form).toMatchObject({ active: false, archived_at: null });
    expect((await submit(t, { token: form.token, email: 'early@example.com' })).statusCode).toBe(404);
    expectRestError(await t.api('POST', '/forms/fm_nothing/restore', ws.key), 404, 'not_found');
  });
});

describe('GET /api/v1/forms', () => {
  it('walks every form once by cursor while new forms arrive, newest first', async () => {
    const ws = await t.workspace();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await created(ws.key, { name: `Form ${i}` })).form.id);
    await t.ctx.db.query(`UPDATE forms SET created_at = '2026-05-01T00:00:00Z' WHERE id = ANY($1)`, [
      made.slice(0, 3),
    ]);
    const first = await t.api('GET', '/forms?limit=2', ws.key);
    expect(first.json().forms.map((f: { id: string }) => f.id)).toEqual([made[4], made[3]]);
    const seen: string[] = [];
    let res = first;
    for (;;) {
      seen.push(...res.json().forms.map((f: { id: string }) => f.id));
      await created(ws.key, { name: 'Arrived meanwhile' });
      const cursor = res.json().next_cursor;
      if (!cursor) break;
      res = await t.api('GET', `/forms?limit=2&cursor=${cursor}`, ws.key);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(seen.sort()).toEqual([...made].sort());
    const garbled = await t.api('GET', '/forms?cursor=garbage', ws.key);
    expectRestError(garbled, 422, 'validation_error');
    expect(garbled.json().error.details[0].field).toContain('cursor');
  });
});
