import { describe, expect, it, vi } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';

// The bot builder: a keyword bot drawn as a graph (React Flow), its problems beside its steps in plain
// words, and the try-it chat through the simulator.
describe.skipIf(!hasChromium)('the bot builder', { timeout: 180_000 }, () => {
  const app = appInBrowserForTests({ viewport: { width: 1440, height: 1000 } });
  const page = () => app.page;
  const node = (id: string) => page().locator(`.react-flow__node[data-id="${id}"]`);
  const edgeLabels = () => page().locator('.react-flow__edge-text').allTextContents();
  const addStep = (label: string) => page().locator('.add-step-btn', { hasText: label }).click();
  const card = (id: string) => page().locator(`li[data-step="${id}"]`);
  /** A link's select in a step's card, by its label ("Then", "When the answers stay invalid"). */
  const link = (id: string, label: string) =>
    card(id)
      .locator('label.field')
      .filter({ has: page().locator('span', { hasText: new RegExp(`^${label}$`) }) })
      .locator('select');

  it('signs up and connects the simulator', async () => {
    expect(await app.signUp()).toMatch(/^pk_live_/);
  });

  it('builds a keyword bot in the graph: nodes, labelled edges, a loop, problems in words at their node, and try it', async () => {
    await page().locator('nav').getByRole('link', { name: 'Flows', exact: true }).click();
    await page().getByRole('link', { name: 'New flow' }).first().click();
    await page().getByLabel('Name', { exact: true }).fill('Shop bot');
    await page().getByLabel('Starts when').selectOption({ label: 'a customer writes' });
    await page().getByLabel('Keywords (optional)').fill('menu');
    await expect.poll(() => node('@trigger').textContent()).toContain('A customer writes a message “menu”');

    await addStep('Ask a question');
    await page().getByLabel('Answers', { exact: true }).selectOption({ label: 'Reply buttons (up to 3)' });
    await page().getByLabel('Button 1', { exact: true }).fill('Track order');
    await page().getByRole('button', { name: 'Add a button' }).click();
    await page().getByLabel('Button 2', { exact: true }).fill('Talk to us');
    await addStep('Send text');
    await card('step_2').locator('textarea').fill('Your order is on its way.');
    // Back to the menu: a loop the ask waits in.
    await link('step_2', 'Then').selectOption({ label: 'Go to step_1 (Ask a question)' });
    await addStep('Hand to a teammate');

    // A node's button opens its step in the side panel, by mouse or by keyboard.
    await node('step_1').getByRole('button').first().focus();
    await page().keyboard.press('Enter');
    await expect.poll(() => card('step_1').locator('.step-head').getAttribute('aria-expanded')).toBe('true');
    await page().getByLabel('Button 1 leads to').selectOption({ label: 'Go to step_2' });
    await page().getByLabel('Button 2 leads to').selectOption({ label: 'Go to step_3' });

    // The nodes and every link, labelled: the options, the implicit next, the loop back.
    expect(await page().locator('.react-flow__node').count()).toBe(4);
    await expect.poll(edgeLabels).toEqual(expect.arrayContaining(['Track order', 'Talk to us', '↺ then']));
    expect(await page().locator('.react-flow__edge.flow-edge-loop').count()).toBe(1);
    expect(await node('step_1').locator('.flow-exit').allTextContents()).toEqual([
      'Track order',
      'Talk to us',
      'other answers',
      'invalid',
      'timeout',
      'window closed',
    ]);

    // Dragging from the question's "invalid" handle to the handoff links them; cutting the link unlinks.
    await page().getByRole('button', { name: 'Lay out' }).click();
    await page().waitForTimeout(300);
    await screenshot(page(), 'bot-builder-graph');
    const from = await node('step_1')
      .locator('.react-flow__handle[data-handleid="on_invalid"]')
      .boundingBox();
    const to = await node('step_3').locator('.react-flow__handle.target').boundingBox();
    await page().mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
    await page().mouse.down();
    await page().mouse.move(to!.x + to!.width / 2, to!.y + to!.height / 2, { steps: 12 });
    await page().mouse.up();
    await expect.poll(edgeLabels).toContain('invalid');
    await expect.poll(() => link('step_1', 'When the answers stay invalid').inputValue()).toBe('step_3');
    await page()
      .locator('.react-flow__edge', { has: page().locator('text=invalid') })
      .click({ force: true });
    await page().getByRole('button', { name: 'Cut the selected link' }).click();
    await expect.poll(edgeLabels).not.toContain('invalid');
    await page().getByRole('button', { name: 'Lay out' }).click();

    // Renaming a step (its placeholders read the id): the links to it follow, in the graph too.
    await node('step_3').getByRole('button').first().click();
    const stepId = card('step_3').getByLabel(/^Step id/);
    await stepId.fill('step 3');
    await card('step_3')
      .locator('.field-error', { hasText: 'Use 1 to 40 letters, digits, _ or -.' })
      .waitFor();
    await stepId.fill('handoff');
    await stepId.press('Enter');
    await node('handoff').waitFor();
    await page().locator('[data-testid="rf__edge-step_1:option:buttons.1>handoff"]').waitFor();
    await node('step_1').getByRole('button').first().click();
    await expect.poll(() => card('step_1').locator('.step-head').getAttribute('aria-expanded')).toBe('true');

    // The question is empty: named on its node and under its field, in words, before anything is sent.
    await page().getByRole('button', { name: 'Publish' }).click();
    await node('step_1').locator('.flow-badge', { hasText: '1 problem' }).waitFor();
    expect(await node('step_1').locator('.flow-node-problems').textContent()).toBe(
      'The question: Write the question to ask.',
    );
    await card('step_1').locator('.field-error', { hasText: 'Write the question to ask.' }).waitFor();
    expect(await page().locator('body').textContent()).not.toContain('invalid definition');
    await screenshot(page(), 'bot-builder');
    // Fixed as it is typed: the badge and the sentence go.
    await page().getByLabel('Question').fill('What can we do for you?');
    await expect.poll(() => node('step_1').locator('.flow-badge').count()).toBe(0);
    expect(await card('step_1').locator('.field-error').count()).toBe(0);

    // Try it: the customer's message reaches the number through the simulator and shows in the chat.
    await page().getByLabel('Message as the customer').fill('hello there');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    await page().locator('.tryit-message.customer', { hasText: 'hello there' }).waitFor();
    expect(await page().locator('.tryit-messages').textContent()).toContain('hello there');
  });

  it("shows a problem the server finds on its step's node and beside its field, not the joined sentence", async () => {
    await page().locator('nav').getByRole('link', { name: 'Flows', exact: true }).click();
    await page().getByRole('link', { name: 'New flow' }).first().click();
    await page().getByLabel('Name', { exact: true }).fill('Plan check');
    await page().getByLabel('When this event is tracked').fill('signup');
    await addStep('Condition');
    await card('step_1').locator('input').first().fill('');
    await page().getByRole('button', { name: 'Save draft' }).click();
    await node('step_1')
      .locator('.flow-node-problems', { hasText: 'The field checked: Fill this in.' })
      .waitFor();
    await node('step_1').locator('.flow-badge').waitFor();
    await card('step_1').locator('.field-error', { hasText: 'Fill this in.' }).first().waitFor();
    expect(await page().locator('body').textContent()).not.toContain('invalid definition');
    expect(await page().locator('[role="alert"]').textContent()).toContain('see the marked step');
  });

  it('saves and publishes the bot, shows a problem only the server finds, and chats with it in try it', async () => {
    await page().locator('nav').getByRole('link', { name: 'Flows', exact: true }).click();
    await page().getByRole('link', { name: 'New flow' }).first().click();
    await page().getByLabel('Name', { exact: true }).fill('Menu bot');
    await page().getByLabel('Starts when').selectOption({ label: 'a customer writes' });
    await page().getByLabel('Keywords (optional)').fill('menu');
    await addStep('Ask a question');
    await page().getByLabel('Question').fill('What can we do for you?');
    await page().getByLabel('Answers', { exact: true }).selectOption({ label: 'Reply buttons (up to 3)' });
    await page().getByLabel('Button 1', { exact: true }).fill('Track order');
    await page().getByRole('button', { name: 'Add a button' }).click();
    await page().getByLabel('Button 2', { exact: true }).fill('Talk to us');
    await page().getByLabel('Wait for the answer (optional)').fill('ten minutes');
    await addStep('Send text');
    await card('step_2').locator('textarea').fill('Your order is on its way.');
    await link('step_2', 'Then').selectOption({ label: 'Go to step_1 (Ask a question)' });
    await addStep('Hand to a teammate');
    // The view fits the graph again a moment after a step is added; a click in that moment lands beside.
    await vi.waitFor(
      async () => {
        await node('step_1').getByRole('button').first().click();
        await page().getByLabel('Button 1 leads to').waitFor({ timeout: 2_000 });
      },
      { timeout: 20_000 },
    );
    await page().getByLabel('Button 1 leads to').selectOption({ label: 'Go to step_2' });
    await page().getByLabel('Button 2 leads to').selectOption({ label: 'Go to step_3' });

    // The timeout's form is the server's to judge: its sentence lands on the question's node.
    await page().getByRole('button', { name: 'Publish' }).click();
    await node('step_1').locator('.flow-node-problems', { hasText: 'The timeout:' }).waitFor();
    await card('step_1').locator('.field-error').first().waitFor();
    expect(await page().locator('body').textContent()).not.toContain('invalid definition');

    await page().getByLabel('Wait for the answer (optional)').fill('10m');
    await page().getByRole('button', { name: 'Publish' }).click();
    await page().locator('.badge', { hasText: 'published' }).waitFor();

    await page().getByLabel('Message as the customer').fill('Menu!');
    await page().getByRole('button', { name: 'Send', exact: true }).click();
    await page()
      .locator('.tryit-message.bot', { hasText: 'What can we do for you?' })
      .waitFor({ timeout: 30_000 });
    await page().locator('.tryit-message.bot').getByRole('button', { name: 'Track order' }).last().click();
    await page().locator('.tryit-message.customer', { hasText: 'Track order' }).waitFor();
    await page()
      .locator('.tryit-message.bot', { hasText: 'Your order is on its way.' })
      .waitFor({ timeout: 30_000 });
    // The loop: the menu is asked again.
    await expect
      .poll(() => page().locator('.tryit-message.bot', { hasText: 'What can we do for you?' }).count(), {
        timeout: 30_000,
      })
      .toBe(2);
  });
});
