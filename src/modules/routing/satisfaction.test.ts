import { describe, expect, it, vi } from 'vitest';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import {
  connectSimulator,
  simControl,
  simState,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { createAutomation } from '../automation/save-automation.js';
import { DEFAULT_QUESTION } from './satisfaction-settings.js';
import { isSurveyAnswer, surveyRowId } from './survey-payload.js';

// The satisfaction survey: asked when a conversation is resolved, answered by a tap on a list row,
// counted on the dashboard; an answer never reopens the conversation nor reaches a bot.

const t = simulatorAppForTests({ queue: true });

let phones = 14155551200;
const nextPhone = () => String(phones++);

interface Row {
  id: string;
  title: string;
}
type Owner = Awaited<ReturnType<typeof workspace>>;

async function workspace(survey: boolean | null = true) {
  const w = await workspaceWithOwner(t);
  const number = await connectSimulator(t, t.base, w.workspaceId);
  const app = async (method: string, path: string, body?: unknown) => {
    const res = await w.client.call(method, path, body);
    return { status: res.statusCode, body: res.json() };
  };
  if (survey !== null) {
    const saved = await app('PUT', '/satisfaction/settings', {
      enabled: survey,
      question: 'Rate us, please',
    });
    expect(saved.status).toBe(200);
  }
  const write = async (from: string, message: Record<string, unknown>) => {
    const res = await simControl(t.base, '/inbound', {
      from,
      phone_number_id: number.phoneNumberId,
      ...message,
    });
    expect(res.body.delivered_status).toBe(200);
  };
  return { ...w, number, app, write };
}

const text = (s: string) => ({ text: s });
const tap = (row: Row) => ({
  message: { type: 'interactive', interactive: { type: 'list_reply', list_reply: row } },
});

async function contactOf(w: Owner, phone: string): Promise<string> {
  const { rows } = await t.ctx.db.query<{ id: string }>(
    'SELECT id FROM contacts WHERE workspace_id = $1 AND phone = $2',
    [w.workspaceId, phone],
  );
  return rows[0]!.id;
}

/** A customer who wrote in, their conversation given to the owner. */
async function customer(w: Owner) {
  const phone = nextPhone();
  await w.write(phone, text('Hello, my order is late'));
  const id = await contactOf(w, phone);
  expect((await w.app('PATCH', `/conversations/${id}`, { assignee_id: w.client.userId })).status).toBe(200);
  return { phone, id };
}

const resolve = async (w: Owner, id: string) =>
  expect((await w.app('PATCH', `/conversations/${id}`, { state: 'resolved' })).status).toBe(200);

/** The survey lists the network received for this phone, newest first. */
const surveysSentTo = (phone: string) =>
  simState(t)
    .messages.toReversed()
    .filter((m) => m.to === phone && m.type === 'interactive')
    .map(
      (m) =>
        (m.payload as { interactive: { body: { text: string }; action: { sections: { rows: Row[] }[] } } })
          .interactive,
    );

async function surveyRows(phone: string): Promise<Row[]> {
  await until(async () => surveysSentTo(phone).length > 0, 10_000);
  return surveysSentTo(phone)[0]!.action.sections[0]!.rows;
}

async function surveysOf(w: Owner, contactId: string) {
  const { rows } = await t.ctx.db.query<{
    id: string;
    rating: number | null;
    assignee_id: string | null;
    message_id: string | null;
  }>(
    `SELECT id, rating, assignee_id, message_id FROM satisfaction_surveys
     WHERE workspace_id = $1 AND contact_id = $2 ORDER BY asked_at, id`,
    [w.workspaceId, contactId],
  );
  return rows;
}

const stateOf = async (w: Owner, id: string) =>
  (await w.app('GET', `/conversations/${id}`)).body.conversation.state as string;

/** Lets the after-commit sends run, then says whether anything was asked. */
async function settle() {
  await new Promise((r) => setTimeout(r, 300));
}

describe('settings', () => {
  it('are off with the default question until an owner or admin saves them', async () => {
    const w = await workspace(null);
    expect((await w.app('GET', '/satisfaction/settings')).body).toEqual({
      result: true,
      survey: { enabled: false, question: DEFAULT_QUESTION },
    });
    const saved = await w.app('PUT', '/satisfaction/settings', {
      enabled: true,
      question: '  How did we do? ',
    });
    expect(saved.body.survey).toEqual({ enabled: true, question: 'How did we do?' });
    expect((await w.app('GET', '/satisfaction/settings')).body.survey).toEqual(saved.body.survey);
  });

  it('refuse a member, a blank or overlong question and a missing switch, naming the field', async () => {
    const member = await workspaceWithOwner(t, 'member');
    const res = await member.client.call('PUT', '/satisfaction/settings', { enabled: true, question: 'Hi' });
    expect(res.statusCode).toBe(403);
    const w = await workspace(null);
    for (const [body, field] of [
      [{ enabled: true, question: '   ' }, 'question'],
      [{ enabled: true, question: 'x'.repeat(1025) }, 'question'],
      [{ enabled: true, question: '' }, 'question'],
      [{ question: 'Hi' }, 'enabled'],
      [{ enabled: 'yes', question: 'Hi' }, 'enabled'],
    ] as const) {
      const r = await w.app('PUT', '/satisfaction/settings', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(r.body.error.details)).toContain(field);
    }
    expect(
      (await w.app('PUT', '/satisfaction/settings', { enabled: true, question: 'Hi', x: 1 })).status,
    ).toBe(422);
    expect((await w.app('GET', '/satisfaction/settings')).body.survey.enabled).toBe(false);
  });
});

describe('a resolve asks, a tap answers', () => {
  it('sends the list of five, records the tap once for the teammate, keeps the conversation resolved and away from bots', async () => {
    const w = await workspace();
    // A bot that answers anything: a survey answer must not start it.
    await createAutomation(
      t.ctx,
      w.workspaceId,
      {
        name: 'Any',
        trigger: { type: 'message_received' },
        steps: [{ id: 'a', type: 'send_text', text: 'Bot here' }],
      },
      { publish: true },
    );
    const phone = nextPhone();
    await w.write(phone, text('Hello'));
    const id = await contactOf(w, phone);
    await until(async () => simState(t).messages.some((m) => m.to === phone && m.type === 'text'), 10_000);
    expect((await w.app('PATCH', `/conversations/${id}`, { assignee_id: w.client.userId })).status).toBe(200);
    await resolve(w, id);
    const rows = await surveyRows(phone);
    expect(surveysSentTo(phone)[0]!.body.text).toBe('Rate us, please');
    expect(rows.map((r) => r.title)).toEqual([
      '1 – Very poor',
      '2 – Poor',
      '3 – Okay',
      '4 – Good',
      '5 – Excellent',
    ]);
    expect(rows.every((r) => isSurveyAnswer(r.id))).toBe(true);
    await until(async () => (await surveysOf(w, id))[0]?.message_id != null, 5000);
    const [survey] = await surveysOf(w, id);
    expect(survey).toMatchObject({ rating: null, assignee_id: w.client.userId });

    await w.write(phone, tap(rows[3]!));
    expect((await surveysOf(w, id)).map((s) => s.rating)).toEqual([4]);
    expect(await stateOf(w, id)).toBe('resolved');
    await w.write(phone, tap(rows[1]!));
    expect((await surveysOf(w, id)).map((s) => s.rating)).toEqual([4]);
    expect(await stateOf(w, id)).toBe('resolved');
    // Only the first message started the bot (a run starts in the transaction storing the message).
    const runs = await t.ctx.db.query('SELECT id FROM runs WHERE workspace_id = $1 AND contact_id = $2', [
      w.workspaceId,
      id,
    ]);
    expect(runs.rows).toHaveLength(1);

    const figures = (await w.app('GET', '/satisfaction?days=7')).body;
    expect(figures).toMatchObject({ asked: 1, answered: 1, average: 4 });
    expect(figures.distribution).toEqual(
      [1, 2, 3, 4, 5].map((rating) => ({ rating, count: rating === 4 ? 1 : 0 })),
    );
    expect(figures.teammates).toEqual([{ user_id: w.client.userId, name: 'Owner', answered: 1, average: 4 }]);

    // Anything else the customer writes reopens it, as always.
    await w.write(phone, text('One more thing'));
    expect(await stateOf(w, id)).toBe('open');
  });

  it('averages per teammate, the unassigned apart, over the period', async () => {
    const w = await workspace();
    const a = await customer(w);
    const b = await customer(w);
    await w.app('PATCH', `/conversations/${b.id}`, { assignee_id: null });
    for (const c of [a, b]) await resolve(w, c.id);
    await w.write(a.phone, tap((await surveyRows(a.phone))[4]!));
    await w.write(b.phone, tap((await surveyRows(b.phone))[1]!));
    const figures = (await w.app('GET', '/satisfaction')).body;
    expect(figures).toMatchObject({ asked: 2, answered: 2, average: 3.5 });
    expect(figures.teammates).toEqual([
      { user_id: w.client.userId, name: 'Owner', answered: 1, average: 5 },
      { user_id: null, name: null, answered: 1, average: 2 },
    ]);
    // An answer before the period is outside it.
    await t.ctx.db.query(
      "UPDATE satisfaction_surveys SET asked_at = now() - interval '3 days', answered_at = now() - interval '3 days' WHERE workspace_id = $1 AND contact_id = $2",
      [w.workspaceId, b.id],
    );
    expect((await w.app('GET', '/satisfaction?days=1')).body).toMatchObject({ answered: 1, average: 5 });
    expect((await w.app('GET', '/satisfaction?days=91')).status).toBe(422);
  });
});

describe('when no survey goes out', () => {
  it('the survey is off', async () => {
    const w = await workspace(false);
    const c = await customer(w);
    await resolve(w, c.id);
    await settle();
    expect(await surveysOf(w, c.id)).toEqual([]);
    expect(surveysSentTo(c.phone)).toEqual([]);
  });

  it('the contact opted out', async () => {
    const w = await workspace();
    const c = await customer(w);
    await w.write(c.phone, text('STOP'));
    await resolve(w, c.id);
    await settle();
    expect(await surveysOf(w, c.id)).toEqual([]);
  });

  it('the 24-hour window closed (nothing is even tried)', async () => {
    const w = await workspace();
    const c = await customer(w);
    const warn = vi.spyOn(t.ctx.log, 'warn');
    await t.ctx.db.query(
      "UPDATE contacts SET last_inbound_at = now() - interval '25 hours' WHERE workspace_id = $1 AND id = $2",
      [w.workspaceId, c.id],
    );
    await resolve(w, c.id);
    await settle();
    expect(await surveysOf(w, c.id)).toEqual([]);
    expect(warn.mock.calls.filter((call) => String(call[1]).includes('survey'))).toEqual([]);
    warn.mockRestore();
  });

  it('the conversation was already resolved (given to someone while resolved)', async () => {
    const w = await workspace(false);
    const c = await customer(w);
    await resolve(w, c.id);
    await w.app('PUT', '/satisfaction/settings', { enabled: true, question: 'Rate us' });
    expect((await w.app('PATCH', `/conversations/${c.id}`, { assignee_id: null })).status).toBe(200);
    await settle();
    expect(await surveysOf(w, c.id)).toEqual([]);
  });

  it('the customer wrote nothing since the last survey (resolved, reopened, resolved)', async () => {
    const w = await workspace();
    const c = await customer(w);
    await resolve(w, c.id);
    await surveyRows(c.phone);
    await w.app('PATCH', `/conversations/${c.id}`, { state: 'open' });
    await resolve(w, c.id);
    await settle();
    expect(await surveysOf(w, c.id)).toHaveLength(1);
    // A new message from the customer: the next resolve asks again.
    await w.write(c.phone, text('Still there?'));
    await resolve(w, c.id);
    await until(async () => surveysSentTo(c.phone).length === 2, 10_000);
    expect(await surveysOf(w, c.id)).toHaveLength(2);
  });
});

describe('taps beside the plain case', () => {
  it('an answer to a survey that is no longer the latest, or asked too long ago', async () => {
    const w = await workspace();
    const c = await customer(w);
    await resolve(w, c.id);
    const first = await surveyRows(c.phone);
    await w.write(c.phone, text('Actually, one more question'));
    await resolve(w, c.id);
    await until(async () => surveysSentTo(c.phone).length === 2, 10_000);
    await w.write(c.phone, tap(first[2]!));
    expect((await surveysOf(w, c.id)).map((s) => s.rating)).toEqual([null, null]);
    // Still a survey's row: the resolved conversation stays resolved.
    expect(await stateOf(w, c.id)).toBe('resolved');
    await t.ctx.db.query(
      "UPDATE satisfaction_surveys SET asked_at = asked_at - interval '7 days 1 minute' WHERE workspace_id = $1",
      [w.workspaceId],
    );
    await w.write(c.phone, tap((await surveyRows(c.phone))[2]!));
    expect((await surveysOf(w, c.id)).map((s) => s.rating)).toEqual([null, null]);
  });

  it('a conversation a teammate reopened stays open: the answer is recorded all the same', async () => {
    const w = await workspace();
    const c = await customer(w);
    await resolve(w, c.id);
    const rows = await surveyRows(c.phone);
    await w.app('PATCH', `/conversations/${c.id}`, { state: 'open' });
    await w.write(c.phone, tap(rows[4]!));
    expect((await surveysOf(w, c.id)).map((s) => s.rating)).toEqual([5]);
    expect(await stateOf(w, c.id)).toBe('open');
  });

  it("a row naming another contact's survey, which reopens the conversation as any message does", async () => {
    const w = await workspace();
    const a = await customer(w);
    const b = await customer(w);
    await resolve(w, a.id);
    await resolve(w, b.id);
    const rowsOfA = await surveyRows(a.phone);
    await surveyRows(b.phone);
    await w.write(b.phone, tap(rowsOfA[4]!));
    expect((await surveysOf(w, a.id)).map((s) => s.rating)).toEqual([null]);
    expect((await surveysOf(w, b.id)).map((s) => s.rating)).toEqual([null]);
    expect(await stateOf(w, b.id)).toBe('open');
  });

  it('a tap that is one of the workspace’s opt-out words', async () => {
    const w = await workspace();
    await w.app('PATCH', '/workspace', { opt_out_keywords: ['1 – Very poor'] });
    const c = await customer(w);
    await resolve(w, c.id);
    const rows = await surveyRows(c.phone);
    await w.write(c.phone, tap(rows[0]!));
    expect((await surveysOf(w, c.id)).map((s) => s.rating)).toEqual([null]);
    const { rows: contact } = await t.ctx.db.query(
      'SELECT opted_out FROM contacts WHERE workspace_id = $1 AND id = $2',
      [w.workspaceId, c.id],
    );
    expect(contact[0]).toEqual({ opted_out: true });
  });
});

it('reads only its own row ids', () => {
  expect(isSurveyAnswer(surveyRowId('csat_abc123', 4))).toBe(true);
  for (const other of [
    null,
    '',
    'MENU',
    'parley-csat:csat_abc:6',
    'parley-csat:csat_abc:0',
    'parley-csat:ct_abc:3',
    'x parley-csat:csat_a:3',
  ])
    expect(isSurveyAnswer(other)).toBe(false);
});
