import { describe, expect, it } from 'vitest';
import { secondInstance } from '../../../test/support/app.js';
import { type AppClient, PASSWORD, signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { TEST_DB } from '../../../test/support/database.js';
import { openLiveStream } from '../../../test/support/live.js';
import { listen, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { createResetLink } from '../accounts/reset-tokens.js';
import { addMember, createOwnedWorkspace, createUser } from '../accounts/users.js';

const t = simulatorAppForTests();

let n = 0;

/**
 * A member of a team's workspace with a stream of it open, whose session has since switched to a
 * workspace of their own: the stream is the team's, the session no longer is.
 */
async function switchedMember(base = t.base) {
  const team = await workspaceWithOwner(t);
  const email = `switched-${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const memberId = await createUser(t.ctx.db, email, PASSWORD);
  const own = await createOwnedWorkspace(t.ctx.db, memberId, 'Their own', '91');
  await addMember(t.ctx.db, team.workspaceId, memberId, 'member');
  const member = await signIn(t, email);
  await expectSwitch(member, team.workspaceId);
  const stream = await openLiveStream(base, member.cookie);
  expect(stream.status).toBe(200);
  await expectSwitch(member, own);
  const ownerStream = await openLiveStream(t.base, team.client.cookie);
  return { team, member, memberId, stream, ownerStream };
}

async function expectSwitch(member: AppClient, workspaceId: string) {
  const res = await member.call('POST', '/session/workspace', { workspace_id: workspaceId });
  expect(res.statusCode, res.body).toBe(200);
}

describe('a member’s streams of a workspace end with their place in it', () => {
  it('at removal, though their session switched to another workspace', async () => {
    const { team, memberId, stream, ownerStream } = await switchedMember();
    expect((await team.client.call('DELETE', `/members/${memberId}`)).statusCode).toBe(200);
    await until(() => stream.ended(), 2_000);
    expect(ownerStream.ended()).toBe(false);
    ownerStream.close();
  });

  it('at a role change, though their session switched to another workspace', async () => {
    const { team, memberId, stream, ownerStream } = await switchedMember();
    const res = await team.client.call('PATCH', `/members/${memberId}`, { role: 'admin' });
    expect(res.statusCode, res.body).toBe(200);
    await until(() => stream.ended(), 2_000);
    expect(ownerStream.ended()).toBe(false);
    ownerStream.close();
  });

  it('at sign-out, though their session switched to another workspace', async () => {
    const { member, stream, ownerStream } = await switchedMember();
    expect((await member.call('POST', '/logout')).statusCode).toBe(200);
    await until(() => stream.ended(), 2_000);
    expect(ownerStream.ended()).toBe(false);
    ownerStream.close();
  });

  it('at a password reset, though their session switched to another workspace', async () => {
    const { memberId, stream, ownerStream } = await switchedMember();
    const link = await createResetLink(t.ctx.db, t.ctx.config.appUrl, memberId);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/app/password-reset/complete',
      headers: { 'x-parley-csrf': '1' },
      payload: { token: link.url.split('/reset-password/')[1], password: 'a new horse battery' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await until(() => stream.ended(), 2_000);
    expect(ownerStream.ended()).toBe(false);
    ownerStream.close();
  });

  it.runIf(TEST_DB === 'postgres')('on another instance than the one that removed them', async () => {
    const second = await secondInstance(t);
    try {
      const { team, memberId, stream, ownerStream } = await switchedMember(await listen(second));
      expect((await team.client.call('DELETE', `/members/${memberId}`)).statusCode).toBe(200);
      await until(() => stream.ended(), 2_000);
      expect(ownerStream.ended()).toBe(false);
      ownerStream.close();
    } finally {
      await second.close();
    }
  });
});
