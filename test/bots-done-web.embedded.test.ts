import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';
import { until } from './support/until.js';

// Issue 29's "Done when": a keyword bot built in the app (a button menu that loops back, a question
// with validation and a timeout, an order lookup through http_request whose answer is sent back, a
// handoff to a teammate), every branch walked by simulated customers, a teammate's reply stopping
// the bot, and the same bot created through POST /api/v1/automations behaving the same.

type SimMessage = {
  type: string;
  payload: {
    text?: { body: string };
    interactive?: {
      body: { text: string };
      action: { buttons?: { reply: { id: string; title: string } }[] };
    };
  };
};

const QUESTION = 'What can we do for you? [Track order | Talk to us | Hours]';
const HOURS = 'We are open 9 to 5, Monday to Saturday.';
const NUMBER = 'Your order number?';
const RETRY = 'Please send the order number in digits.';
const TIMED_OUT = 'No answer came in time: write menu to start again.';

describe.skipIf(!hasChromium)('issue 29 done: a bot built in the app', { timeout: 300_000 }, () => {
  // WEBHOOKS_ALLOW_PRIVATE lets the http_request step reach the order server on loopback, as in the
  // automation module's own http_request tests.
  const app = appInBrowserForTests({
    env: { WEBHOOKS_ALLOW_PRIVATE: 'true' },
    viewport: { width: 1440, height: 1000 },
  });
  const page = () => app.page;
  let key = '';
  let shop: Server;
  let shopUrl = '';
  const lookups: string[] = [];
  let automationId = '';

  beforeAll(async () => {
    // The shop's order API: every order is shipped.
    shop = createServer((req, res) => {
      lookups.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ order: { id: req.url?.split('/').pop(), status: 'shipped' } }));
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => shop?.close(() => resolve())));

  const node = (id: string) => page().locator(`.react-flow__node[data-id="${id}"]`);
  const addStep = (label: string) => page().locator('.add-step-btn', { hasText: label }).click();
  const card = (id: string) => page().locator(`li[data-step="${id}"]`);
  const openCard = async (id: string) => {
    if ((await card(id).locator('.step-head').getAttribute('aria-expanded')) !== 'true')
      await card(id).locator('.step-head').click();
  };
  /** A link's select in a step's card, by its label ("Then", "When the answers stay invalid"). */
  const link = (id: string, label: string) =>
    card(id)
      .locator('label.field')
      .filter({ has: page().locator('span', { hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) }) })
      .locator('select');

  /** What the network took for this customer, oldest first, each as a line (a question with its buttons). */
  const sent = async (phone: string) => {
    const { messages } = (await app.sim('GET', `/messages?to=${phone}`)) as { messages: SimMessage[] };
    return messages.reverse().map((m) => {
      if (m.type === 'text') return m.payload.text!.body;
      const i = m.payload.interactive!;
      const buttons = (i.action.buttons ?? []).map((b) => b.reply.title);
      return buttons.length ? `${i.body.text} [${buttons.join(' | ')}]` : i.body.text;
    });
  };
  /** Waits until the customer was sent `n` messages, then gives them all. */
  const sentCount = (phone: string, n: number, ms = 20_000) =>
    until(async () => {
      const got = await sent(phone);
      return got.length >= n && got;
    }, ms);
  const says = (phone: string, name: string, text: string) =>
    app.sim('POST', '/inbound', { from: phone, name, text });
  const taps = (phone: string, name: string, id: string, title: string) =>
    app.sim('POST', '/inbound', {
      from: phone,
      name,
      message: { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id, title } } },
    });
  /** The question's buttons as the customer's phone got them: id by title. */
  const buttonId = async (phone: string, title: string) => {
    const { messages } = (await app.sim('GET', `/messages?to=${phone}`)) as { messages: SimMessage[] };
    const button = messages
      .flatMap((m) => m.payload.interactive?.action.buttons ?? [])
      .find((b) => b.reply.title === title);
    if (!button) throw new Error(`no button "${title}" was sent to ${phone}`);
    return button.reply.id;
  };
  const tapButton = async (phone: string, name: string, title: string) =>
    taps(phone, name, await buttonId(phone, title), title);

  type Run = {
    id: string;
    status: string;
    error: string | null;
    contact_id: string;
    contact_phone: string | null;
    automation_id: string;
  };
  const runsOf = async (phone: string) => {
    const res = await page().request.get(`${app.base}/api/app/runs?limit=200`);
    return ((await res.json()).runs as Run[]).filter((r) => r.contact_phone === phone);
  };
  const conversationOf = async (phone: string) => {
    const runs = await runsOf(phone);
    const res = await page().request.get(`${app.base}/api/app/conversations/${runs[0]!.contact_id}`);
    return (await res.json()).conversation as {
      assignee_name: string | null;
      bot: { name: string } | null;
    };
  };

  const openInbox = async (name: string) => {
    await page().locator('nav').getByRole('link', { name: 'Inbox' }).click();
    await page().getByRole('heading', { name: 'Inbox' }).waitFor();
    await page().getByRole('button', { name: 'All', exact: true }).click();
    await page()
      .getByRole('link', { name: new RegExp(name) })
      .click();
  };

  it('signs up, connects the simulator and makes an API key', async () => {
    key = await app.signUp();
    expect(key).toMatch(/^pk_live_/);
  });

  it('builds the bot in the graph builder, saves and publishes it', async () => {
    await page().locator('nav').getByRole('link', { name: 'Flows', exact: true }).click();
    await page().getByRole('link', { name: 'New flow' }).first().click();
    await page().getByLabel('Name', { exact: true }).fill('Shop bot');
    await page().getByLabel('Starts when').selectOption({ label: 'a customer writes' });
    await page().getByLabel('Keywords (optional)').fill('menu');

    // step_1: the menu, three reply buttons.
    await addStep('Ask a question');
    await card('step_1').getByLabel('Question', { exact: true }).fill('What can we do for you?');
    await card('step_1')
      .getByLabel('Answers', { exact: true })
      .selectOption({ label: 'Reply buttons (up to 3)' });
    await card('step_1').getByLabel('Button 1', { exact: true }).fill('Track order');
    await card('step_1').getByRole('button', { name: 'Add a button' }).click();
    await card('step_1').getByLabel('Button 2', { exact: true }).fill('Talk to us');
    await card('step_1').getByRole('button', { name: 'Add a button' }).click();
    await card('step_1').getByLabel('Button 3', { exact: true }).fill('Hours');

    // step_2: the hours, then back to the menu (the loop).
    await addStep('Send text');
    await card('step_2').locator('textarea').fill(HOURS);
    await link('step_2', 'Then').selectOption({ label: 'Go to step_1 (Ask a question)' });

    // step_3: the order number, a number, two answers checked, a retry text and a short timeout.
    await addStep('Ask a question');
    await card('step_3').getByLabel('Question', { exact: true }).fill(NUMBER);
    await card('step_3')
      .getByLabel('Answers', { exact: true })
      .selectOption({ label: 'Typed by the customer' });
    await card('step_3').getByLabel('Accept').selectOption({ label: 'a number' });
    await card('step_3').getByLabel('Save the answer to (optional)').fill('vars.order');
    await card('step_3').getByLabel('Wait for the answer (optional)').fill('5s');
    await card('step_3').getByLabel('Answers checked (optional)').fill('2');
    await card('step_3').getByLabel('Sent on an invalid answer (optional)').fill(RETRY);

    // step_4: the lookup; step_5: its answer sent back, and the run ends.
    await addStep('HTTP request');
    await card('step_4').getByLabel('Method').selectOption('GET');
    await card('step_4').getByLabel('URL').fill(`${shopUrl}/orders/{{vars.order}}`);
    await addStep('Send text');
    await card('step_5')
      .locator('textarea')
      .fill('Order {{vars.order}} is {{steps.step_4.body.order.status}}.');
    await link('step_5', 'Then').selectOption({ label: 'End the run' });

    // step_6: the handoff to the signed-in teammate; step_7: what a customer who went quiet is told.
    await addStep('Hand to a teammate');
    await card('step_6').getByLabel('Hand the conversation to').selectOption({ label: 'Asha Rao' });
    await addStep('Send text');
    await card('step_7').locator('textarea').fill(TIMED_OUT);

    // The menu's buttons, through the node's button that opens its card.
    await node('step_1').getByRole('button').first().click();
    await expect.poll(() => card('step_1').locator('.step-head').getAttribute('aria-expanded')).toBe('true');
    await card('step_1').getByLabel('Button 1 leads to').selectOption({ label: 'Go to step_3' });
    await card('step_1').getByLabel('Button 2 leads to').selectOption({ label: 'Go to step_6' });
    await card('step_1').getByLabel('Button 3 leads to').selectOption({ label: 'Go to step_2' });
    // The order number's invalid branch, by its select; its timeout, dragged in the graph.
    await openCard('step_3');
    await link('step_3', 'When the answers stay invalid').selectOption({
      label: 'Go to step_6 (Hand to a teammate)',
    });
    await page().getByRole('button', { name: 'Lay out' }).click();
    await page().waitForTimeout(300);
    const from = await node('step_3')
      .locator('.react-flow__handle[data-handleid="on_timeout"]')
      .boundingBox();
    const to = await node('step_7').locator('.react-flow__handle.target').boundingBox();
    await page().mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
    await page().mouse.down();
    await page().mouse.move(to!.x + to!.width / 2, to!.y + to!.height / 2, { steps: 12 });
    await page().mouse.up();
    await expect.poll(() => link('step_3', 'When no answer comes in time').inputValue()).toBe('step_7');

    // Every branch drawn: the options, the loop back, invalid and timeout.
    await page().getByRole('button', { name: 'Lay out' }).click();
    expect(await page().locator('.react-flow__node').count()).toBe(8);
    await expect
      .poll(() => page().locator('.react-flow__edge-text').allTextContents())
      .toEqual(
        expect.arrayContaining(['Track order', 'Talk to us', 'Hours', 'invalid', 'timeout', '↺ then']),
      );
    expect(await page().locator('.react-flow__edge.flow-edge-loop').count()).toBe(1);

    await page().getByRole('button', { name: 'Publish' }).click();
    await page().locator('.badge', { hasText: 'published' }).waitFor();
    expect(await page().locator('[role="alert"]').count()).toBe(0);
    automationId = /\/flows\/([^/?#]+)/.exec(page().url())![1]!;
    await page().getByRole('button', { name: 'Lay out' }).click();
    await page().waitForTimeout(300);
    await screenshot(page(), 'bots-done-graph');

    // What was saved is the bot as drawn.
    const saved = (await (await page().request.get(`${app.base}/api/app/automations/${automationId}`)).json())
      .automation.draft;
    expect(saved.trigger).toEqual({ type: 'message_received', keywords: ['menu'] });
    expect(saved.steps.map((s: { id: string; type: string }) => `${s.id}:${s.type}`)).toEqual([
      'step_1:ask',
      'step_2:send_text',
      'step_3:ask',
      'step_4:http_request',
      'step_5:send_text',
      'step_6:assign',
      'step_7:send_text',
    ]);
    expect(saved.steps[2]).toMatchObject({
      expect: 'number',
      attempts: 2,
      timeout: '5s',
      on_invalid: 'step_6',
      on_timeout: 'step_7',
      save_to: 'vars.order',
    });
  });

  /** Keyword, Hours (the loop back), Track order, a wrong number (the retry), the right one: each message checked as it lands. */
  async function walkToLookup(phone: string, name: string, keyword: string, order: string) {
    await says(phone, name, keyword);
    expect(await sentCount(phone, 1)).toEqual([QUESTION]);
    await tapButton(phone, name, 'Hours');
    // The hours, then the menu again: the loop.
    expect(await sentCount(phone, 3)).toEqual([QUESTION, HOURS, QUESTION]);
    await tapButton(phone, name, 'Track order');
    expect((await sentCount(phone, 4)).at(-1)).toBe(NUMBER);
    await says(phone, name, 'abc');
    expect((await sentCount(phone, 5)).at(-1)).toBe(RETRY);
    await says(phone, name, order);
    expect(await sentCount(phone, 6)).toEqual([
      QUESTION,
      HOURS,
      QUESTION,
      NUMBER,
      RETRY,
      `Order ${order} is shipped.`,
    ]);
  }

  it('the menu loops back, a wrong order number is asked again, and the lookup’s answer is sent back', async () => {
    const phone = '919811123001';
    await walkToLookup(phone, 'Ravi Kumar', ' Menu! ', '1234');
    expect(lookups).toEqual(['GET /orders/1234']);
    await until(async () => (await runsOf(phone))[0]?.status === 'completed');
  });

  it('try it: the published bot answers the teammate’s test customer, and its buttons reply', async () => {
    await page().getByLabel('Message as the customer').fill('menu');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    await page()
      .locator('.tryit-message.bot', { hasText: 'What can we do for you?' })
      .waitFor({ timeout: 20_000 });
    await page().locator('.tryit-message.bot').getByRole('button', { name: 'Hours' }).last().click();
    await page().locator('.tryit-message.bot', { hasText: HOURS }).waitFor({ timeout: 20_000 });
    await expect
      .poll(() => page().locator('.tryit-message.bot', { hasText: 'What can we do for you?' }).count(), {
        timeout: 20_000,
      })
      .toBe(2);
  });

  it('a customer who does not answer in time takes the timeout branch', async () => {
    const phone = '919811123002';
    await says(phone, 'Sara Iyer', 'menu');
    await sentCount(phone, 1);
    await tapButton(phone, 'Sara Iyer', 'Track order');
    await sentCount(phone, 2);
    expect(await sentCount(phone, 3, 30_000)).toEqual([QUESTION, NUMBER, TIMED_OUT]);
    // Counted from the question: the network took the timeout's message 5 seconds or more after it.
    const { messages } = (await app.sim('GET', `/messages?to=${phone}`)) as {
      messages: { receivedAt: number }[];
    };
    const [timedOut, asked] = messages.map((m) => m.receivedAt);
    expect(timedOut! - asked!).toBeGreaterThanOrEqual(5_000);
    await until(async () => (await runsOf(phone))[0]?.status === 'completed');
  });

  it('“Talk to us” hands the conversation to the teammate, and the bot lets go', async () => {
    const phone = '919811123003';
    await says(phone, 'Chen Li', 'menu');
    await sentCount(phone, 1);
    await tapButton(phone, 'Chen Li', 'Talk to us');
    await until(async () => (await runsOf(phone))[0]?.status === 'completed');
    expect(await sent(phone)).toEqual([QUESTION]);
    await openInbox('Chen Li');
    await expect
      .poll(() => page().getByLabel('Assigned to').locator('option:checked').textContent())
      .toBe('Asha Rao');
    // The list reads the customer's tap, the last message, after the bot's question, and shows who holds the conversation.
    const row = page().getByRole('link', { name: /Chen Li/ });
    await row.getByText('Talk to us').waitFor();
    await row.getByText('→ Asha Rao').waitFor();
    // The bot let go: no banner says a bot answers.
    expect(await page().locator('.bot-answering').count()).toBe(0);
    expect(await conversationOf(phone)).toMatchObject({ assignee_name: 'Asha Rao', bot: null });
  });

  it('two invalid order numbers take the invalid branch: the handoff', async () => {
    const phone = '919811123004';
    await says(phone, 'Noor Khan', 'menu');
    await sentCount(phone, 1);
    await tapButton(phone, 'Noor Khan', 'Track order');
    await sentCount(phone, 2);
    await says(phone, 'Noor Khan', 'abc');
    await sentCount(phone, 3);
    await says(phone, 'Noor Khan', 'still not a number');
    await until(async () => (await runsOf(phone))[0]?.status === 'completed');
    expect(await sent(phone)).toEqual([QUESTION, NUMBER, RETRY]);
    expect(await conversationOf(phone)).toMatchObject({ assignee_name: 'Asha Rao', bot: null });
    const run = (await runsOf(phone))[0]!;
    const steps = (await (await page().request.get(`${app.base}/api/app/runs/${run.id}`)).json()).run
      .steps as {
      step_id: string;
      outcome: Record<string, unknown>;
    }[];
    expect(steps.find((s) => s.step_id === 'step_3')?.outcome).toMatchObject({ invalid: true, attempts: 2 });
    expect(steps.map((s) => s.step_id)).toContain('step_6');
  });

  it('a teammate’s reply in the inbox stops the bot; the customer’s next message gets no bot reply', async () => {
    const phone = '919811123005';
    await says(phone, 'Dev Patel', 'menu');
    await sentCount(phone, 1);
    await tapButton(phone, 'Dev Patel', 'Track order');
    await sentCount(phone, 2);
    await until(async () => (await runsOf(phone))[0]?.status === 'waiting');

    await openInbox('Dev Patel');
    const banner = page().locator('.bot-answering');
    await banner.waitFor();
    expect(await banner.textContent()).toContain(
      'The bot Shop bot is answering and waits for the customer’s reply',
    );
    await screenshot(page(), 'bots-done-inbox-banner');
    await page().getByLabel('Reply').fill('Hi Dev, I will look it up for you.');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    await page().locator('.bubble.outbound', { hasText: 'I will look it up' }).waitFor();
    await banner.waitFor({ state: 'detached' });

    const [run] = await until(async () => {
      const runs = await runsOf(phone);
      return runs[0]?.status === 'stopped' && runs;
    });
    expect(run!.error).toBe('a teammate replied');
    // The runs page says so.
    await page().goto(`${app.base}/runs?status=stopped`);
    await page().locator('tr', { hasText: 'Dev Patel' }).getByText(run!.error!).waitFor();

    // The customer answers the question the bot asked: stored, and no run takes it or starts.
    await says(phone, 'Dev Patel', '1234');
    await until(async () => {
      const res = await page().request.get(`${app.base}/api/app/conversations/${run!.contact_id}`);
      const messages = (await res.json()).messages as { direction: string; text: string | null }[];
      return messages.some((m) => m.direction === 'inbound' && m.text === '1234');
    });
    expect((await runsOf(phone)).map((r) => r.status)).toEqual(['stopped']);
    expect(await sent(phone)).toEqual([QUESTION, NUMBER, 'Hi Dev, I will look it up for you.']);
    expect(lookups).toEqual(['GET /orders/1234']);
  });

  it('the same bot created through POST /api/v1/automations behaves the same', async () => {
    const draft = (await (await page().request.get(`${app.base}/api/app/automations/${automationId}`)).json())
      .automation.draft;
    const res = await fetch(`${app.base}/api/v1/automations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        ...draft,
        name: 'Shop bot by API',
        trigger: { ...draft.trigger, keywords: ['shop'] },
        published: true,
      }),
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; kind: string; published: boolean };
    expect(created).toMatchObject({ kind: 'flow', published: true });

    // The menu, its loop, the retry and the lookup: the same messages as the app's bot sent.
    const phone = '919811123006';
    await walkToLookup(phone, 'Lena Roy', 'shop', '77');
    expect(lookups.at(-1)).toBe('GET /orders/77');
    const [run] = await until(async () => {
      const runs = await runsOf(phone);
      return runs[0]?.status === 'completed' && runs;
    });
    expect(run!.automation_id).toBe(created.id);

    // The handoff, the same.
    const other = '919811123007';
    await says(other, 'Omar Aziz', 'shop');
    await sentCount(other, 1);
    await tapButton(other, 'Omar Aziz', 'Talk to us');
    await until(async () => (await runsOf(other))[0]?.status === 'completed');
    expect(await conversationOf(other)).toMatchObject({ assignee_name: 'Asha Rao', bot: null });
  });
});
