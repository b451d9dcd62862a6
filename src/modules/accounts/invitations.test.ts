import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { type AppClient, PASSWORD, signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';

const t = testAppForTests();

// Every acceptance counts against its client address's sign-in allowance: one address per call.
let lastOctet = 0;
function accept(token: string, password = 'a brand new password') {
  return t.app.inject({
    method: 'POST',
    url: '/api/app/invitations/accept',
    remoteAddress: `203.0.113.${++lastOctet}`,
    headers: { 'x-parley-csrf': '1' },
    payload: { token, password, name: 'Someone' },
  });
}

let n = 0;
async function invite(client: AppClient, role: 'owner' | 'admin' | 'member') {
  const email = `invitee${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await client.call('POST', '/invitations', { email, role });
  expect(res.statusCode).toBe(201);
  return { email, token: res.json().url.split('/invite/')[1] as string };
}

/** A workspace with its owner and an admin, both signed in. */
async function ownerAndAdmin() {
  const { client: admin, workspaceId } = await workspaceWithOwner(t, 'admin');
  const team = (await admin.call('GET', '/team')).json();
  const owner = await signIn(t, team.members.find((m: { role: string }) => m.role === 'owner').email);
  return { owner, admin, workspaceId };
}

async function expectDead(token: string) {
  expectRestError(
    await t.app.inject({ method: 'GET', url: `/api/app/invitations/${token}` }),
    404,
    'not_found',
  );
  expectRestError(await accept(token), 404, 'not_found');
}

describe("an inviter's standing", () => {
  it('revokes the open invitations of a member who is removed', async () => {
    const { owner, admin, workspaceId } = await ownerAndAdmin();
    const { token } = await invite(admin, 'admin');
    expect((await owner.call('DELETE', `/members/${admin.userId}`)).statusCode).toBe(200);
    await expectDead(token);
    expect((await owner.call('GET', '/team')).json().invitations).toEqual([]);
    const { rows } = await t.ctx.db.query('SELECT 1 FROM memberships WHERE workspace_id = $1', [workspaceId]);
    expect(rows).toHaveLength(1);
  });

  it('revokes them when the member leaves by themselves', async () => {
    const { admin } = await ownerAndAdmin();
    const { token } = await invite(admin, 'member');
    expect((await admin.call('DELETE', `/members/${admin.userId}`)).statusCode).toBe(200);
    await expectDead(token);
  });

  it('revokes an admin demoted to member, and only the owner invitations of an owner made admin', async () => {
    const { owner, admin } = await ownerAndAdmin();
    const byAdmin = await invite(admin, 'member');
    expect((await owner.call('PATCH', `/members/${admin.userId}`, { role: 'member' })).statusCode).toBe(200);
    await expectDead(byAdmin.token);

    const asOwner = await invite(owner, 'owner');
    const asMember = await invite(owner, 'member');
    expect((await owner.call('PATCH', `/members/${admin.userId}`, { role: 'owner' })).statusCode).toBe(200);
    expect((await owner.call('PATCH', `/members/${owner.userId}`, { role: 'admin' })).statusCode).toBe(200);
    await expectDead(asOwner.token);
    expect((await accept(asMember.token)).statusCode).toBe(201);
  });

  it('checks the inviter again on acceptance, for invitations left open before revocation existed', async () => {
    const { admin, workspaceId } = await ownerAndAdmin();
    const removed = await invite(admin, 'admin');
    const demoted = await ownerAndAdmin();
    const fromDemoted = await invite(demoted.admin, 'member');
    // As a removal or demotion made before this rule left them: the invitation rows still open.
    await t.ctx.db.query('DELETE FROM sessions WHERE user_id = $1', [admin.userId]);
    await t.ctx.db.query('DELETE FROM memberships WHERE workspace_id = $1 AND user_id = $2', [
      workspaceId,
      admin.userId,
    ]);
    await t.ctx.db.query(`UPDATE memberships SET role = 'member' WHERE workspace_id = $1 AND user_id = $2`, [
      demoted.workspaceId,
      demoted.admin.userId,
    ]);
    await expectDead(removed.token);
    await expectDead(fromDemoted.token);
    const { rows } = await t.ctx.db.query('SELECT 1 FROM users WHERE email IN ($1, $2)', [
      removed.email,
      fromDemoted.email,
    ]);
    expect(rows).toEqual([]);
  });
});

describe('accepting one invitation several times at once', () => {
  it('lets one in (201) and answers the rest 409, for a new account', async () => {
    const { admin, workspaceId } = await ownerAndAdmin();
    const { token, email } = await invite(admin, 'member');
    const answers = await Promise.all(Array.from({ length: 5 }, () => accept(token)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    for (const r of answers.filter((a) => a.statusCode === 409)) expectRestError(r, 409, 'conflict');
    const { rows } = await t.ctx.db.query(
      `SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = $1 AND u.email = $2`,
      [workspaceId, email],
    );
    expect(rows).toHaveLength(1);
    expectRestError(await accept(token), 409, 'conflict');
  });

  it('does the same for an existing account proving its password', async () => {
    const { admin } = await ownerAndAdmin();
    const other = await workspaceWithOwner(t);
    const res = await admin.call('POST', '/invitations', { email: other.client.email, role: 'member' });
    const token = res.json().url.split('/invite/')[1];
    const answers = await Promise.all(Array.from({ length: 5 }, () => accept(token, PASSWORD)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
  });
});

describe('accepting two invitations for one new e-mail at once', () => {
  it('creates one account; the other acceptance gets 409 (the account was just created), never a 500', async () => {
    const a = await workspaceWithOwner(t);
    const b = await workspaceWithOwner(t);
    const email = `twice-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const tokens = [];
    for (const { client } of [a, b]) {
      const res = await client.call('POST', '/invitations', { email, role: 'member' });
      expect(res.statusCode).toBe(201);
      tokens.push(res.json().url.split('/invite/')[1] as string);
    }
    const answers = await Promise.all(tokens.map((token) => accept(token)));
    const statuses = answers.map((r) => r.statusCode).sort();
    const users = await t.ctx.db.query<{ id: string }>('SELECT id FROM users WHERE lower(email) = $1', [
      email,
    ]);
    expect(users.rows).toHaveLength(1);
    if (t.ctx.db.kind === 'pglite') {
      // One connection runs one transaction at a time: the second finds the account and proves its password.
      expect(statuses).toEqual([201, 201]);
      return;
    }
    expect(statuses).toEqual([201, 409]);
    const late = answers.find((r) => r.statusCode === 409)!;
    expectRestError(late, 409, 'conflict');
    expect(late.json().error.message).toMatch(/just created/);
    // Its invitation is still open: accepted again, with the account's password, it joins.
    const second = tokens[answers.indexOf(late)]!;
    expect((await accept(second)).statusCode).toBe(201);
    const { rows } = await t.ctx.db.query('SELECT workspace_id FROM memberships WHERE user_id = $1', [
      users.rows[0]!.id,
    ]);
    expect(rows).toHaveLength(2);
  });
});
