import { describe, expect, it } from 'vitest';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { simControl, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import type { Actor } from '../audit/record-audit.js';
import { createAutomation } from '../automation/save-automation.js';
import { deleteContact } from '../contacts/delete-contact.js';
import { conversationMessages } from '../inbox/conversation.js';
import { awayOrGreeting } from './away-or-greeting.js';
import type { BusinessHoursBody } from './business-hours-schemas.js';
import { DEFAULT_AWAY, DEFAULT_GREETING, saveBusinessHours } from './business-hours-settings.js';

const SYSTEM: Actor = { type: 'system' };

const t = simulatorAppForTests({ queue: true });
type Ws = Awaited<ReturnType<typeof t.connectedWorkspace>>;

let phones = 14155551800;
const nextPhone = () => String(phones++);

const ALL_DAY = [{ from: '00:00', to: '24:00' }];
const ALWAYS_OPEN = {
  mon: ALL_DAY,
  tue: ALL_DAY,
  wed: ALL_DAY,
  thu: ALL_DAY,
  fri: ALL_DAY,
  sat: ALL_DAY,
  sun: ALL_DAY,
};
const today = () => new Date().toISOString().slice(0, 10);

const settings = (over: Partial<BusinessHoursBody> = {}): BusinessHoursBody => ({
  schedule: ALWAYS_OPEN,
  holidays: [],
  away: { enabled: true, text: 'We are closed' },
  greeting: { enabled: true, text: 'Welcome!' },
  ...over,
});
/** Open every hour of every day, or (closed) the same with today a holiday in UTC. */
const openNow = (over: Partial<BusinessHoursBody> = {}) => settings(over);
const closedNow = (over: Partial<BusinessHoursBody> = {}) =>
  settings({ holidays: [{ date: today(), name: 'Today' }], ...over });

async function say(ws: Ws, from: string, text: string) {
  const res = await simControl(t.base, '/inbound', { from, phone_number_id: ws.number.phoneNumberId, text });
  expect(res.body.delivered_status).toBe(200);
}
const repliesTo = (phone: string) =>
  simState(t)
    .messages.filter((m) => m.to === phone && m.type === 'text')
    .map((m) => (m.payload as { text: { body: string } }).text.body);
async function expectReplies(phone: string, replies: string[]) {
  await until(async () => repliesTo(phone).length >= replies.length, 15_000);
  expect(repliesTo(phone)).toEqual(replies);
}
/** Replies that would have come by now: a later message's own reply, or the bot's, came after them. */
const settle = () => new Promise((r) => setTimeout(r, 300));

async function contactId(ws: Ws, phone: string) {
  const { rows } = await t.ctx.db.query<{ id: string }>(
    'SELECT id FROM contacts WHERE workspace_id = $1 AND phone = $2',
    [ws.id, phone],
  );
  return rows[0]!.id;
}

describe('Settings › Business hours (app routes)', () => {
  it('answers the defaults before anything is set: no schedule, always inside, both messages off', async () => {
    const { client } = await workspaceWithOwner(t);
    const res = await client.call('GET', '/business-hours');
    expect(res.statusCode).toBe(200);
    expect(res.json().business_hours).toEqual({
      schedule: null,
      holidays: [],
      away: { enabled: false, text: DEFAULT_AWAY },
      greeting: { enabled: false, text: DEFAULT_GREETING },
      time_zone: 'UTC',
      inside_now: true,
    });
  });

  it('saves the whole setting for owners and admins, read in the workspace time zone', async () => {
    const { client } = await workspaceWithOwner(t);
    const body = closedNow({
      schedule: {
        mon: [
          { from: '13:00', to: '17:00' },
          { from: '09:00', to: '12:00' },
        ],
      },
    });
    const saved = await client.call('PUT', '/business-hours', body);
    expect(saved.statusCode).toBe(200);
    const hours = saved.json().business_hours;
    // Intervals sorted, days left out stored closed.
    expect(hours.schedule.mon).toEqual([
      { from: '09:00', to: '12:00' },
      { from: '13:00', to: '17:00' },
    ]);
    expect(hours.schedule.sun).toEqual([]);
    expect(hours.inside_now).toBe(false);
    expect((await client.call('GET', '/business-hours')).json().business_hours).toEqual(hours);

    await client.call('PUT', '/business-hours', openNow());
    expect((await client.call('GET', '/business-hours')).json().business_hours.inside_now).toBe(true);
    await client.call('PATCH', '/workspace', { time_zone: 'Asia/Kolkata' });
    expect((await client.call('GET', '/business-hours')).json().business_hours.time_zone).toBe(
      'Asia/Kolkata',
    );

    const admin = await workspaceWithOwner(t, 'admin');
    expect((await admin.client.call('PUT', '/business-hours', openNow())).statusCode).toBe(200);
  });

  it('lets a member read it but not change it', async () => {
    const { client } = await workspaceWithOwner(t, 'member');
    expect((await client.call('GET', '/business-hours')).statusCode).toBe(200);
    expectRestError(await client.call('PUT', '/business-hours', openNow()), 403, 'forbidden');
    expect((await client.call('GET', '/business-hours')).json().business_hours.schedule).toBeNull();
  });

  it.each([
    [
      'a time not written HH:MM',
      { schedule: { mon: [{ from: '9am', to: '17:00' }] } },
      'schedule.mon.0.from',
      /HH:MM/,
    ],
    [
      'an end past 24:00',
      { schedule: { tue: [{ from: '09:00', to: '24:30' }] } },
      'schedule.tue.0.to',
      /HH:MM/,
    ],
    [
      'an end before its start',
      { schedule: { wed: [{ from: '18:00', to: '09:00' }] } },
      'schedule.wed.0.to',
      /after the start/,
    ],
    [
      'two times that overlap',
      {
        schedule: {
          thu: [
            { from: '09:00', to: '13:00' },
            { from: '12:00', to: '17:00' },
          ],
        },
      },
      'schedule.thu.1.from',
      /overlaps/,
    ],
    [
      'four times in a day',
      {
        schedule: {
          fri: [
            { from: '01:00', to: '02:00' },
            { from: '03:00', to: '04:00' },
            { from: '05:00', to: '06:00' },
            { from: '07:00', to: '08:00' },
          ],
        },
      },
      'schedule.fri',
      /at most 3/,
    ],
    [
      'a date that does not exist',
      { holidays: [{ date: '2026-02-30', name: 'Nope' }] },
      'holidays.0.date',
      /YYYY-MM-DD/,
    ],
    [
      'the same date twice',
      {
        holidays: [
          { date: '2026-12-25', name: 'A' },
          { date: '2026-12-25', name: 'B' },
        ],
      },
      'holidays.1.date',
      /Another holiday/,
    ],
    ['a blank holiday name', { holidays: [{ date: '2026-12-25', name: '  ' }] }, 'holidays.0.name', /name/],
    [
      'more than 100 holidays',
      {
        holidays: Array.from({ length: 101 }, (_, i) => ({
          date: new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10),
          name: `Day ${i}`,
        })),
      },
      'holidays',
      /at most 100/,
    ],
    [
      'an away message turned on without words',
      { away: { enabled: true, text: ' ' } },
      'away.text',
      /away message/,
    ],
    [
      'a greeting turned on without words',
      { greeting: { enabled: true, text: '' } },
      'greeting.text',
      /greeting/,
    ],
  ])('refuses %s with 422 naming the field', async (_case, change, field, words) => {
    const { client } = await workspaceWithOwner(t);
    const res = await client.call('PUT', '/business-hours', settings(change as Partial<BusinessHoursBody>));
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.details).toEqual([{ field, message: expect.stringMatching(words) }]);
    expect((await client.call('GET', '/business-hours')).json().business_hours.schedule).toBeNull();
  });

  it('accepts the limits themselves: three times a day, 24:00, 100 holidays, a message off without words', async () => {
    const { client } = await workspaceWithOwner(t);
    const res = await client.call(
      'PUT',
      '/business-hours',
      settings({
        schedule: {
          mon: [
            { from: '00:00', to: '08:00' },
            { from: '08:00', to: '12:00' },
            { from: '22:00', to: '24:00' },
          ],
        },
        holidays: Array.from({ length: 100 }, (_, i) => ({
          date: new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10),
          name: `Day ${i}`,
        })),
        away: { enabled: false, text: '' },
      }),
    );
    expect(res.statusCode).toBe(200);
  });

  it('refuses a body missing a part (422) and one that is not JSON (400)', async () => {
    const { client } = await workspaceWithOwner(t);
    const { greeting: _, ...partial } = settings();
    const missing = await client.call('PUT', '/business-hours', partial);
    expectRestError(missing, 422, 'validation_error');
    expect(missing.json().error.details).toEqual([expect.objectContaining({ field: 'greeting' })]);
    const notJson = await client.call('PUT', '/business-hours', '{"schedule":', {
      'content-type': 'application/json',
    });
    expectRestError(notJson, 400, 'invalid_json');
  });
});

describe('the away message and the greeting', () => {
  it("greets a contact's first message inside hours, once; the inbox shows it as automatic", async () => {
    const ws = await t.connectedWorkspace();
    await saveBusinessHours(t.ctx.db, ws.id, openNow(), SYSTEM);
    const phone = nextPhone();
    await say(ws, phone, 'hello');
    await expectReplies(phone, ['Welcome!']);
    await say(ws, phone, 'anyone?');
    await settle();
    expect(repliesTo(phone)).toEqual(['Welcome!']);
    const outbound = (await conversationMessages(t.ctx.db, ws.id, await contactId(ws, phone))).filter(
      (m) => m.direction === 'outbound',
    );
    expect(outbound).toMatchObject([{ text: 'Welcome!', sent_via: 'automatic', sender_name: 'Greeting' }]);
  });

  it('answers outside hours with the away message only, not again within 12 hours', async () => {
    const ws = await t.connectedWorkspace();
    await saveBusinessHours(t.ctx.db, ws.id, closedNow(), SYSTEM);
    const phone = nextPhone();
    await say(ws, phone, 'hello');
    await expectReplies(phone, ['We are closed']);
    await say(ws, phone, 'hello??');
    await settle();
    expect(repliesTo(phone)).toEqual(['We are closed']);
    // 11 hours later: still quiet; 12 hours later: the away message again.
    const back = (hours: number) =>
      t.ctx.db.query(`UPDATE away_replies SET sent_at = now() - $2::interval WHERE workspace_id = $1`, [
        ws.id,
        `${hours} hours`,
      ]);
    await back(11);
    await say(ws, phone, 'still there?');
    await settle();
    expect(repliesTo(phone)).toEqual(['We are closed']);
    await back(12);
    await say(ws, phone, 'hello again');
    await expectReplies(phone, ['We are closed', 'We are closed']);
    const outbound = (await conversationMessages(t.ctx.db, ws.id, await contactId(ws, phone))).filter(
      (m) => m.direction === 'outbound',
    );
    expect(outbound[0]).toMatchObject({ sent_via: 'automatic', sender_name: 'Away message' });

    // Back inside hours: this contact wrote before, so no greeting.
    await saveBusinessHours(t.ctx.db, ws.id, openNow(), SYSTEM);
    await say(ws, phone, 'good morning');
    await settle();
    expect(repliesTo(phone)).toHaveLength(2);
  });

  it("forgets a deleted contact's away turn with them", async () => {
    const ws = await t.connectedWorkspace();
    await saveBusinessHours(t.ctx.db, ws.id, closedNow(), SYSTEM);
    const phone = nextPhone();
    await say(ws, phone, 'hello');
    await expectReplies(phone, ['We are closed']);
    await deleteContact(t.ctx.db, ws.id, await contactId(ws, phone), { type: 'system' });
    const { rows } = await t.ctx.db.query('SELECT 1 FROM away_replies WHERE workspace_id = $1', [ws.id]);
    expect(rows).toEqual([]);
  });

  it('sends nothing when the message is switched off', async () => {
    const ws = await t.connectedWorkspace();
    await saveBusinessHours(t.ctx.db, ws.id, closedNow({ away: { enabled: false, text: 'Closed' } }), SYSTEM);
    const [first, second] = [nextPhone(), nextPhone()];
    await say(ws, first, 'hi');
    await saveBusinessHours(t.ctx.db, ws.id, openNow({ greeting: { enabled: false, text: 'Hi' } }), SYSTEM);
    await say(ws, second, 'hi');
    await settle();
    expect([...repliesTo(first), ...repliesTo(second)]).toEqual([]);
  });

  it('sends nothing for consent keywords, to opted-out contacts, or while a bot answers', async () => {
    const ws = await t.connectedWorkspace();
    await saveBusinessHours(t.ctx.db, ws.id, closedNow(), SYSTEM);
    const [starter, stopper, botted] = [nextPhone(), nextPhone(), nextPhone()];
    await say(ws, starter, 'START');
    await say(ws, stopper, 'STOP');
    await say(ws, stopper, 'why did you stop?');
    await createAutomation(
      t.ctx,
      ws.id,
      {
        name: 'Night bot',
        trigger: { type: 'message_received' },
        steps: [{ id: 'answer', type: 'send_text', text: 'Night bot here' }],
      },
      { publish: true },
    );
    await say(ws, botted, 'hello');
    await expectReplies(botted, ['Night bot here']);
    await settle();
    expect(repliesTo(botted)).toEqual(['Night bot here']);
    expect(repliesTo(stopper)).toEqual([]);
    expect(repliesTo(starter)).toEqual([]);
  });

  it('leaves a resolved conversation alone (a survey answer keeps it resolved)', async () => {
    const ws = await t.connectedWorkspace();
    await saveBusinessHours(t.ctx.db, ws.id, closedNow(), SYSTEM);
    const phone = nextPhone();
    await say(ws, phone, 'hello');
    await expectReplies(phone, ['We are closed']);
    const id = await contactId(ws, phone);
    await t.ctx.db.query('DELETE FROM away_replies WHERE workspace_id = $1', [ws.id]);
    const inbound = {
      workspaceId: ws.id,
      contactId: id,
      at: new Date(),
      message: { message_id: 'msg_x', type: 'text', text: '5', button_payload: null, reply_to: null },
      consent: null,
    };
    expect(await awayOrGreeting(t.ctx, t.ctx.db, inbound)).toBeTypeOf('function');
    await t.ctx.db.query('DELETE FROM away_replies WHERE workspace_id = $1', [ws.id]);
    await t.ctx.db.query(
      `UPDATE conversations SET state = 'resolved' WHERE workspace_id = $1 AND contact_id = $2`,
      [ws.id, id],
    );
    expect(await awayOrGreeting(t.ctx, t.ctx.db, inbound)).toBeUndefined();
  });
});

describe('business hours in automations', () => {
  it('a message trigger with hours starts only inside (or outside) them, above one without', async () => {
    const ws = await t.connectedWorkspace();
    await saveBusinessHours(t.ctx.db, ws.id, closedNow({ away: { enabled: false, text: '' } }), SYSTEM);
    const bot = (name: string, hours?: 'inside' | 'outside') =>
      createAutomation(
        t.ctx,
        ws.id,
        {
          name,
          trigger: { type: 'message_received', keywords: ['hi'], ...(hours ? { hours } : {}) },
          steps: [{ id: 'answer', type: 'send_text', text: `${name} here` }],
        },
        { publish: true },
      );
    await bot('Any time');
    await bot('Day', 'inside');
    await bot('Night', 'outside');
    const [night, day] = [nextPhone(), nextPhone()];
    await say(ws, night, 'hi');
    await expectReplies(night, ['Night here']);
    await saveBusinessHours(t.ctx.db, ws.id, openNow({ greeting: { enabled: false, text: '' } }), SYSTEM);
    await say(ws, day, 'hi');
    await expectReplies(day, ['Day here']);
  });

  it('a condition reads business hours when its step runs', async () => {
    const ws = await t.connectedWorkspace();
    await createAutomation(
      t.ctx,
      ws.id,
      {
        name: 'Hours',
        trigger: { type: 'message_received' },
        steps: [
          {
            id: 'open',
            type: 'condition',
            if: { any: [{ inside_business_hours: true }] },
            if_true: 'yes',
            if_false: 'no',
          },
          { id: 'yes', type: 'send_text', text: 'We are open', next: null },
          { id: 'no', type: 'send_text', text: 'We are closed now' },
        ],
      },
      { publish: true },
    );
    const [open, closed] = [nextPhone(), nextPhone()];
    await say(ws, open, 'hi');
    await expectReplies(open, ['We are open']);
    await saveBusinessHours(t.ctx.db, ws.id, closedNow({ away: { enabled: false, text: '' } }), SYSTEM);
    await say(ws, closed, 'hi');
    await expectReplies(closed, ['We are closed now']);
  });
});
