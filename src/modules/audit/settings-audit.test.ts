import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';

const t = testAppForTests();

interface Entry {
  actor_type: string;
  action: string;
  entity_type: string;
  entity_id: string;
  changes: Record<string, unknown>;
}

const ok = (res: { statusCode: number; body: string }) => {
  expect(res.statusCode, res.body).toBeLessThan(300);
  return JSON.parse(res.body || 'null');
};

// Business hours as GET answers them, less what only GET adds.
const hoursBody = ({ time_zone: _, inside_now: __, ...body }: Record<string, unknown>) => body;

describe('the audit log of teams, routing, business hours, the survey and quick replies', () => {
  it('records each change made in the web app with the teammate as actor, and no texts', async () => {
    const { client, workspaceId } = await workspaceWithOwner(t);
    const team = ok(await client.call('POST', '/teams', { name: 'Sales' })).team;
    ok(await client.call('PATCH', `/teams/${team.id}`, { max_open_per_member: 5 }));
    ok(await client.call('PUT', '/routing', { auto_assign_team_id: team.id, idle_minutes: 20 }));
    ok(await client.call('DELETE', `/teams/${team.id}`));
    const hours = ok(await client.call('GET', '/business-hours')).business_hours;
    ok(
      await client.call('PUT', '/business-hours', {
        ...hoursBody(hours),
        away: { enabled: true, text: 'Closed' },
      }),
    );
    ok(await client.call('PUT', '/satisfaction/settings', { enabled: true, question: 'How did we do?' }));
    const reply = ok(await client.call('POST', '/quick-replies', { title: 'Hi', text: 'Hello there' }));
    ok(await client.call('PUT', `/quick-replies/${reply.id}`, { title: 'Hi', text: 'Hello again' }));
    ok(await client.call('DELETE', `/quick-replies/${reply.id}`));

    const { entries } = ok(await client.call('GET', '/audit-log')) as { entries: Entry[] };
    expect(entries.map((e) => `${e.action} ${e.entity_type} ${e.entity_id}`).reverse()).toEqual([
      `create team ${team.id}`,
      `update team ${team.id}`,
      `update routing ${workspaceId}`,
      `delete team ${team.id}`,
      `update business_hours ${workspaceId}`,
      `update satisfaction_survey ${workspaceId}`,
      `create quick_reply ${reply.id}`,
      `update quick_reply ${reply.id}`,
      `delete quick_reply ${reply.id}`,
    ]);
    expect(new Set(entries.map((e) => e.actor_type))).toEqual(new Set(['user']));
    expect(entries.find((e) => e.entity_type === 'team' && e.action === 'update')!.changes).toEqual({
      fields: ['max_open_per_member'],
    });
    const text = JSON.stringify(entries);
    for (const written of ['Closed', 'How did we do?', 'Hello']) expect(text).not.toContain(written);
  });

  it('records the same changes through REST v1 with the key as actor', async () => {
    const { key } = await t.workspace();
    const call = async (method: string, path: string, body?: unknown) =>
      ok(await t.api(method, path, key, body));
    const team = (await call('POST', '/teams', { name: 'Support' })).team;
    await call('PUT', '/routing', { auto_assign_team_id: null, idle_minutes: 15 });
    await call('DELETE', `/teams/${team.id}`);
    const hours = (await call('GET', '/business-hours')).business_hours;
    await call('PUT', '/business-hours', hoursBody(hours));
    await call('PUT', '/satisfaction/settings', { enabled: false, question: 'Rate us' });
    const reply = (await call('POST', '/quick-replies', { title: 'Bye', text: 'Goodbye' })).quick_reply;
    await call('DELETE', `/quick-replies/${reply.id}`);

    const { entries } = (await call('GET', '/audit-log')) as { entries: Entry[] };
    expect(entries.map((e) => `${e.actor_type} ${e.action} ${e.entity_type}`).reverse()).toEqual([
      'api_key create team',
      'api_key update routing',
      'api_key delete team',
      'api_key update business_hours',
      'api_key update satisfaction_survey',
      'api_key create quick_reply',
      'api_key delete quick_reply',
    ]);
  });

  it('records nothing for a change refused', async () => {
    const { client } = await workspaceWithOwner(t);
    expect((await client.call('DELETE', '/teams/team_missing')).statusCode).toBe(404);
    expect(
      (await client.call('PUT', '/routing', { auto_assign_team_id: 'team_x', idle_minutes: 15 })).statusCode,
    ).toBe(422);
    expect((await client.call('POST', '/quick-replies', { title: ' ', text: 'x' })).statusCode).toBe(422);
    expect(ok(await client.call('GET', '/audit-log')).entries).toEqual([]);
  });
});
