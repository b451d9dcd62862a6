import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { PASSWORD, signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { addMember, createUser } from '../accounts/users.js';

const t = testAppForTests();

describe('GET /api/app/audit-log', () => {
  it('records team and key changes without secrets, pages newest first, filters, and is for managers', async () => {
    const { client, workspaceId } = await workspaceWithOwner(t);
    const email = 'audited-member@example.com';
    const memberId = await createUser(t.ctx.db, email, PASSWORD, 'Mem');
    await addMember(t.ctx.db, workspaceId, memberId, 'member');

    const key = (await client.call('POST', '/api-keys', { name: 'CI' })).json();
    expect((await client.call('DELETE', `/api-keys/${key.id}`)).statusCode).toBe(200);
    const invite = (
      await client.call('POST', '/invitations', { email: 'x@example.com', role: 'admin' })
    ).json();
    expect((await client.call('DELETE', `/invitations/${invite.id}`)).statusCode).toBe(200);
    expect((await client.call('PATCH', `/members/${memberId}`, { role: 'admin' })).statusCode).toBe(200);
    expect((await client.call('PATCH', `/members/${memberId}`, { role: 'member' })).statusCode).toBe(200);

    const page = (await client.call('GET', '/audit-log')).json();
    expect(page).toMatchObject({ result: true, has_next_page: false, limit: 50, offset: 0 });
    expect(
      page.entries.map((e: { action: string; entity_type: string }) => `${e.action} ${e.entity_type}`),
    ).toEqual([
      'update member',
      'update member',
      'revoke invitation',
      'create invitation',
      'revoke api_key',
      'create api_key',
    ]);
    expect(page.entries[0]).toMatchObject({
      actor_type: 'user',
      actor_id: client.userId,
      actor_name: 'Owner',
      entity_id: memberId,
      changes: { fields: ['role'], from: 'admin', role: 'member' },
    });
    // The key itself, its hash and the invitation's link never reach the log.
    const text = JSON.stringify(page);
    expect(text).not.toContain(key.key);
    expect(text).not.toContain(invite.url.split('/').at(-1));

    const keys = (await client.call('GET', '/audit-log?entity=api_key&limit=1')).json();
    expect(keys.entries).toMatchObject([{ action: 'revoke', entity_id: key.id }]);
    expect(keys.has_next_page).toBe(true);
    const next = (await client.call('GET', '/audit-log?entity=api_key&limit=1&offset=1')).json();
    expect(next.entries).toMatchObject([{ action: 'create', changes: { name: 'CI' } }]);
    expectRestError(await client.call('GET', '/audit-log?entity=secrets'), 422, 'validation_error');

    const member = await signIn(t, email);
    expectRestError(await member.call('GET', '/audit-log'), 403, 'forbidden');
  });
});
