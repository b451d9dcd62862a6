import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';

const t = testAppForTests({ queue: true, role: 'api' });

const fields = (res: { json(): unknown }) =>
  (res.json() as { error: { details: { field: string }[] } }).error.details.map((d) => d.field);

/** A workspace with its owner (a member to put in teams) and an API key. */
async function workspace() {
  const { workspaceId, apiKey } = await workspaceWithOwner(t);
  const { rows } = await t.ctx.db.query<{ user_id: string }>(
    'SELECT user_id FROM memberships WHERE workspace_id = $1',
    [workspaceId],
  );
  return { workspaceId, key: apiKey, memberId: rows[0]!.user_id };
}

describe('REST v1 business hours', () => {
  it('answers the defaults, replaces the whole setting and names a wrong time', async () => {
    const { key } = await workspace();
    const first = await t.api('GET', '/business-hours', key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().business_hours).toMatchObject({ schedule: null, holidays: [], inside_now: true });
    const setting = {
      schedule: { mon: [{ from: '09:00', to: '17:00' }] },
      holidays: [{ date: '2026-12-25', name: 'Christmas Day' }],
      away: { enabled: true, text: 'Closed now' },
      greeting: { enabled: false, text: 'Hi' },
    };
    const put = await t.api('PUT', '/business-hours', key, setting);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().business_hours).toMatchObject(setting);
    expect((await t.api('GET', '/business-hours', key)).json().business_hours).toMatchObject(setting);

    const wrong = await t.api('PUT', '/business-hours', key, {
      ...setting,
      schedule: { mon: [{ from: '9am', to: '17:00' }] },
    });
    expectRestError(wrong, 422, 'validation_error');
    expect(fields(wrong)).toEqual(['schedule.mon.0.from']);
    expect((await t.api('GET', '/business-hours', key)).json().business_hours).toMatchObject(setting);
  });
});

describe('REST v1 teams and routing', () => {
  it('creates, reads, renames and deletes a team with a member of the workspace', async () => {
    const { key, memberId } = await workspace();
    const made = await t.api('POST', '/teams', key, { name: 'Support', member_ids: [memberId] });
    expect(made.statusCode, made.body).toBe(201);
    const team = made.json().team;
    expect(team).toMatchObject({
      id: expect.stringMatching(/^team_/),
      name: 'Support',
      max_open_per_member: null,
      members: [{ id: memberId, open_count: 0 }],
    });
    expect((await t.api('GET', '/teams', key)).json().teams).toEqual([team]);
    expect((await t.api('GET', `/teams/${team.id}`, key)).json()).toEqual({ result: true, team });

    const renamed = await t.api('PATCH', `/teams/${team.id}`, key, { name: 'Care', max_open_per_member: 5 });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().team).toMatchObject({ id: team.id, name: 'Care', max_open_per_member: 5 });

    const gone = await t.api('DELETE', `/teams/${team.id}`, key);
    expect(gone.statusCode).toBe(204);
    expect(gone.body).toBe('');
    expectRestError(await t.api('DELETE', `/teams/${team.id}`, key), 404, 'not_found');
    expectRestError(await t.api('GET', `/teams/${team.id}`, key), 404, 'not_found');
    expectRestError(await t.api('PATCH', `/teams/${team.id}`, key, { name: 'x' }), 404, 'not_found');
  });

  it('refuses a member of another workspace (422), a name in use (409) and an empty patch (422)', async () => {
    const { key } = await workspace();
    const other = await workspace();
    const foreign = await t.api('POST', '/teams', key, { name: 'Support', member_ids: [other.memberId] });
    expectRestError(foreign, 422, 'validation_error');
    expect(fields(foreign)).toEqual(['member_ids']);
    expect((await t.api('GET', '/teams', key)).json().teams).toEqual([]);

    const made = await t.api('POST', '/teams', key, { name: 'Support' });
    expect(made.statusCode).toBe(201);
    expectRestError(await t.api('POST', '/teams', key, { name: 'SUPPORT' }), 409, 'conflict');
    expectRestError(await t.api('PATCH', `/teams/${made.json().team.id}`, key, {}), 422, 'validation_error');
  });

  it('answers a retried create with the first answer, making one team', async () => {
    const { key } = await workspace();
    const headers = { 'idempotency-key': 'team-create-1' };
    const first = await t.api('POST', '/teams', key, { name: 'Sales' }, headers);
    const again = await t.api('POST', '/teams', key, { name: 'Sales' }, headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await t.api('GET', '/teams', key)).json().teams).toHaveLength(1);
  });

  it("sets auto-assignment to one of the workspace's teams, or off, never another's", async () => {
    const { key } = await workspace();
    const other = await workspace();
    expect((await t.api('GET', '/routing', key)).json()).toEqual({
      result: true,
      routing: { auto_assign_team_id: null, idle_minutes: 15 },
    });
    const mine = (await t.api('POST', '/teams', key, { name: 'Mine' })).json().team.id;
    const theirs = (await t.api('POST', '/teams', other.key, { name: 'Theirs' })).json().team.id;
    const set = await t.api('PUT', '/routing', key, { auto_assign_team_id: mine, idle_minutes: 30 });
    expect(set.json()).toEqual({ result: true, routing: { auto_assign_team_id: mine, idle_minutes: 30 } });
    const foreign = await t.api('PUT', '/routing', key, { auto_assign_team_id: theirs, idle_minutes: 30 });
    expectRestError(foreign, 422, 'validation_error');
    expect(fields(foreign)).toEqual(['auto_assign_team_id']);
    const off = await t.api('PUT', '/routing', key, { auto_assign_team_id: null, idle_minutes: 10 });
    expect(off.json().routing).toEqual({ auto_assign_team_id: null, idle_minutes: 10 });
    expect(
      fields(await t.api('PUT', '/routing', key, { auto_assign_team_id: null, idle_minutes: 0 })),
    ).toEqual(['idle_minutes']);
  });
});

describe('REST v1 satisfaction', () => {
  it('reads and saves the survey settings; a blank question is a 422', async () => {
    const { key } = await workspace();
    expect((await t.api('GET', '/satisfaction/settings', key)).json().survey).toMatchObject({
      enabled: false,
    });
    const saved = await t.api('PUT', '/satisfaction/settings', key, {
      enabled: true,
      question: '  Rate us?  ',
    });
    expect(saved.json()).toEqual({ result: true, survey: { enabled: true, question: 'Rate us?' } });
    const blank = await t.api('PUT', '/satisfaction/settings', key, { enabled: true, question: '   ' });
    expectRestError(blank, 422, 'validation_error');
    expect(fields(blank)).toEqual(['question']);
    expect((await t.api('GET', '/satisfaction/settings', key)).json().survey.question).toBe('Rate us?');
  });

  it("counts the period's ratings per teammate", async () => {
    const { key, workspaceId, memberId } = await workspace();
    for (const [id, rating] of [
      ['csat_a', 5],
      ['csat_b', 3],
    ] as const)
      await t.ctx.db.query(
        `INSERT INTO satisfaction_surveys (workspace_id, id, contact_id, assignee_id, message_id, rating, answered_at)
         VALUES ($1, $2, 'ct_x', $3, $4, $5, now())`,
        [workspaceId, id, memberId, `msg_${id}`, rating],
      );
    const res = await t.api('GET', '/satisfaction?days=7', key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      period: { days: 7, time_zone: 'UTC' },
      answered: 2,
      average: 4,
      teammates: [{ user_id: memberId, answered: 2, average: 4 }],
    });
    expect(fields(await t.api('GET', '/satisfaction?days=91', key))).toEqual(['querystring.days']);
  });
});
