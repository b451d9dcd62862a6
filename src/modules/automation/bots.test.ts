import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { openLiveStream } from '../../../test/support/live.js';
import {
  connectSimulator,
  simControl,
  simState,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { deliver, inboundPayload } from '../../simulator/webhooks.js';
import { addMember, createUser } from '../accounts/users.js';
import { resumeConversationBot, stopConversationBot } from './bot-conversation.js';
import { getRun, listRuns } from './list-runs.js';
import { runStep } from './run-step.js';
import { createAutomation } from './save-automation.js';

// Bots: a flow that asks, waits for the answer the contact sends through the inbound webhook,
// checks it, keeps it and takes the branch it leads to; loops back; hands the conversation over.

const t = simulatorAppForTests({
  queue: true,
  env: { WEBHOOKS_ALLOW_PRIVATE: 'true' },
  statusDelaysMs: [-1, -1, -1],
});

let phones = 0;

/** What the simulator received for a phone: each message's text (a body, a question's body). */
function sentTexts(phone: string): string[] {
  return simState(t)
    .messages.filter((m) => m.to === phone)
    .map((m) => {
      const p = m.payload as { text?: { body: string }; interactive?: { body: { text: string } } };
      return p.text?.body ?? p.interactive?.body.text ?? m.type;
    });
}

/**
 * A workspace with a published bot on event `event`, a contact who wrote first (the 24-hour window is
 * open), and helpers to start runs and to answer as the contact.
 */
async function botFor(steps: unknown[], extra: Record<string, unknown> = {}) {
  const ws = await t.connectedWorkspace();
  const phone = `1415555${String(2000 + phones++)}`;
  const publish = (event: string, s: unknown[], more: Record<string, unknown> = {}) =>
    createAutomation(
      t.ctx,
      ws.id,
      { name: `Bot ${event}`, trigger: { type: 'event', event }, steps: s, ...more },
      { publish: true },
    );
  const flow = await publish('bot', steps, extra);
  const send = (body: Record<string, unknown>) =>
    simControl(t.base, '/inbound', { from: phone, phone_number_id: ws.number.phoneNumberId, ...body });
  const say = (text: string) => send({ text });
  const tap = (id: string, title: string) =>
    send({
      message: { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id, title } } },
    });
  await say('hi');
  const contactId = (
    await t.ctx.db.query<{ id: string }>('SELECT id FROM contacts WHERE workspace_id = $1 AND phone = $2', [
      ws.id,
      phone,
    ])
  ).rows[0]!.id;
  const start = async (event = 'bot', automationId = flow.id) => {
    await t.api('POST', '/events', ws.key, { phone: `+${phone}`, event });
    const [run] = await until(async () => {
      const runs = await listRuns(t.ctx, ws.id, { automationId });
      return runs.length > 0 && runs;
    });
    return run!.id;
  };
  const run = (id: string) => getRun(t.ctx, ws.id, id).then((r) => r!);
  const settled = (id: string, status: string) =>
    until(async () => {
      const r = await run(id);
      return r.status === status && r;
    }, 20_000);
  /** Waits for the n-th message to the contact, and for the run to wait on an answer after it. */
  const asked = (id: string, n: number) =>
    until(async () => {
      const r = await run(id);
      return sentTexts(phone).length >= n && r.status === 'waiting' && r;
    }, 20_000);
  return { ws, flow, phone, contactId, publish, send, say, tap, start, run, settled, asked };
}

describe('a bot', () => {
  it('loops back to a menu three times, each visit its own row, job and send, then ends', async () => {
    const b = await botFor([
      {
        id: 'menu',
        type: 'ask',
        text: 'Once more?',
        buttons: [
          { id: 'again', title: 'Again', next: 'count' },
          { id: 'enough', title: 'Enough', next: null },
        ],
      },
      { id: 'count', type: 'add_tag', tag: 'looped', next: 'menu' },
    ]);
    const id = await b.start();
    await b.asked(id, 1);
    await b.tap('again', 'Again');
    await b.asked(id, 2);
    await b.say('AGAIN!');
    await b.asked(id, 3);
    await b.say('1');
    await b.asked(id, 4);
    await b.say('enough');
    const done = await b.settled(id, 'completed');
    const menu = done.steps.filter((s) => s.step_id === 'menu');
    expect(menu.map((s) => [s.visit, s.status, s.outcome.option])).toEqual([
      [1, 'done', 'again'],
      [2, 'done', 'again'],
      [3, 'done', 'again'],
      [4, 'done', 'enough'],
    ]);
    expect(done.steps.filter((s) => s.step_id === 'count').map((s) => s.visit)).toEqual([1, 2, 3]);
    expect(sentTexts(b.phone)).toEqual(['Once more?', 'Once more?', 'Once more?', 'Once more?']);
    const keys = await t.ctx.db.query<{ source_key: string }>(
      `SELECT source_key FROM messages WHERE workspace_id = $1 AND direction = 'outbound' ORDER BY source_key`,
      [b.ws.id],
    );
    expect(keys.rows.map((r) => r.source_key)).toEqual([
      `${id}/menu`,
      `${id}/menu/2`,
      `${id}/menu/3`,
      `${id}/menu/4`,
    ]);
  });

  it('fails the run at the 21st visit of a step, saying which step looped', async () => {
    const b = await botFor([
      { id: 'pause', type: 'wait', until: '2000-01-01T00:00:00Z' },
      { id: 'again', type: 'add_tag', tag: 'x', next: 'pause' },
    ]);
    const id = await b.start();
    const failed = await b.settled(id, 'failed');
    expect(failed.error).toBe(
      'step "pause": reached more than 20 times in this run (a step runs at most 20 times), so the loop stops here',
    );
    expect(failed.steps.filter((s) => s.step_id === 'pause')).toHaveLength(21);
    expect(failed.steps.at(-1)).toMatchObject({ step_id: 'pause', visit: 21, status: 'failed' });
  });

  it('keeps an answer in a variable, looks it up over HTTP and tells what it found', async () => {
    const receiver = createServer((req, res) => {
      const order = /\/orders\/(\d+)$/.exec(req.url ?? '')?.[1];
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/big') res.end(JSON.stringify({ pad: 'x'.repeat(70_000) }));
      else if (req.url === '/plain') res.end('fine, thanks');
      else res.end(JSON.stringify({ order: { id: order, status: order === '42' ? 'shipped' : 'unknown' } }));
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as { port: number }).port;
    try {
      const b = await botFor([
        { id: 'num', type: 'ask', text: 'Your order number?', expect: 'number', save_to: 'vars.order' },
        {
          id: 'lookup',
          type: 'http_request',
          method: 'GET',
          url: `http://127.0.0.1:${port}/orders/{{vars.order}}`,
        },
        {
          id: 'known',
          type: 'condition',
          if: { field: 'steps.lookup.body.order.status', op: 'equals', value: 'shipped' },
          if_true: 'tell',
          if_false: null,
        },
        {
          id: 'tell',
          type: 'send_text',
          text: 'Order {{vars.order}} is {{steps.lookup.body.order.status}} (HTTP {{steps.lookup.status}}); you said {{steps.num.answer}}',
        },
      ]);
      const id = await b.start();
      await b.asked(id, 1);
      await b.say('forty-two');
      // Not a number: the question again, and the run still waits.
      await b.asked(id, 2);
      expect(sentTexts(b.phone)).toEqual(['Your order number?', 'Your order number?']);
      await b.say(' 42 ');
      const done = await b.settled(id, 'completed');
      expect(sentTexts(b.phone).at(-1)).toBe('Order 42 is shipped (HTTP 200); you said 42');
      expect(done.steps.find((s) => s.step_id === 'num')!.outcome).toMatchObject({
        answer: '42',
        option: null,
        attempts: 2,
      });
      expect(done.steps.find((s) => s.step_id === 'lookup')!.outcome).toEqual({
        status_code: 200,
        body: { order: { id: '42', status: 'shipped' } },
      });
      const vars = await t.ctx.db.query('SELECT variables FROM runs WHERE workspace_id = $1 AND id = $2', [
        b.ws.id,
        id,
      ]);
      expect(vars.rows[0]).toEqual({ variables: { order: '42' } });

      // Past 64 KiB, or not JSON: the first 2 KB as text, as before.
      const calls = await b.publish('calls', [
        { id: 'big', type: 'http_request', method: 'GET', url: `http://127.0.0.1:${port}/big` },
        { id: 'plain', type: 'http_request', method: 'GET', url: `http://127.0.0.1:${port}/plain` },
      ]);
      const called = await b.settled(await b.start('calls', calls.id), 'completed');
      const body = (step: string) => called.steps.find((s) => s.step_id === step)!.outcome.body;
      expect(body('big')).toBe(`{"pad":"${'x'.repeat(2048 - 8)}`);
      expect(body('plain')).toBe('fine, thanks');
    } finally {
      receiver.close();
    }
  });

  it('asks for text, an e-mail, a phone, a date and a number, saving each, retrying, then on_invalid', async () => {
    const b = await botFor([
      { id: 'name', type: 'ask', text: 'Your name?', save_to: 'contact.name' },
      { id: 'email', type: 'ask', text: 'Your e-mail?', expect: 'email', save_to: 'contact.email' },
      { id: 'phone', type: 'ask', text: 'Another phone?', expect: 'phone', save_to: 'contact.traits.phone2' },
      {
        id: 'born',
        type: 'ask',
        text: 'Your birthday?',
        expect: 'date',
        save_to: 'contact.traits.born',
        retry_text: 'Please send a date like 2026-12-01',
      },
      {
        id: 'guests',
        type: 'ask',
        text: 'How many guests?',
        expect: 'number',
        attempts: 1,
        on_invalid: 'sorry',
      },
      { id: 'thanks', type: 'send_text', text: 'Thanks {{contact.name}}', next: null },
      { id: 'sorry', type: 'send_text', text: 'Sorry {{contact.name}}, we could not read that' },
    ]);
    const id = await b.start();
    await b.asked(id, 1);
    // A location answers no text question: asked again.
    await b.send({ message: { type: 'location', location: { latitude: 1, longitude: 2 } } });
    await b.asked(id, 2);
    await b.say('Ravi');
    await b.asked(id, 3);
    await b.say('Ravi@Example.com');
    await b.asked(id, 4);
    await b.say('+1 415 555 2671');
    await b.asked(id, 5);
    await b.say('tomorrow');
    await b.asked(id, 6);
    await b.say('1/12/2026');
    await b.asked(id, 7);
    await b.say('a few');
    const done = await b.settled(id, 'completed');
    expect(sentTexts(b.phone)).toEqual([
      'Your name?',
      'Your name?',
      'Your e-mail?',
      'Another phone?',
      'Your birthday?',
      'Please send a date like 2026-12-01',
      'How many guests?',
      'Sorry Ravi, we could not read that',
    ]);
    const contact = await t.ctx.db.query('SELECT name, email, traits FROM contacts WHERE id = $1', [
      b.contactId,
    ]);
    expect(contact.rows[0]).toEqual({
      name: 'Ravi',
      email: 'ravi@example.com',
      traits: { phone2: '+14155552671', born: '2026-12-01' },
    });
    expect(done.steps.find((s) => s.step_id === 'guests')!.outcome).toMatchObject({
      answer: 'a few',
      attempts: 1,
      invalid: true,
    });
    expect(done.steps.find((s) => s.step_id === 'born')!.outcome).toMatchObject({ attempts: 2 });
  });

  it('leaves an answer that comes after the deadline to the deadline job, which takes on_timeout', async () => {
    const b = await botFor([
      { id: 'q', type: 'ask', text: 'Still there?', timeout: '1h', on_timeout: 'late', next: 'thanks' },
      { id: 'thanks', type: 'send_text', text: 'Thanks', next: null },
      { id: 'late', type: 'send_text', text: 'Too late', next: null },
    ]);
    const id = await b.start();
    await b.asked(id, 1);
    // The hour has passed, and the deadline's job has not run yet.
    await t.ctx.db.query(
      `UPDATE runs SET awaiting = jsonb_set(awaiting, '{until}', to_jsonb((now() - interval '1 second')::text))
       WHERE workspace_id = $1 AND id = $2`,
      [b.ws.id, id],
    );
    await b.say('yes');
    expect((await b.run(id)).status).toBe('waiting');
    await runStep(t.ctx, { workspaceId: b.ws.id, runId: id, stepId: 'q', timeout: true }, false);
    await b.settled(id, 'completed');
    expect(sentTexts(b.phone)).toEqual(['Still there?', 'Too late']);
  });

  it('takes on_timeout when no answer comes in time, and a deadline job after the answer does nothing', async () => {
    const b = await botFor([
      { id: 'q', type: 'ask', text: 'Still there?', timeout: '2s', on_timeout: 'late', next: 'pause' },
      { id: 'pause', type: 'wait', duration: '1h', next: null },
      { id: 'late', type: 'send_text', text: 'We will be here' },
    ]);
    const id = await b.start();
    const done = await b.settled(id, 'completed');
    expect(done.steps.find((s) => s.step_id === 'q')!.outcome).toMatchObject({
      timed_out: true,
      answer: null,
    });
    expect(sentTexts(b.phone)).toEqual(['Still there?', 'We will be here']);

    // A second run answers in time: its deadline's job, delivered late, is a no-op.
    await b.start();
    await until(async () => (await listRuns(t.ctx, b.ws.id, { automationId: b.flow.id })).length === 2);
    const runs = await listRuns(t.ctx, b.ws.id, { automationId: b.flow.id });
    const other = runs.find((r) => r.id !== id)!.id;
    await b.asked(other, 3);
    await b.say('yes');
    const paused = async () => {
      const r = await b.run(other);
      return r.status === 'waiting' && r.steps.find((s) => s.step_id === 'pause')?.status === 'waiting';
    };
    await until(paused);
    await runStep(t.ctx, { workspaceId: b.ws.id, runId: other, stepId: 'q', timeout: true }, false);
    expect(await paused()).toBe(true);
    const after = await b.run(other);
    expect(after.steps.find((s) => s.step_id === 'q')!.outcome).toMatchObject({ answer: 'yes' });
    expect(sentTexts(b.phone).filter((x) => x === 'We will be here')).toHaveLength(1);
  });

  it('does not take an answer twice when its webhook is delivered again', async () => {
    const b = await botFor([{ id: 'q', type: 'ask', text: 'A number?', expect: 'number' }]);
    const id = await b.start();
    await b.asked(id, 1);
    const number = simState(t).numbers.get(b.ws.number.phoneNumberId)!;
    const answer = (wamid: string, body: string) =>
      inboundPayload(number, {
        from: b.phone,
        id: wamid,
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: 'text',
        text: { body },
      });
    // The ask's job delivered again, and again as if its worker died after the send: no second question.
    await runStep(t.ctx, { workspaceId: b.ws.id, runId: id, stepId: 'q' }, false);
    await t.ctx.db.query("UPDATE run_steps SET status = 'started' WHERE run_id = $1", [id]);
    await runStep(t.ctx, { workspaceId: b.ws.id, runId: id, stepId: 'q' }, false);
    expect(sentTexts(b.phone)).toEqual(['A number?']);
    expect((await b.run(id)).status).toBe('waiting');
    const wrong = answer(`wamid.bot-${id}-1`, 'none');
    expect(await deliver(number, wrong)).toBe(200);
    expect(await deliver(number, wrong)).toBe(200);
    await b.asked(id, 2);
    // The question again, its job delivered again: sent once.
    await runStep(t.ctx, { workspaceId: b.ws.id, runId: id, stepId: 'q', retry: 1 }, false);
    expect(sentTexts(b.phone)).toEqual(['A number?', 'A number?']);
    expect(await deliver(number, answer(`wamid.bot-${id}-2`, '7'))).toBe(200);
    const done = await b.settled(id, 'completed');
    expect(done.steps.find((s) => s.step_id === 'q')!.outcome).toMatchObject({ answer: '7', attempts: 2 });
    expect(sentTexts(b.phone)).toEqual(['A number?', 'A number?']);
  });

  it('fails an ask when another bot is talking to the contact', async () => {
    const b = await botFor([{ id: 'q', type: 'ask', text: 'First bot here', timeout: '1h' }]);
    const second = await b.publish('other', [{ id: 'q2', type: 'ask', text: 'Second bot here' }]);
    const first = await b.start();
    await b.asked(first, 1);
    const id = await b.start('other', second.id);
    const failed = await b.settled(id, 'failed');
    expect(failed.error).toBe('step "q2": another bot is talking to this contact');
    expect(sentTexts(b.phone)).not.toContain('Second bot here');
    expect((await b.run(first)).status).toBe('waiting');
  });

  it('resolves and assigns the conversation, waits for the hand-back, then goes on', async () => {
    const b = await botFor([
      { id: 'done', type: 'resolve' },
      // biome-ignore lint/suspicious/noThenProperty: the assign step's field
      { id: 'hand', type: 'assign', to: 'placeholder', then: 'wait' },
      { id: 'back', type: 'add_tag', tag: 'handed-back' },
    ]);
    const user = await createUser(t.ctx.db, `agent-${b.phone}@example.com`, 'a long password 123');
    await addMember(t.ctx.db, b.ws.id, user, 'member');
    const flow = await b.publish('handoff', [
      { id: 'done', type: 'resolve' },
      // biome-ignore lint/suspicious/noThenProperty: the assign step's field
      { id: 'hand', type: 'assign', to: user, then: 'wait' },
      { id: 'back', type: 'add_tag', tag: 'handed-back' },
    ]);
    const id = await b.start('handoff', flow.id);
    const waiting = await b.settled(id, 'waiting');
    expect(waiting.current_step).toBe('hand');
    const conversation = () =>
      t.ctx.db
        .query('SELECT state, assignee_id FROM conversations WHERE workspace_id = $1 AND contact_id = $2', [
          b.ws.id,
          b.contactId,
        ])
        .then((r) => r.rows[0]);
    expect(await conversation()).toEqual({ state: 'resolved', assignee_id: user });
    const held = await t.ctx.db.query('SELECT holds_conversation FROM runs WHERE id = $1', [id]);
    expect(held.rows[0]).toEqual({ holds_conversation: false });
    // The assign's job delivered again moves nothing: only the hand-back does.
    await runStep(t.ctx, { workspaceId: b.ws.id, runId: id, stepId: 'hand' }, false);
    expect((await b.run(id)).status).toBe('waiting');

    expect(await t.ctx.db.transaction((tx) => resumeConversationBot(t.ctx, tx, b.ws.id, b.contactId))).toBe(
      id,
    );
    const done = await b.settled(id, 'completed');
    expect(done.steps.map((s) => [s.step_id, s.status])).toEqual([
      ['done', 'done'],
      ['hand', 'done'],
      ['back', 'done'],
    ]);
    expect(
      await t.ctx.db.transaction((tx) => resumeConversationBot(t.ctx, tx, b.ws.id, b.contactId)),
    ).toBeNull();

    // The first flow assigns to someone who is not a member: the step fails in words.
    const failed = await b.settled(await b.start(), 'failed');
    expect(failed.error).toBe(
      'step "hand": "placeholder" is not a member of this workspace: assign to a member\'s user id, or to null for the unassigned queue',
    );
  });

  it('is stopped by a teammate unless its automation says continue, and then takes no answer', async () => {
    const b = await botFor([{ id: 'q', type: 'ask', text: 'Anything else?', timeout: '1h' }]);
    const patient = await b.publish(
      'patient',
      [{ id: 'q', type: 'ask', text: 'Take your time', timeout: '1h' }],
      { on_teammate_reply: 'continue' },
    );
    const stop = (teammate: boolean) =>
      t.ctx.db.transaction((tx) =>
        stopConversationBot(t.ctx, tx, b.ws.id, b.contactId, 'a teammate replied', { teammate }),
      );
    const first = await b.start('patient', patient.id);
    await b.asked(first, 1);
    expect(await stop(true)).toBeNull();
    // The contact's STOP ends it all the same.
    expect(await stop(false)).toBe(first);
    expect(await b.settled(first, 'stopped')).toMatchObject({ error: 'a teammate replied' });

    const id = await b.start();
    await b.asked(id, 2);
    expect(await stop(true)).toBe(id);
    const stopped = await b.run(id);
    expect(stopped).toMatchObject({ status: 'stopped', error: 'a teammate replied' });
    expect(stopped.steps[0]).toMatchObject({ step_id: 'q', status: 'skipped' });
    expect((await listRuns(t.ctx, b.ws.id, { status: 'stopped' })).map((r) => r.id).sort()).toEqual(
      [first, id].sort(),
    );
    await b.say('hello?');
    await runStep(t.ctx, { workspaceId: b.ws.id, runId: id, stepId: 'q', timeout: true }, false);
    expect((await b.run(id)).status).toBe('stopped');
    expect(sentTexts(b.phone)).toEqual(['Take your time', 'Anything else?']);
  });

  it("reaches the inbox's live stream when it resolves the conversation", async () => {
    const owner = await workspaceWithOwner(t);
    const number = await connectSimulator(t, t.base, owner.workspaceId);
    const from = '14155553999';
    await simControl(t.base, '/inbound', { from, text: 'hi', phone_number_id: number.phoneNumberId });
    await createAutomation(
      t.ctx,
      owner.workspaceId,
      {
        name: 'Closer',
        trigger: { type: 'event', event: 'close' },
        steps: [{ id: 'close', type: 'resolve' }],
      },
      { publish: true },
    );
    const stream = await openLiveStream(t.base, owner.client.cookie);
    await t.api('POST', '/events', owner.apiKey, { phone: `+${from}`, event: 'close' });
    const event = await stream.next((e) => e.event === 'conversation', 15_000);
    const { rows } = await t.ctx.db.query(
      'SELECT contact_id, state FROM conversations WHERE workspace_id = $1',
      [owner.workspaceId],
    );
    expect(rows).toEqual([{ contact_id: event.data.contact_id, state: 'resolved' }]);
    stream.close();
  });

  it('takes not_sent when the 24-hour window is closed, and keeps no hold on the conversation', async () => {
    const ws = await t.connectedWorkspace();
    const flow = await createAutomation(
      t.ctx,
      ws.id,
      {
        name: 'Cold',
        trigger: { type: 'event', event: 'cold' },
        steps: [
          { id: 'q', type: 'ask', text: 'Hello?', not_sent: 'tag' },
          { id: 'tag', type: 'add_tag', tag: 'asked-outside-window' },
        ],
      },
      { publish: true },
    );
    await t.api('POST', '/events', ws.key, { phone: '+14155553888', event: 'cold' });
    const [run] = await until(async () => {
      const runs = await listRuns(t.ctx, ws.id, { automationId: flow.id });
      return runs[0]?.status === 'completed' && runs;
    });
    const detail = (await getRun(t.ctx, ws.id, run!.id))!;
    expect(detail.steps.map((s) => [s.step_id, s.status])).toEqual([
      ['q', 'skipped'],
      ['tag', 'done'],
    ]);
    expect(detail.steps[0]!.outcome).toMatchObject({ sent: false, code: 'outside_window' });
    const held = await t.ctx.db.query('SELECT holds_conversation FROM runs WHERE id = $1', [run!.id]);
    expect(held.rows[0]).toEqual({ holds_conversation: false });
    expect(sentTexts('14155553888')).toEqual([]);
  });
});
