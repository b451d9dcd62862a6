import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { type AppClient, workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { ago, rowsAged, storeHas, unfinishedRun } from '../../../test/support/retention-rows.js';
import { runRetention } from './run-retention.js';

const t = testAppForTests();

// Each kind gets its own number of days, so a kind cut at another kind's days fails.
const SETTINGS = { message_content_days: 7, finished_runs_days: 5, media_days: 3, delivery_logs_days: 2 };
// Rows a minute past each kind's cutoff ('p') and a minute short of it ('m').
const AGES = [2, 3, 5, 7].flatMap((days) => [
  { tag: `d${days}p`, days, past: true, at: ago(days, 1) },
  { tag: `d${days}m`, days, past: false, at: ago(days, -1) },
]);
const isPast = (age: { days: number; past: boolean }, keep: number) =>
  age.days > keep || (age.days === keep && age.past);

async function snapshot(workspaceId: string) {
  const q = async (sql: string) => (await t.ctx.db.query(sql, [workspaceId])).rows;
  return {
    messages: await q(
      `SELECT id, text, template_values, template_components, content, context, referral, status, content_removed_at
       FROM messages WHERE workspace_id = $1 ORDER BY id`,
    ),
    media: await q('SELECT id, state, storage_key FROM media WHERE workspace_id = $1 ORDER BY id'),
    runs: await q('SELECT id, status FROM runs WHERE workspace_id = $1 ORDER BY id'),
    steps: await q('SELECT run_id, step_id FROM run_steps WHERE workspace_id = $1 ORDER BY run_id'),
    deliveries: await q('SELECT id, status FROM webhook_deliveries WHERE workspace_id = $1 ORDER BY id'),
  };
}

const dashboard = async (client: AppClient) => {
  const res = await client.call('GET', '/dashboard?days=30');
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe('the daily retention job', () => {
  it('removes exactly what is past each kind of each workspace, and the dashboard counts the same', async () => {
    const a = await workspaceWithOwner(t);
    const b = await workspaceWithOwner(t);
    expect((await a.client.call('PATCH', '/workspace/retention', SETTINGS)).statusCode).toBe(200);
    // B keeps everything for ever: rows older than A's cutoffs, and far older, stay.
    const forever = {
      message_content_days: null,
      media_days: null,
      finished_runs_days: null,
      delivery_logs_days: null,
    };
    expect((await b.client.call('PATCH', '/workspace/retention', forever)).statusCode).toBe(200);

    const rowsA = new Map<string, Awaited<ReturnType<typeof rowsAged>>>();
    for (const age of AGES) rowsA.set(age.tag, await rowsAged(t, a.workspaceId, age.tag, age.at));
    for (const age of [...AGES, { tag: 'd400p', at: ago(400, 1) }])
      await rowsAged(t, b.workspaceId, age.tag, age.at);
    const waiting = await unfinishedRun(t, a.workspaceId, 'd7p', 'waiting', ago(400));
    const running = await unfinishedRun(t, a.workspaceId, 'd5p', 'running', ago(400));
    // A run killed between marking a file removed and deleting its bytes left this behind.
    const killed = rowsA.get('d7p')!;
    await t.ctx.db.query(`UPDATE media SET state = 'removed' WHERE workspace_id = $1 AND id = $2`, [
      a.workspaceId,
      killed.id('me'),
    ]);

    const before = await snapshot(a.workspaceId);
    const beforeB = await snapshot(b.workspaceId);
    const dashboardA = await dashboard(a.client);
    const dashboardB = await dashboard(b.client);
    expect(dashboardA.runs.reduce((n: number, d: { completed: number }) => n + d.completed, 0)).toBe(8);

    // Batches of 2: every kind takes several, and each goes on from where the last one stopped.
    const done = await runRetention(t.ctx, 2);

    const after = await snapshot(a.workspaceId);
    for (const age of AGES) {
      const { id, storageKey } = rowsA.get(age.tag)!;
      const contentGone = isPast(age, SETTINGS.message_content_days);
      for (const kind of ['msg_in', 'msg_tpl', 'msg_img']) {
        const was = before.messages.find((m) => m.id === id(kind))!;
        const now = after.messages.find((m) => m.id === id(kind))!;
        if (contentGone) {
          expect(now, `${kind} ${age.tag}`).toMatchObject({
            text: null,
            template_values: null,
            template_components: null,
            content: null,
            context: null,
            referral: null,
            status: was.status,
            content_removed_at: expect.any(Date),
          });
        } else expect(now, `${kind} ${age.tag}`).toEqual(was);
      }
      // Not sent yet: its content is still to go out.
      const queued = id('msg_queued');
      expect(after.messages.find((m) => m.id === queued)).toEqual(
        before.messages.find((m) => m.id === queued),
      );

      const mediaGone = isPast(age, SETTINGS.media_days);
      expect(
        after.media.find((m) => m.id === id('me')),
        `media ${age.tag}`,
      ).toEqual(
        mediaGone
          ? { id: id('me'), state: 'removed', storage_key: null }
          : { id: id('me'), state: 'stored', storage_key: storageKey },
      );
      expect(await storeHas(t, storageKey), `media bytes ${age.tag}`).toBe(!mediaGone);
      expect(after.media.find((m) => m.id === id('mepending'))).toMatchObject({ state: 'pending' });

      const runsGone = isPast(age, SETTINGS.finished_runs_days);
      for (const run of [id('run_completed'), id('run_failed')]) {
        expect(
          after.runs.some((r) => r.id === run),
          `${run}`,
        ).toBe(!runsGone);
        expect(
          after.steps.some((s) => s.run_id === run),
          `steps of ${run}`,
        ).toBe(!runsGone);
      }

      const logsGone = isPast(age, SETTINGS.delivery_logs_days);
      for (const delivery of [id('wd_delivered'), id('wd_failed')]) {
        expect(
          after.deliveries.some((d) => d.id === delivery),
          delivery,
        ).toBe(!logsGone);
      }
      expect(after.deliveries.some((d) => d.id === id('wd_pending'))).toBe(true);
    }
    // Message rows all stay; unfinished runs stay with their steps, however old.
    expect(after.messages.map((m) => m.id)).toEqual(before.messages.map((m) => m.id));
    for (const run of [waiting, running]) {
      expect(after.runs.some((r) => r.id === run)).toBe(true);
      expect(after.steps.some((s) => s.run_id === run)).toBe(true);
    }
    expect(await storeHas(t, killed.storageKey)).toBe(false);

    // Another workspace's rows, past A's days but within its own (for ever), are untouched.
    expect(await snapshot(b.workspaceId)).toEqual(beforeB);

    // The dashboard counts what it counted before: message rows stay, deleted runs were counted per day.
    expect(await dashboard(a.client)).toEqual(dashboardA);
    expect(await dashboard(b.client)).toEqual(dashboardB);

    // Past 7 days: 7p's three messages with content (the queued one keeps its own). Past 3 days: five
    // files (7p's already marked by the killed run). Past 5 days: three sets of two runs. Past 2 days:
    // seven sets of two finished deliveries.
    expect(done).toEqual({ message_content: 3, media: 5, finished_runs: 6, delivery_logs: 14 });

    // The pages still draw: the conversation and the contact's timeline say the content was removed,
    // a removed file answers why, a kept one is served.
    const old = rowsA.get('d7p')!;
    const conversation = await a.client.call('GET', `/conversations/${old.contactId}`);
    expect(conversation.statusCode).toBe(200);
    expect(conversation.json().messages.find((m: { id: string }) => m.id === old.id('msg_in'))).toMatchObject(
      {
        text: null,
        content_removed_at: expect.any(String),
      },
    );
    const contact = (await a.client.call('GET', `/contacts/${old.contactId}`)).json();
    expect(contact.timeline.find((i: { id: string }) => i.id === old.id('msg_in'))).toMatchObject({
      detail: 'Content removed (data retention)',
    });
    const inbox = await a.client.call('GET', '/inbox?filter=all&limit=100');
    expect(inbox.statusCode).toBe(200);
    const rowOf = (contactId: string) =>
      inbox.json().conversations.find((c: { contact_id: string }) => c.contact_id === contactId);
    expect(rowOf(old.contactId)).toMatchObject({ last_content_removed: true, last_text: null });
    expect(rowOf(rowsA.get('d7m')!.contactId)).toMatchObject({ last_content_removed: false });
    for (const tag of ['d7p', 'd3p']) {
      const res = await a.client.call('GET', `/messages/${rowsA.get(tag)!.id('msg_img')}/media`);
      expectRestError(res, 404, 'media_not_stored');
      expect(res.json().error.message).toMatch(/removed/);
    }
    const kept = await a.client.call('GET', `/messages/${rowsA.get('d3m')!.id('msg_img')}/media`);
    expect(kept.statusCode).toBe(200);
    expect(kept.body).toBe('bytes of d3m');

    // Run again: nothing more is past its time.
    expect(await runRetention(t.ctx, 2)).toEqual({
      message_content: 0,
      media: 0,
      finished_runs: 0,
      delivery_logs: 0,
    });
  });
});

describe('Settings › Workspace › Data retention (GET/PATCH /api/app/workspace/retention)', () => {
  it('starts from the defaults, and an owner or admin sets days or "keep for ever" (null)', async () => {
    const { client } = await workspaceWithOwner(t);
    const res = await client.call('GET', '/workspace/retention');
    expect(res.json()).toEqual({
      result: true,
      retention: {
        message_content_days: 365,
        media_days: 90,
        finished_runs_days: 90,
        delivery_logs_days: 30,
      },
    });
    const changed = await client.call('PATCH', '/workspace/retention', {
      media_days: 14,
      delivery_logs_days: null,
    });
    expect(changed.statusCode).toBe(200);
    const expected = {
      message_content_days: 365,
      media_days: 14,
      finished_runs_days: 90,
      delivery_logs_days: null,
    };
    expect(changed.json().retention).toEqual(expected);
    expect((await client.call('GET', '/workspace/retention')).json().retention).toEqual(expected);

    const admin = await workspaceWithOwner(t, 'admin');
    expect((await admin.client.call('PATCH', '/workspace/retention', { media_days: 1 })).statusCode).toBe(
      200,
    );
  });

  it('refuses days out of range, fractions, text and unknown kinds with a 422 naming the field', async () => {
    const { client } = await workspaceWithOwner(t);
    const cases: [unknown, string][] = [
      [{ media_days: 0 }, 'media_days'],
      [{ message_content_days: -5 }, 'message_content_days'],
      [{ finished_runs_days: 36_501 }, 'finished_runs_days'],
      [{ delivery_logs_days: 1.5 }, 'delivery_logs_days'],
      [{ media_days: 'thirty' }, 'media_days'],
      [{ audit_days: 30 }, 'audit_days'],
    ];
    for (const [body, field] of cases) {
      const res = await client.call('PATCH', '/workspace/retention', body);
      expectRestError(res, 422, 'validation_error');
      expect(
        res.json().error.details.map((d: { field: string }) => d.field),
        JSON.stringify(body),
      ).toContain(field);
      expect(res.json().error.message).not.toMatch(/must |anyOf/);
    }
    expect((await client.call('GET', '/workspace/retention')).json().retention.media_days).toBe(90);
  });

  it('lets a member read the settings but not change them', async () => {
    const { client, workspaceId } = await workspaceWithOwner(t, 'member');
    expect((await client.call('GET', '/workspace/retention')).statusCode).toBe(200);
    expectRestError(await client.call('PATCH', '/workspace/retention', { media_days: 1 }), 403, 'forbidden');
    const { rows } = await t.ctx.db.query('SELECT retention_media_days FROM workspaces WHERE id = $1', [
      workspaceId,
    ]);
    expect(rows[0]).toEqual({ retention_media_days: 90 });
  });
});
