import { describe, expect, it } from 'vitest';
import { type AppClient, PASSWORD, signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { connectSimulator, simControl, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { addMember, createUser } from '../accounts/users.js';
import { createAutomation } from '../automation/save-automation.js';
import { TEAMS_MAX } from './schemas.js';

// Teams, availability and round-robin assignment of new conversations (issue 30).

const t = simulatorAppForTests({ queue: true });

let phones = 14155551200;
let people = 0;

/** A connected workspace, its owner signed in, and `n` more members, each signed in (so seen now). */
async function workspace(n = 2) {
  const owner = await workspaceWithOwner(t);
  const number = await connectSimulator(t, t.base, owner.workspaceId);
  const members: AppClient[] = [owner.client];
  for (let i = 0; i < n; i++) {
    const email = `teammate${++people}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await addMember(
      t.ctx.db,
      owner.workspaceId,
      await createUser(t.ctx.db, email, PASSWORD, `Mate ${people}`),
      'member',
    );
    const client = await signIn(t, email);
    await client.call('GET', '/me/availability');
    members.push(client);
  }
  await owner.client.call('GET', '/me/availability');
  const db = t.ctx.db;
  /** A new customer writes; answers their contact id once the message is stored. */
  const customer = async (text = 'Hello', from = String(phones++)) => {
    const res = await simControl(t.base, '/inbound', { from, text, phone_number_id: number.phoneNumberId });
    expect(res.body.delivered_status).toBe(200);
    await until(async () => (await contactOf(from)) !== undefined);
    return (await contactOf(from))!;
  };
  const contactOf = async (phone: string) =>
    (
      await db.query<{ id: string }>(
        `SELECT c.id FROM contacts c WHERE c.workspace_id = $1 AND c.phone = $2
           AND EXISTS (SELECT 1 FROM messages m WHERE m.workspace_id = c.workspace_id AND m.contact_id = c.id)`,
        [owner.workspaceId, phone],
      )
    ).rows[0]?.id;
  const conversation = async (id: string) =>
    (await owner.client.call('GET', `/conversations/${id}`)).json().conversation;
  const team = async (body: Record<string, unknown>) => {
    const res = await owner.client.call('POST', '/teams', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().team as { id: string; members: { id: string; available: boolean }[] };
  };
  const autoAssign = async (teamId: string | null, idle = 15) => {
    const res = await owner.client.call('PUT', '/routing', {
      auto_assign_team_id: teamId,
      idle_minutes: idle,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  return { ...owner, members, customer, conversation, team, autoAssign, number };
}

describe('teams', () => {
  it('stop at TEAMS_MAX a workspace: the last one fits, the next is a 409', async () => {
    const w = await workspace(0);
    await t.ctx.db.query(
      `INSERT INTO teams (workspace_id, id, name) SELECT $1, 'team_cap' || n, 'Cap ' || n FROM generate_series(1, $2) n`,
      [w.workspaceId, TEAMS_MAX - 1],
    );
    expect((await w.client.call('POST', '/teams', { name: 'Last' })).statusCode).toBe(201);
    const over = await w.client.call('POST', '/teams', { name: 'One more' });
    expectRestError(over, 409, 'conflict');
    expect(over.json().error.message).toContain(`at most ${TEAMS_MAX} teams`);
  });

  it('are created, listed, renamed and deleted by owners and admins; names are unique in any case', async () => {
    const w = await workspace(1);
    const [owner, mate] = w.members as [AppClient, AppClient];
    const sales = await w.team({
      name: 'Sales',
      max_open_per_member: 5,
      member_ids: [owner.userId, mate.userId],
    });
    expect(sales.members.map((m) => m.id).sort()).toEqual([owner.userId, mate.userId].sort());
    expect(sales.members.every((m) => m.available)).toBe(true);

    const again = await owner.call('POST', '/teams', { name: ' sales ' });
    expectRestError(again, 409, 'conflict');
    const blank = await owner.call('POST', '/teams', { name: '   ' });
    expectRestError(blank, 422, 'validation_error');
    expect(blank.json().error.details[0].field).toBe('name');
    const capped = await owner.call('POST', '/teams', { name: 'Big', max_open_per_member: 0 });
    expectRestError(capped, 422, 'validation_error');
    const stranger = await workspaceWithOwner(t);
    const outsider = await owner.call('POST', '/teams', {
      name: 'Mixed',
      member_ids: [stranger.client.userId],
    });
    expectRestError(outsider, 422, 'validation_error');
    expect(outsider.json().error.details[0].field).toBe('member_ids');
    expectRestError(await mate.call('POST', '/teams', { name: 'Mine' }), 403, 'forbidden');

    const renamed = await owner.call('PATCH', `/teams/${sales.id}`, {
      name: 'Sales EU',
      member_ids: [mate.userId],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().team).toMatchObject({ name: 'Sales EU', max_open_per_member: 5 });
    expect(renamed.json().team.members.map((m: { id: string }) => m.id)).toEqual([mate.userId]);
    // Everyone sees the teams and who is available in them.
    expect((await mate.call('GET', '/teams')).json().teams.map((x: { name: string }) => x.name)).toEqual([
      'Sales EU',
    ]);

    // A customer's conversation in the team, and auto-assignment to it: both let go when it is deleted.
    await w.autoAssign(sales.id);
    const id = await w.customer();
    expect((await w.conversation(id)).team_name).toBe('Sales EU');
    expectRestError(await mate.call('DELETE', `/teams/${sales.id}`), 403, 'forbidden');
    expect((await owner.call('DELETE', `/teams/${sales.id}`)).statusCode).toBe(200);
    expect(await w.conversation(id)).toMatchObject({ team_id: null, assignee_id: mate.userId });
    expect((await owner.call('GET', '/routing')).json().routing.auto_assign_team_id).toBeNull();
    for (const [method, body] of [['GET'], ['PATCH', { name: 'X' }], ['DELETE']] as const)
      expectRestError(await owner.call(method, `/teams/${sales.id}`, body), 404, 'not_found');
  });

  it('routing settings name one of the workspace teams and an idle limit of 1 to 1440 minutes', async () => {
    const w = await workspace(0);
    const other = await workspaceWithOwner(t);
    const theirs = (await other.client.call('POST', '/teams', { name: 'Theirs' })).json().team.id;
    const put = (body: unknown) => w.client.call('PUT', '/routing', body);
    const foreign = await put({ auto_assign_team_id: theirs, idle_minutes: 15 });
    expectRestError(foreign, 422, 'validation_error');
    expect(foreign.json().error.details[0].field).toBe('auto_assign_team_id');
    expectRestError(await put({ auto_assign_team_id: null, idle_minutes: 0 }), 422, 'validation_error');
    expectRestError(await put({ auto_assign_team_id: null, idle_minutes: 1441 }), 422, 'validation_error');
    expect((await put({ auto_assign_team_id: null, idle_minutes: 30 })).json().routing).toEqual({
      auto_assign_team_id: null,
      idle_minutes: 30,
    });
  });
});

describe('availability', () => {
  it('is chosen by the person, and away after the idle limit without a request', async () => {
    const w = await workspace(0);
    const me = w.members[0]!;
    expect((await me.call('GET', '/me/availability')).json()).toMatchObject({
      availability: 'online',
      available: true,
      idle_minutes: 15,
    });
    const away = await me.call('PUT', '/me/availability', { availability: 'away' });
    expect(away.json()).toMatchObject({ availability: 'away', available: false });
    expectRestError(
      await me.call('PUT', '/me/availability', { availability: 'busy' }),
      422,
      'validation_error',
    );
    expect((await me.call('PUT', '/me/availability', { availability: 'online' })).json().available).toBe(
      true,
    );
    await t.ctx.db.query(
      `UPDATE memberships SET last_seen_at = now() - interval '16 minutes' WHERE workspace_id = $1 AND user_id = $2`,
      [w.workspaceId, me.userId],
    );
    expect((await me.call('GET', '/me/availability')).json()).toMatchObject({
      availability: 'online',
      available: false,
    });
    await w.autoAssign(null, 20);
    expect((await me.call('GET', '/me/availability')).json()).toMatchObject({
      available: true,
      idle_minutes: 20,
    });
  });

  it('is touched by app requests at most once a minute', async () => {
    const w = await workspace(0);
    const me = w.members[0]!;
    const seen = async () =>
      (
        await t.ctx.db.query<{ ago: number }>(
          `SELECT extract(epoch FROM now() - last_seen_at)::int AS ago FROM memberships
           WHERE workspace_id = $1 AND user_id = $2`,
          [w.workspaceId, me.userId],
        )
      ).rows[0]!.ago;
    expect(await seen()).toBeLessThan(60);
    await t.ctx.db.query(
      `UPDATE memberships SET last_seen_at = now() - interval '10 minutes' WHERE workspace_id = $1 AND user_id = $2`,
      [w.workspaceId, me.userId],
    );
    await me.call('GET', '/teams');
    // Touched less than a minute ago by this process: not written again.
    expect(await seen()).toBeGreaterThanOrEqual(600);
  });
});

describe('auto-assignment', () => {
  it('gives new conversations round robin to available members, skipping the away, the idle and the full', async () => {
    const w = await workspace(3);
    const [a, b, away, idle] = w.members as [AppClient, AppClient, AppClient, AppClient];
    const sales = await w.team({
      name: 'Sales',
      max_open_per_member: 2,
      member_ids: [a.userId, b.userId, away.userId, idle.userId],
    });
    await away.call('PUT', '/me/availability', { availability: 'away' });
    await t.ctx.db.query(
      `UPDATE memberships SET last_seen_at = now() - interval '30 minutes' WHERE workspace_id = $1 AND user_id = $2`,
      [w.workspaceId, idle.userId],
    );
    // B already holds one conversation: one more and B is full.
    const earlier = await w.customer('Before routing');
    expect((await a.call('PATCH', `/conversations/${earlier}`, { assignee_id: b.userId })).statusCode).toBe(
      200,
    );
    await w.autoAssign(sales.id);

    const assignees: (string | null)[] = [];
    for (let i = 0; i < 4; i++) {
      const state = await w.conversation(await w.customer(`Customer ${i}`));
      expect(state.team_id).toBe(sales.id);
      assignees.push(state.assignee_id);
    }
    // Never assigned first (a and b in the order they joined), then the longest waiting; b is full after one.
    expect(assignees).toEqual([a.userId, b.userId, a.userId, null]);
    const inbox = (await a.call('GET', '/inbox?filter=unassigned')).json().conversations;
    expect(inbox[0]).toMatchObject({ team_name: 'Sales', assignee_id: null });

    // The queued conversation is tried again at the customer's next message, once someone is free.
    const queued = inbox[0].contact_id as string;
    expect((await a.call('PATCH', `/conversations/${earlier}`, { state: 'resolved' })).statusCode).toBe(200);
    const { rows } = await t.ctx.db.query<{ phone: string }>(
      'SELECT phone FROM contacts WHERE workspace_id = $1 AND id = $2',
      [w.workspaceId, queued],
    );
    await w.customer('Anyone there?', rows[0]!.phone);
    await until(async () => (await w.conversation(queued)).assignee_id !== null);
    expect((await w.conversation(queued)).assignee_id).toBe(b.userId);
  });

  it('leaves alone consent keywords, conversations already assigned, pending ones and those a bot holds', async () => {
    const w = await workspace(1);
    const [a, mate] = w.members as [AppClient, AppClient];
    const sales = await w.team({ name: 'Sales', member_ids: [mate.userId] });
    await w.autoAssign(sales.id);
    expect((await w.conversation(await w.customer('STOP'))).assignee_id).toBeNull();

    const phone = String(phones++);
    const id = await w.customer('Hi', phone);
    expect((await w.conversation(id)).assignee_id).toBe(mate.userId);
    expect((await a.call('PATCH', `/conversations/${id}`, { assignee_id: a.userId })).statusCode).toBe(200);
    await w.customer('Again', phone);
    expect((await w.conversation(id)).assignee_id).toBe(a.userId);

    await createAutomation(
      t.ctx,
      w.workspaceId,
      {
        name: 'Holder',
        trigger: { type: 'message_received', keywords: ['menu'] },
        steps: [{ id: 'hold', type: 'wait', duration: '1h' }],
      },
      { publish: true },
    );
    // Pending: the team is waiting on the customer; their message does not hand it out.
    const waiting = await w.customer('Order 1');
    await a.call('PATCH', `/conversations/${waiting}`, { assignee_id: null, state: 'pending' });
    const { rows } = await t.ctx.db.query<{ phone: string }>(
      'SELECT phone FROM contacts WHERE workspace_id = $1 AND id = $2',
      [w.workspaceId, waiting],
    );
    await w.customer('Here it is', rows[0]!.phone);
    expect(await w.conversation(waiting)).toMatchObject({ state: 'pending', assignee_id: null });

    const held = await w.customer('menu');
    await until(async () => (await w.conversation(held)).bot !== null);
    expect(await w.conversation(held)).toMatchObject({ assignee_id: null, team_id: null });
  });

  it('a bot step hands the conversation to a team; the inbox gives one to a team too', async () => {
    const w = await workspace(2);
    const [owner, x, y] = w.members as [AppClient, AppClient, AppClient];
    const team = await w.team({ name: 'Support', member_ids: [x.userId, y.userId] });
    const made = await createAutomation(
      t.ctx,
      w.workspaceId,
      {
        name: 'Router',
        trigger: { type: 'message_received', keywords: ['help'] },
        // biome-ignore lint/suspicious/noThenProperty: the assign step's field
        steps: [{ id: 'to-team', type: 'assign', team: team.id, then: 'end' }],
      },
      { publish: true },
    );
    expect(made.id).toBeTruthy();
    const first = await w.customer('help');
    await until(async () => (await w.conversation(first)).assignee_id !== null, 10_000);
    expect(await w.conversation(first)).toMatchObject({ team_id: team.id, assignee_id: x.userId });

    const second = await w.customer('just browsing');
    expect((await w.conversation(second)).team_id).toBeNull();
    const given = await owner.call('POST', `/conversations/${second}/team`, { team_id: team.id });
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json()).toMatchObject({ team_id: team.id, assignee_id: y.userId });
    expectRestError(
      await owner.call('POST', `/conversations/${second}/team`, { team_id: 'team_nope' }),
      404,
      'not_found',
    );

    // A bot naming both a member and a team is refused when saved.
    const both = await owner.call('POST', '/automations', {
      kind: 'flow',
      definition: {
        name: 'Both',
        trigger: { type: 'message_received' },
        steps: [{ id: 'a', type: 'assign', to: x.userId, team: team.id }],
      },
    });
    expectRestError(both, 422, 'validation_error');
    expect(both.json().error.details[0].field).toBe('steps.0.team');
  });
});
