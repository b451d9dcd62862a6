import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { submit } from '../../../test/support/intake.js';
import { encodeCursor } from '../../api/page-cursor.js';

// REST v1 leads: the app's leads through an API key, paged by cursor.
const t = testAppForTests({ queue: true, role: 'api' });

/** A workspace with an owner, its key, and an active form taking submissions. */
async function setUp() {
  const ws = await workspaceWithOwner(t);
  const key = ws.apiKey;
  const form = await t.api('POST', '/forms', key, { name: 'Enquiry', active: true });
  expect(form.statusCode, form.body).toBe(201);
  const { rows } = await t.ctx.db.query<{ user_id: string }>(
    'SELECT user_id FROM memberships WHERE workspace_id = $1',
    [ws.workspaceId],
  );
  return { ...ws, key, form: form.json().form as { id: string; token: string }, ownerId: rows[0]!.user_id };
}

async function lead(token: string, email: string): Promise<string> {
  const res = await submit(t, { token, email, name: email.split('@')[0], budget: '1k' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().lead_id;
}

const ids = (res: { json(): { leads: { id: string }[] } }) => res.json().leads.map((l) => l.id);

const audit = async (workspaceId: string, id: string) =>
  (
    await t.ctx.db.query<{ action: string; actor_type: string; changes: unknown }>(
      'SELECT action, actor_type, changes FROM audit_log WHERE workspace_id = $1 AND entity_id = $2 ORDER BY id',
      [workspaceId, id],
    )
  ).rows;

describe('GET /api/v1/leads', () => {
  it('lists leads newest first with the filters of form, sequence, status and time', async () => {
    const ws = await setUp();
    const first = await lead(ws.form.token, 'ann@example.com');
    const second = await lead(ws.form.token, 'bo@example.com');
    const other = await t.api('POST', '/forms', ws.key, { name: 'Other', active: true });
    // A sequence started by the other form's submissions: its leads are the ones it ran for.
    const formSeq = await t.api('POST', '/automations', ws.key, {
      name: 'Other form follow-up',
      trigger: { type: 'form_submitted', form_id: other.json().form.id },
      steps: [{ id: 's', type: 'update_lead_status', status: 'contacted' }],
      published: true,
    });
    expect(formSeq.statusCode, formSeq.body).toBe(201);
    const third = await lead(other.json().form.token, 'cy@example.com');
    const seq = await t.api('POST', '/automations', ws.key, {
      name: 'CRM',
      trigger: { type: 'webhook' },
      steps: [{ id: 's', type: 'update_lead_status', status: 'contacted' }],
      published: true,
    });
    const { url } = seq.json().webhook;
    const hook = await t.app.inject({
      method: 'POST',
      url: new URL(url).pathname,
      payload: { email: 'dee@example.com' },
    });
    expect(hook.statusCode, hook.body).toBe(202);
    const fourth = hook.json().lead_id;
    await t.ctx.db.query(
      `UPDATE leads SET created_at = CASE id WHEN $2 THEN '2026-01-01T00:00:00Z'::timestamptz
         WHEN $3 THEN '2026-02-01T00:00:00Z' WHEN $4 THEN '2026-03-01T00:00:00Z' ELSE '2026-04-01T00:00:00Z' END
       WHERE workspace_id = $1`,
      [ws.workspaceId, first, second, third],
    );

    const all = await t.api('GET', '/leads', ws.key);
    expect(all.statusCode, all.body).toBe(200);
    expect(ids(all)).toEqual([fourth, third, second, first]);
    expect(all.json().next_cursor).toBeNull();
    expect(all.json().leads[3]).toMatchObject({
      email: 'ann@example.com',
      status: 'new',
      source: 'form',
      source_id: ws.form.id,
      source_name: 'Enquiry',
      created_at: '2026-01-01T00:00:00.000Z',
    });

    expect(ids(await t.api('GET', `/leads?form_id=${ws.form.id}`, ws.key))).toEqual([second, first]);
    expect(ids(await t.api('GET', `/leads?automation_id=${seq.json().id}`, ws.key))).toEqual([fourth]);
    expect(ids(await t.api('GET', `/leads?automation_id=${formSeq.json().id}`, ws.key))).toEqual([third]);
    expect(ids(await t.api('GET', '/leads?form_id=fm_nothing', ws.key))).toEqual([]);
    // since is inclusive, until exclusive.
    const window = '/leads?since=2026-02-01T00:00:00Z&until=2026-03-01T00:00:00%2B00:00';
    expect(ids(await t.api('GET', window, ws.key))).toEqual([second]);
    expect(ids(await t.api('GET', '/leads?since=2026-03-01T01:00:00%2B01:00', ws.key))).toEqual([
      fourth,
      third,
    ]);

    await t.api('PATCH', `/leads/${second}`, ws.key, { status: 'won' });
    expect(ids(await t.api('GET', '/leads?status=won', ws.key))).toEqual([second]);
    // Archived leads are left out.
    await t.ctx.db.query('UPDATE leads SET archived_at = now() WHERE id = $1', [first]);
    expect(ids(await t.api('GET', '/leads', ws.key))).toEqual([fourth, third, second]);
  });

  it('walks every lead once by cursor while new leads arrive, ties broken by id', async () => {
    const ws = await setUp();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(await lead(ws.form.token, `walk${i}@example.com`));
    // Three share one moment: the id keeps them in order.
    await t.ctx.db.query(
      `UPDATE leads SET created_at = '2026-05-01T00:00:00Z' WHERE workspace_id = $1 AND id = ANY($2)`,
      [ws.workspaceId, made.slice(1, 4)],
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await t.api('GET', `/leads?limit=2${cursor ? `&cursor=${cursor}` : ''}`, ws.key);
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...ids(res));
      cursor = res.json().next_cursor;
      pages++;
      // New leads arrive between pages: they are newer than the walk's start, so it does not see them.
      await lead(ws.form.token, `late${pages}@example.com`);
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual([...made].sort());
  });

  it('refuses a garbled or foreign cursor at cursor', async () => {
    const ws = await setUp();
    for (const cursor of ['garbage', encodeCursor({ micros: '1', id: "x' OR 1=1" }), '%00']) {
      const res = await t.api('GET', `/leads?cursor=${cursor}`, ws.key);
      expectRestError(res, 422, 'validation_error');
      expect(JSON.stringify(res.json().error.details)).toContain('cursor');
    }
  });
});

describe('GET and PATCH /api/v1/leads/{id}', () => {
  it('reads a lead with its fields and labels, changes status and owner, audited as the key', async () => {
    const ws = await setUp();
    const id = await lead(ws.form.token, 'eve@example.com');
    const got = await t.api('GET', `/leads/${id}`, ws.key);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().lead).toMatchObject({
      id,
      email: 'eve@example.com',
      fields: expect.objectContaining({ budget: '1k' }),
      owner_id: null,
    });

    const changed = await t.api('PATCH', `/leads/${id}`, ws.key, {
      status: 'qualified',
      owner_id: ws.ownerId,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().lead).toMatchObject({ id, status: 'qualified', owner_id: ws.ownerId });
    expect(changed.json().lead.owner_name).toEqual(expect.any(String));
    expect(await audit(ws.workspaceId, id)).toEqual([
      {
        action: 'update',
        actor_type: 'api_key',
        changes: { fields: ['status', 'owner_id'], status: 'qualified', owner_id: ws.ownerId },
      },
    ]);
    const cleared = await t.api('PATCH', `/leads/${id}`, ws.key, { owner_id: null });
    expect(cleared.json().lead).toMatchObject({ status: 'qualified', owner_id: null });
  });

  it('refuses an owner who is not a member (422 at owner_id) and changes nothing', async () => {
    const ws = await setUp();
    const stranger = await setUp();
    const id = await lead(ws.form.token, 'fay@example.com');
    const res = await t.api('PATCH', `/leads/${id}`, ws.key, { status: 'won', owner_id: stranger.ownerId });
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.details[0].field).toBe('owner_id');
    expect((await t.api('GET', `/leads/${id}`, ws.key)).json().lead).toMatchObject({
      status: 'new',
      owner_id: null,
    });
  });

  it('refuses an empty change, an unknown status and another workspace’s lead', async () => {
    const ws = await setUp();
    const other = await setUp();
    const id = await lead(ws.form.token, 'gus@example.com');
    expectRestError(await t.api('PATCH', `/leads/${id}`, ws.key, {}), 422, 'validation_error');
    const bad = await t.api('PATCH', `/leads/${id}`, ws.key, { status: 'maybe' });
    expectRestError(bad, 422, 'validation_error');
    expect(JSON.stringify(bad.json().error.details)).toContain('status');
    expectRestError(await t.api('GET', `/leads/${id}`, other.key), 404, 'not_found');
    expectRestError(await t.api('PATCH', `/leads/${id}`, other.key, { status: 'won' }), 404, 'not_found');
    expectRestError(await t.api('GET', '/leads/ld_nothing', ws.key), 404, 'not_found');
  });
});

describe('/api/v1/leads/{id}/notes', () => {
  it('adds notes without an author, audited as the key, and pages them newest first', async () => {
    const ws = await setUp();
    const id = await lead(ws.form.token, 'hal@example.com');
    const made: string[] = [];
    for (const text of ['  First call  ', 'Second', 'Third']) {
      const res = await t.api('POST', `/leads/${id}/notes`, ws.key, { text });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().note).toMatchObject({ body: text.trim(), author_id: null, author_name: null });
      made.push(res.json().note.id);
    }
    await t.ctx.db.query(`UPDATE lead_notes SET created_at = '2026-05-01T00:00:00Z' WHERE id = ANY($1)`, [
      made.slice(0, 2),
    ]);
    const page1 = await t.api('GET', `/leads/${id}/notes?limit=2`, ws.key);
    expect(page1.statusCode, page1.body).toBe(200);
    const first = page1.json().notes.map((n: { id: string }) => n.id);
    expect(first[0]).toBe(made[2]);
    await t.api('POST', `/leads/${id}/notes`, ws.key, { text: 'Arrived between pages' });
    const page2 = await t.api('GET', `/leads/${id}/notes?limit=2&cursor=${page1.json().next_cursor}`, ws.key);
    expect(page2.json().next_cursor).toBeNull();
    const all = [...first, ...page2.json().notes.map((n: { id: string }) => n.id)];
    expect(all.sort()).toEqual([...made].sort());
    // The app shows them on the lead.
    expect((await ws.client.call('GET', `/leads/${id}`)).json().notes).toHaveLength(4);
    expect((await audit(ws.workspaceId, id)).map((a) => [a.action, a.actor_type])).toEqual(
      made.concat('x').map(() => ['update', 'api_key']),
    );
  });

  it('replays a note sent again with the same Idempotency-Key', async () => {
    const ws = await setUp();
    const id = await lead(ws.form.token, 'ida@example.com');
    const send = () =>
      t.api('POST', `/leads/${id}/notes`, ws.key, { text: 'Once' }, { 'idempotency-key': 'note-1' });
    const a = await send();
    const b = await send();
    expect(a.statusCode, a.body).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json()).toEqual(a.json());
    expect((await t.api('GET', `/leads/${id}/notes`, ws.key)).json().notes).toHaveLength(1);
  });

  it('refuses a blank note at text and another workspace’s lead', async () => {
    const ws = await setUp();
    const other = await setUp();
    const id = await lead(ws.form.token, 'jo@example.com');
    const blank = await t.api('POST', `/leads/${id}/notes`, ws.key, { text: '   ' });
    expectRestError(blank, 422, 'validation_error');
    expect(blank.json().error.details[0].field).toBe('text');
    expectRestError(await t.api('POST', `/leads/${id}/notes`, other.key, { text: 'x' }), 404, 'not_found');
    expectRestError(await t.api('GET', `/leads/${id}/notes`, other.key), 404, 'not_found');
    expect((await t.api('GET', `/leads/${id}/notes`, ws.key)).json().notes).toEqual([]);
  });
});

describe('DELETE and POST /api/v1/leads/{id}/restore', () => {
  it('archives a lead out of the list and restores it, twice as once, audited as the key', async () => {
    const ws = await setUp();
    const id = await lead(ws.form.token, 'hal@example.com');
    const before = (await t.api('GET', `/leads/${id}`, ws.key)).json().lead;
    for (let i = 0; i < 2; i++) {
      const res = await t.api('DELETE', `/leads/${id}`, ws.key);
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
    }
    const archived = (await t.api('GET', `/leads/${id}`, ws.key)).json().lead;
    expect(archived.archived_at).toEqual(expect.any(String));
    expect(ids(await t.api('GET', '/leads', ws.key))).toEqual([]);
    // Archiving again keeps the first time.
    await t.api('DELETE', `/leads/${id}`, ws.key);
    expect((await t.api('GET', `/leads/${id}`, ws.key)).json().lead.archived_at).toBe(archived.archived_at);

    const res = await t.api('POST', `/leads/${id}/restore`, ws.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ result: true, lead: { ...before, updated_at: expect.any(String) } });
    expect(ids(await t.api('GET', '/leads', ws.key))).toEqual([id]);
    expect((await t.api('POST', `/leads/${id}/restore`, ws.key)).json().lead.archived_at).toBeNull();
    expect((await audit(ws.workspaceId, id)).map((a) => [a.action, a.actor_type])).toEqual([
      ['archive', 'api_key'],
      ['archive', 'api_key'],
      ['archive', 'api_key'],
      ['restore', 'api_key'],
      ['restore', 'api_key'],
    ]);
  });

  it('answers 404 for another workspace’s lead and no lead, changing nothing', async () => {
    const ws = await setUp();
    const other = await setUp();
    const id = await lead(ws.form.token, 'ivy@example.com');
    expectRestError(await t.api('DELETE', `/leads/${id}`, other.key), 404, 'not_found');
    expect(ids(await t.api('GET', '/leads', ws.key))).toEqual([id]);
    await t.api('DELETE', `/leads/${id}`, ws.key);
    expectRestError(await t.api('POST', `/leads/${id}/restore`, other.key), 404, 'not_found');
    expect(ids(await t.api('GET', '/leads', ws.key))).toEqual([]);
    expectRestError(await t.api('DELETE', '/leads/ld_nothing', ws.key), 404, 'not_found');
    expectRestError(await t.api('POST', '/leads/ld_nothing/restore', ws.key), 404, 'not_found');
    expect(await audit(other.workspaceId, id)).toEqual([]);
  });
});

describe('GET /api/v1/leads/export', () => {
  const rows = (res: { body: string }): Record<string, string>[] =>
    parse(res.body, { bom: true, columns: true });

  it('streams the leads as CSV with the filters of GET /leads, archived ones left out', async () => {
    const ws = await setUp();
    const first = await lead(ws.form.token, 'jo@example.com');
    const second = await lead(ws.form.token, 'kit@example.com');
    const other = (await t.api('POST', '/forms', ws.key, { name: 'Other', active: true })).json().form;
    const third = await submit(t, { token: other.token, email: 'lu@example.com', name: '=cmd()' });
    await t.ctx.db.query(
      `UPDATE leads SET created_at = CASE id WHEN $2 THEN '2026-01-01T00:00:00Z'::timestamptz
         ELSE '2026-03-01T00:00:00Z' END WHERE workspace_id = $1`,
      [ws.workspaceId, first],
    );
    await t.api('PATCH', `/leads/${second}`, ws.key, { status: 'won' });

    const res = await t.api('GET', '/leads/export', ws.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="leads-\d{4}-\d\d-\d\d\.csv"$/);
    const all = rows(res);
    expect(Object.keys(all[0]!)).toEqual([
      'id',
      'name',
      'email',
      'phone',
      'status',
      'source',
      'source_name',
      'contact_id',
      'created_at',
      'fields',
    ]);
    expect(all.map((r) => r.id).sort()).toEqual([first, second, third.json().lead_id].sort());
    expect(all.find((r) => r.id === first)).toMatchObject({
      email: 'jo@example.com',
      status: 'new',
      source: 'form',
      source_name: 'Enquiry',
      created_at: '2026-01-01T00:00:00.000Z',
    });
    expect(JSON.parse(all.find((r) => r.id === first)?.fields ?? '')).toMatchObject({ budget: '1k' });
    // A formula is made inert.
    expect(all.find((r) => r.id === third.json().lead_id)!.name).toBe("'=cmd()");

    const only = async (query: string) =>
      rows(await t.api('GET', `/leads/export?${query}`, ws.key))
        .map((r) => r.id)
        .sort();
    expect(await only(`form_id=${ws.form.id}`)).toEqual([first, second].sort());
    expect(await only('status=won')).toEqual([second]);
    expect(await only(`form_id=${ws.form.id}&status=new`)).toEqual([first]);
    expect(await only('since=2026-02-01T00:00:00Z')).toEqual([second, third.json().lead_id].sort());
    expect(await only('until=2026-02-01T00:00:00Z')).toEqual([first]);
    expect(await only('automation_id=sq_nothing')).toEqual([]);
    // An empty export still has its header.
    expect((await t.api('GET', '/leads/export?form_id=fm_nothing', ws.key)).body).toBe(
      '\uFEFFid,name,email,phone,status,source,source_name,contact_id,created_at,fields\n',
    );

    await t.api('DELETE', `/leads/${first}`, ws.key);
    expect(await only(`form_id=${ws.form.id}`)).toEqual([second]);
    // The app's export keeps every lead, archived ones too.
    const app = await ws.client.call('GET', '/leads/export');
    expect(rows(app).map((r) => r.id)).toContain(first);
  });

  it('refuses a bad filter with 422 and shows nothing of another workspace', async () => {
    const ws = await setUp();
    const other = await setUp();
    const id = await lead(ws.form.token, 'max@example.com');
    for (const query of ['status=maybe', 'since=yesterday', `form_id=${'x'.repeat(65)}`])
      expectRestError(await t.api('GET', `/leads/export?${query}`, ws.key), 422, 'validation_error');
    const theirs = await t.api('GET', `/leads/export?form_id=${ws.form.id}`, other.key);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body).not.toContain(id);
  });
});
