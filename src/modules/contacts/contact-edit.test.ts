import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { submit } from '../../../test/support/intake.js';
import { until } from '../../../test/support/until.js';
import { createForm } from '../forms/create-form.js';
import { CANCELLED_BY_DELETION } from './delete-contact.js';

const t = testAppForTests({ queue: true });

const audit = async (workspaceId: string) =>
  (
    await t.ctx.db.query<Record<string, unknown>>(
      `SELECT actor_type, actor_id, action, entity_type, entity_id, changes FROM audit_log
       WHERE workspace_id = $1 ORDER BY id`,
      [workspaceId],
    )
  ).rows;

describe('contacts added and edited in the web app', () => {
  it('creates a contact with the REST rules and phone normalisation, and records who did it', async () => {
    const { client, workspaceId } = await workspaceWithOwner(t);
    // The workspace's default country code (91) applies, as for the REST upsert.
    const res = await client.call('POST', '/contacts', {
      phone: '98765 43210',
      name: 'Meera',
      email: 'meera@example.com',
      tags: ['vip'],
      traits: { plan: 'pro', seats: 3 },
    });
    expect(res.statusCode).toBe(201);
    const contact = res.json().contact;
    expect(contact).toMatchObject({
      phone: '919876543210',
      name: 'Meera',
      email: 'meera@example.com',
      tags: ['vip'],
      traits: { plan: 'pro', seats: 3 },
    });
    expect(await audit(workspaceId)).toEqual([
      {
        actor_type: 'user',
        actor_id: client.userId,
        action: 'create',
        entity_type: 'contact',
        entity_id: contact.id,
        changes: { fields: ['name', 'email', 'tags', 'traits'] },
      },
    ]);
  });

  it('refuses a bad phone, a bad e-mail, a name too long and a phone taken, each at its field in words', async () => {
    const { client } = await workspaceWithOwner(t);
    await client.call('POST', '/contacts', { phone: '+14155550100' });
    const cases: [object, string, RegExp][] = [
      [{ phone: '415-555-01x0' }, 'phone', /^Use digits only/],
      [{ phone: '+14155550101', email: 'not-an-address' }, 'email', /^Enter an e-mail address/],
      [{ phone: '+14155550102', name: 'n'.repeat(201) }, 'name', /^Use at most 200 characters\.$/],
      [{ phone: '+1 415 555 0100' }, 'phone', /^\+14155550100 is already a contact/],
    ];
    for (const [body, field, message] of cases) {
      const res = await client.call('POST', '/contacts', body);
      expectRestError(res, 422, 'validation_error');
      expect(res.json().error.details[0]).toEqual({ field, message: expect.stringMatching(message) });
    }
    expect((await client.call('GET', '/contacts')).json().contacts).toHaveLength(1);
  });

  it('edits name and e-mail, adds and removes tags and typed traits, one change at a time', async () => {
    const { client, apiKey, workspaceId } = await workspaceWithOwner(t, 'member');
    const { id } = (
      await t.api('POST', '/contacts', apiKey, {
        phone: '+14155550110',
        name: 'Old',
        tags: ['a', 'b'],
        traits: { plan: 'free', score: 1 },
      })
    ).json();
    const edit = async (body: object) => {
      const res = await client.call('PATCH', `/contacts/${id}`, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().contact;
    };
    expect(await edit({ name: 'New', email: 'new@example.com' })).toMatchObject({
      name: 'New',
      email: 'new@example.com',
    });
    expect((await edit({ add_tags: ['c', 'a', 'c'] })).tags).toEqual(['a', 'b', 'c']);
    expect((await edit({ remove_tags: ['a'] })).tags).toEqual(['b', 'c']);
    expect((await edit({ traits: { score: 2.5, paid: true, note: null } })).traits).toEqual({
      plan: 'free',
      score: 2.5,
      paid: true,
      note: null,
    });
    expect((await edit({ remove_traits: ['plan', 'absent'] })).traits).toEqual({
      score: 2.5,
      paid: true,
      note: null,
    });
    expect(await edit({ email: null, name: null })).toMatchObject({ name: null, email: null });

    for (const [body, field] of [
      [{ email: 'nope' }, 'email'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ add_tags: ['t'.repeat(65)] }, 'add_tags.0'],
      [{ traits: { k: { nested: true } } }, 'traits.k'],
      [{ phone: '+14155550111' }, 'phone'],
      [{}, 'body'],
    ] as const) {
      const res = await client.call('PATCH', `/contacts/${id}`, body);
      expectRestError(res, 422, 'validation_error');
      expect(res.json().error.details[0].field).toBe(field);
      expect(res.json().error.message).not.toMatch(/must|schema/);
    }
    // The REST upsert is recorded with its key, the member's edits with the member.
    const entries = await audit(workspaceId);
    expect(entries[0]).toMatchObject({ actor_type: 'api_key', action: 'create', entity_id: id });
    expect(entries.slice(1)).toHaveLength(6);
    expect(entries.at(-1)).toMatchObject({
      actor_type: 'user',
      actor_id: client.userId,
      action: 'update',
      changes: { fields: ['email', 'name'] },
    });
    // A member edits contacts; only owners and admins delete them.
    expectRestError(await client.call('DELETE', `/contacts/${id}`), 403, 'forbidden');
  });

  it('answers 404 for an unknown contact', async () => {
    const { client } = await workspaceWithOwner(t);
    expectRestError(await client.call('PATCH', '/contacts/ct_nope', { name: 'x' }), 404, 'not_found');
    expectRestError(await client.call('DELETE', '/contacts/ct_nope'), 404, 'not_found');
  });
});

describe('deleting a contact', () => {
  it('erases the person, keeps their history countable without them, and stops their runs', async () => {
    const { client, apiKey, workspaceId } = await workspaceWithOwner(t);
    const phone = '+14155550120';
    const { id } = (await t.api('POST', '/contacts', apiKey, { phone, name: 'Erase Me' })).json();
    const flow = {
      name: 'Waits',
      trigger: { type: 'event', event: 'signup' },
      steps: [{ id: 'w', type: 'wait', duration: '2d' }],
    };
    await client.call('POST', '/automations', { kind: 'flow', definition: flow, publish: true });
    expect(
      (await t.api('POST', '/events', apiKey, { phone, event: 'signup', properties: { plan: 'x' } }))
        .statusCode,
    ).toBe(202);
    await until(async () => {
      const { rows } = await t.ctx.db.query(
        "SELECT 1 FROM runs WHERE workspace_id = $1 AND contact_id = $2 AND status = 'waiting'",
        [workspaceId, id],
      );
      return rows.length > 0;
    });
    const form = await createForm(t.ctx.db, workspaceId, { name: 'Site' });
    expect((await submit(t, { token: form.token, name: 'Erase Me', phone, city: 'Pune' })).statusCode).toBe(
      201,
    );
    await t.ctx.db.query(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, text, status, status_rank)
       VALUES ($1, 'msg_erase', 'inbound', $2, $3, 'text', 'my secret', 'read', 4)`,
      [workspaceId, id, phone.slice(1)],
    );

    expect((await client.call('DELETE', `/contacts/${id}`)).statusCode).toBe(200);

    expectRestError(await client.call('GET', `/contacts/${id}`), 404, 'not_found');
    const row = async (sql: string) => (await t.ctx.db.query(sql, [workspaceId, id])).rows;
    expect(
      await row('SELECT phone, text, content FROM messages WHERE workspace_id = $1 AND contact_id = $2'),
    ).toEqual([{ phone: '', text: null, content: null }]);
    expect(
      await row(
        'SELECT name, email, phone, fields, source FROM leads WHERE workspace_id = $1 AND contact_id = $2',
      ),
    ).toEqual([{ name: null, email: null, phone: null, fields: {}, source: 'form' }]);
    expect(
      await row('SELECT status, error, trigger_data FROM runs WHERE workspace_id = $1 AND contact_id = $2'),
    ).toEqual([{ status: 'failed', error: CANCELLED_BY_DELETION, trigger_data: {} }]);
    expect(await row('SELECT properties FROM events WHERE workspace_id = $1 AND contact_id = $2')).toEqual([
      { properties: {} },
    ]);
    // The same phone may come back later as a new contact; the count of contacts went down.
    const again = (await t.api('POST', '/contacts', apiKey, { phone })).json();
    expect(again).toMatchObject({ created: true });
    expect(again.id).not.toBe(id);
    expect((await client.call('GET', '/usage')).json().contacts.used).toBe(1);
    expect((await audit(workspaceId)).filter((e) => e.entity_id === id).map((e) => e.action)).toEqual([
      'create',
      'delete',
    ]);
  });
});
