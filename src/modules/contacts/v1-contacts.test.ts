import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { encodeCursor } from '../../api/page-cursor.js';
import { createEndpoint } from '../webhooks/endpoints.js';

const t = testAppForTests();

async function contact(key: string, body: Record<string, unknown>): Promise<string> {
  const res = await t.api('POST', '/contacts', key, body);
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

const expectInvalid = (res: Parameters<typeof expectRestError>[0], field: string) => {
  expectRestError(res, 422, 'validation_error');
  expect((res.json() as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe(field);
};

const audit = async (workspaceId: string, id: string) =>
  (
    await t.ctx.db.query<Record<string, unknown>>(
      `SELECT actor_type, actor_id, action, changes FROM audit_log
       WHERE workspace_id = $1 AND entity_id = $2 ORDER BY id`,
      [workspaceId, id],
    )
  ).rows;

describe('GET /contacts/{id}', () => {
  it("answers the contact as the list shows it, and 404 for an unknown or another workspace's id", async () => {
    const { key } = await t.workspace();
    const other = await t.workspace();
    const id = await contact(key, {
      phone: '+14155552671',
      name: 'Asha',
      tags: ['vip'],
      traits: { plan: 'pro' },
    });
    const res = await t.api('GET', `/contacts/${id}`, key);
    expect(res.statusCode).toBe(200);
    const [listed] = (await t.api('GET', '/contacts', key)).json().contacts;
    expect(res.json()).toEqual({ result: true, contact: listed });
    expect(res.json().contact).toMatchObject({ id, phone: '14155552671', name: 'Asha', tags: ['vip'] });
    expectRestError(await t.api('GET', '/contacts/ct_nope', key), 404, 'not_found');
    expectRestError(await t.api('GET', `/contacts/${id}`, other.key), 404, 'not_found');
    expectInvalid(await t.api('GET', `/contacts/${'x'.repeat(65)}`, key), 'params.id');
  });
});

describe('GET /contacts?phone=', () => {
  it("finds the one contact with the phone, normalised with the workspace's default country code", async () => {
    const { key } = await t.workspace({ defaultCountryCode: '91' });
    const id = await contact(key, { phone: '+91 98765 43210' });
    await contact(key, { phone: '+91 98765 43211' });
    for (const phone of ['98765 43210', '+91 98765-43210', '0091 9876543210']) {
      const res = await t.api('GET', `/contacts?phone=${encodeURIComponent(phone)}`, key);
      expect(res.statusCode).toBe(200);
      expect(res.json().contacts.map((c: { id: string }) => c.id)).toEqual([id]);
      expect(res.json()).toMatchObject({ has_next_page: false, next_cursor: null });
    }
    expect((await t.api('GET', '/contacts?phone=9876543219', key)).json().contacts).toEqual([]);
    expectInvalid(await t.api('GET', '/contacts?phone=415-555-01x0', key), 'phone');
  });

  it('refuses a national number where the workspace has no default country code', async () => {
    const { key } = await t.workspace({ defaultCountryCode: null });
    expectInvalid(await t.api('GET', '/contacts?phone=98765%2043210', key), 'phone');
  });
});

describe('GET /contacts with a cursor', () => {
  it('visits every contact once, oldest first, while new ones arrive', async () => {
    const { id: ws, key } = await t.workspace();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await contact(key, { phone: `+1415555260${i}` }));
    // Three made at the same moment: the id decides between them.
    await t.ctx.db.query(
      `UPDATE contacts SET created_at = '2026-01-01T00:00:00.123456Z' WHERE workspace_id = $1 AND id = ANY ($2)`,
      [ws, ids.slice(1, 4)],
    );
    await t.ctx.db.query(
      `UPDATE contacts SET created_at = '2025-12-31T00:00:00Z' WHERE workspace_id = $1 AND id = $2`,
      [ws, ids[0]],
    );
    const expected = [ids[0]!, ...ids.slice(1, 4).sort(), ids[4]!];
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `limit=2&cursor=${cursor}` : 'limit=2';
      const res = await t.api('GET', `/contacts?${query}`, key);
      expect(res.statusCode).toBe(200);
      const page = res.json();
      expect(page).toMatchObject({ limit: 2, offset: 0, has_next_page: page.next_cursor !== null });
      seen.push(...page.contacts.map((c: { id: string }) => c.id));
      cursor = page.next_cursor;
      // A contact arriving meanwhile comes last, once.
      if (++pages === 1) expected.push(await contact(key, { phone: '+14155552699' }));
    } while (cursor);
    expect(seen).toEqual(expected);
    expect(pages).toBe(3);
  });

  it('refuses offset with cursor, a garbled cursor and a cursor of another list, at cursor', async () => {
    const { key } = await t.workspace();
    const cursor = encodeCursor({ micros: '1764338400123456', id: 'ct_x' });
    expectInvalid(await t.api('GET', `/contacts?offset=0&cursor=${cursor}`, key), 'cursor');
    expectInvalid(await t.api('GET', '/contacts?cursor=not-a-cursor', key), 'cursor');
    const foreign = Buffer.from(JSON.stringify({ page: 2 })).toString('base64url');
    expectInvalid(await t.api('GET', `/contacts?cursor=${foreign}`, key), 'cursor');
    // A cursor of ours past the end is an empty last page.
    const past = encodeCursor({ micros: '9999999999999999', id: 'ct_z' });
    expect((await t.api('GET', `/contacts?cursor=${past}`, key)).json()).toMatchObject({
      contacts: [],
      next_cursor: null,
      has_next_page: false,
    });
  });
});

describe('PATCH /contacts/{id}', () => {
  it('changes name, e-mail, tags and traits field by field, and records the key', async () => {
    const { id: ws, key } = await t.workspace();
    const id = await contact(key, {
      phone: '+14155552671',
      name: 'Asha',
      email: 'asha@example.com',
      tags: ['trial', 'newsletter'],
      traits: { plan: 'free', coupon: 'X1', seats: 3 },
    });
    const res = await t.api('PATCH', `/contacts/${id}`, key, {
      name: 'Asha Rao',
      tags: { add: ['vip', 'newsletter', 'both'], remove: ['trial', 'both'] },
      traits: { plan: 'pro', coupon: null, active: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().contact).toMatchObject({
      id,
      phone: '14155552671',
      name: 'Asha Rao',
      email: 'asha@example.com',
      tags: ['newsletter', 'vip'],
      traits: { plan: 'pro', seats: 3, active: true },
      opted_out: false,
    });
    expect(res.json().contact.traits).not.toHaveProperty('coupon');
    expect((await t.api('GET', `/contacts/${id}`, key)).json()).toEqual(res.json());
    const cleared = await t.api('PATCH', `/contacts/${id}`, key, { email: null });
    expect(cleared.json().contact).toMatchObject({ name: 'Asha Rao', email: null });
    const keyId = (await audit(ws, id))[0]!.actor_id;
    expect((await audit(ws, id)).slice(1)).toEqual([
      {
        actor_type: 'api_key',
        actor_id: keyId,
        action: 'update',
        changes: { fields: ['name', 'add_tags', 'remove_tags', 'traits', 'remove_traits'] },
      },
      { actor_type: 'api_key', actor_id: keyId, action: 'update', changes: { fields: ['email'] } },
    ]);
  });

  it('opts the contact out and back in as the app does: recorded once, with the webhook event', async () => {
    const { id: ws, key } = await t.workspace();
    await createEndpoint(t.ctx, ws, 'https://hooks.example.invalid/x', [
      'contact.opted_out',
      'contact.opted_in',
    ]);
    const id = await contact(key, { phone: '+14155552671', name: 'Asha' });
    const out = await t.api('PATCH', `/contacts/${id}`, key, { opted_out: true });
    expect(out.statusCode).toBe(200);
    expect(out.json().contact).toMatchObject({
      name: 'Asha',
      opted_out: true,
      opted_out_at: expect.any(String),
    });
    // Saying it again records nothing more.
    expect((await t.api('PATCH', `/contacts/${id}`, key, { opted_out: true })).statusCode).toBe(200);
    const back = await t.api('PATCH', `/contacts/${id}`, key, { opted_out: false, name: 'Asha R' });
    expect(back.json().contact).toMatchObject({ name: 'Asha R', opted_out: false, opted_out_at: null });
    const consent = await t.ctx.db.query(
      'SELECT opted_out, source FROM consent_changes WHERE workspace_id = $1 AND contact_id = $2 ORDER BY created_at',
      [ws, id],
    );
    expect(consent.rows).toEqual([
      { opted_out: true, source: 'api' },
      { opted_out: false, source: 'api' },
    ]);
    const events = await t.ctx.db.query<{ event_type: string; payload: { data: Record<string, unknown> } }>(
      'SELECT event_type, payload FROM webhook_deliveries WHERE workspace_id = $1 ORDER BY created_at',
      [ws],
    );
    expect(events.rows.map((e) => [e.event_type, e.payload.data.contact_id, e.payload.data.source])).toEqual([
      ['contact.opted_out', id, 'api'],
      ['contact.opted_in', id, 'api'],
    ]);
    const changes = (await audit(ws, id)).slice(1).map((e) => [e.actor_type, e.changes]);
    expect(changes).toEqual([
      ['api_key', { fields: ['opted_out'] }],
      ['api_key', { fields: ['name'] }],
      ['api_key', { fields: ['opted_out'] }],
    ]);
  });

  it("answers 404 for an unknown or another workspace's contact, changing nothing", async () => {
    const { key } = await t.workspace();
    const other = await t.workspace();
    const id = await contact(key, { phone: '+14155552671', name: 'Asha' });
    expectRestError(await t.api('PATCH', '/contacts/ct_nope', key, { name: 'x' }), 404, 'not_found');
    for (const body of [{ name: 'B' }, { opted_out: true }, { tags: { add: ['b'] } }])
      expectRestError(await t.api('PATCH', `/contacts/${id}`, other.key, body), 404, 'not_found');
    expect((await t.api('GET', `/contacts/${id}`, key)).json().contact).toMatchObject({
      name: 'Asha',
      tags: [],
      opted_out: false,
    });
  });

  it('refuses what it cannot apply, naming the field', async () => {
    const { key } = await t.workspace();
    const id = await contact(key, { phone: '+14155552671' });
    for (const [body, field] of [
      [{}, 'body'],
      [{ phone: '+14155550111' }, 'phone'],
      [{ email: 'nope' }, 'email'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: 'a\nb' }, 'name'],
      [{ tags: {} }, 'tags'],
      [{ tags: ['vip'] }, 'tags'],
      [{ tags: { add: ['t'.repeat(65)] } }, 'tags.add.0'],
      [{ tags: { replace: ['x'] } }, 'tags.replace'],
      [{ traits: { k: { nested: true } } }, 'traits.k'],
      [{ opted_out: 'yes' }, 'opted_out'],
    ] as const) {
      expectInvalid(await t.api('PATCH', `/contacts/${id}`, key, body), field);
    }
  });
});

describe('DELETE /contacts/{id}', () => {
  it("erases the contact, its messages' content and its media, then answers 404", async () => {
    const { id: ws, key } = await t.workspace();
    const id = await contact(key, { phone: '+14155552671', name: 'Erase Me' });
    const keep = await contact(key, { phone: '+14155552672', name: 'Keep Me' });
    await t.ctx.db.query(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, text, status, status_rank)
       VALUES ($1, 'msg_erase', 'inbound', $2, '14155552671', 'text', 'my secret', 'read', 4),
              ($1, 'msg_keep', 'inbound', $3, '14155552672', 'text', 'kept', 'read', 4)`,
      [ws, id, keep],
    );
    const file = `${ws}/med_erase`;
    await t.ctx.media.put(file, Readable.from([Buffer.from('jpeg bytes')]));
    await t.ctx.db.query(
      `INSERT INTO media (workspace_id, id, direction, message_id, kind, storage_key, state)
       VALUES ($1, 'med_erase', 'inbound', 'msg_erase', 'image', $2, 'stored')`,
      [ws, file],
    );

    const res = await t.api('DELETE', `/contacts/${id}`, key);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    expectRestError(await t.api('GET', `/contacts/${id}`, key), 404, 'not_found');
    expectRestError(await t.api('DELETE', `/contacts/${id}`, key), 404, 'not_found');
    const messages = await t.ctx.db.query(
      'SELECT id, phone, text FROM messages WHERE workspace_id = $1 ORDER BY id',
      [ws],
    );
    expect(messages.rows).toEqual([
      { id: 'msg_erase', phone: '', text: null },
      { id: 'msg_keep', phone: '14155552672', text: 'kept' },
    ]);
    expect((await t.ctx.db.query('SELECT 1 FROM media WHERE workspace_id = $1', [ws])).rows).toEqual([]);
    expect(await t.ctx.media.get(file)).toBeNull();
    expect((await t.api('GET', `/contacts/${keep}`, key)).statusCode).toBe(200);
    expect((await audit(ws, id)).map((e) => [e.actor_type, e.action])).toEqual([
      ['api_key', 'create'],
      ['api_key', 'delete'],
    ]);
  });

  it("answers 404 for another workspace's contact and leaves it be", async () => {
    const { key } = await t.workspace();
    const other = await t.workspace();
    const id = await contact(key, { phone: '+14155552671' });
    expectRestError(await t.api('DELETE', `/contacts/${id}`, other.key), 404, 'not_found');
    expect((await t.api('GET', `/contacts/${id}`, key)).statusCode).toBe(200);
  });
});

describe('GET /contacts/{id}/timeline', () => {
  it('pages the history newest first, each item once while new ones arrive', async () => {
    const { id: ws, key } = await t.workspace();
    const id = await contact(key, { phone: '+14155552671' });
    const message = (mid: string, at: string) =>
      t.ctx.db.query(
        `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, text, status, status_rank, created_at)
         VALUES ($1, $2, 'inbound', $3, '14155552671', 'text', $2, 'read', 4, $4)`,
        [ws, mid, id, at],
      );
    await message('msg_a', '2026-01-01T00:00:00.000001Z');
    await message('msg_b', '2026-01-02T00:00:00Z');
    await message('msg_c', '2026-01-02T00:00:00Z');
    await message('msg_d', '2026-01-02T00:00:00.000001Z');
    // Through the API: a consent change, now.
    await t.api('PATCH', `/contacts/${id}`, key, { opted_out: true });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const res = await t.api('GET', `/contacts/${id}/timeline${query}`, key);
      expect(res.statusCode).toBe(200);
      const page = res.json();
      if (pages === 0)
        expect(page.timeline[0]).toMatchObject({
          kind: 'consent',
          title: 'Opted out',
          detail: 'through the REST API',
        });
      seen.push(...page.timeline.map((item: { id: string }) => item.id));
      cursor = page.next_cursor;
      if (++pages === 1) await message('msg_new', new Date().toISOString());
    } while (cursor);
    expect(seen.slice(1)).toEqual(['msg_d', 'msg_c', 'msg_b', 'msg_a']);
    expect(pages).toBe(3);
  });

  it("answers 404 for another workspace's contact and 422 for a garbled cursor", async () => {
    const { key } = await t.workspace();
    const other = await t.workspace();
    const id = await contact(key, { phone: '+14155552671' });
    expectRestError(await t.api('GET', `/contacts/${id}/timeline`, other.key), 404, 'not_found');
    expectRestError(await t.api('GET', '/contacts/ct_nope/timeline', key), 404, 'not_found');
    expectInvalid(await t.api('GET', `/contacts/${id}/timeline?cursor=%00%01`, key), 'querystring.cursor');
    expectInvalid(await t.api('GET', `/contacts/${id}/timeline?cursor=bm9wZQ`, key), 'cursor');
    expectInvalid(await t.api('GET', `/contacts/${id}/timeline?limit=201`, key), 'querystring.limit');
  });
});

describe('GET /contacts/tags', () => {
  it("lists the workspace's own tags by name with their counts", async () => {
    const { key } = await t.workspace();
    const other = await t.workspace();
    await contact(key, { phone: '+14155552671', tags: ['vip', 'newsletter'] });
    await contact(key, { phone: '+14155552672', tags: ['newsletter'] });
    await contact(other.key, { phone: '+14155552673', tags: ['theirs'] });
    const res = await t.api('GET', '/contacts/tags', key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      result: true,
      tags: [
        { tag: 'newsletter', contacts: 2 },
        { tag: 'vip', contacts: 1 },
      ],
    });
  });
});
