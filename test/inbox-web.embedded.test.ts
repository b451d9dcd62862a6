import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';
import { jpeg } from './support/media-files.js';

const CUSTOMER = '919811122233';

// Issue 18's "Done when", inbox part: a customer writes, the message appears live with an unread
// count (list, sidebar, tab title), a teammate is assigned, replies with a quick reply and an
// attachment under their own name, and resolves the conversation.
describe.skipIf(!hasChromium)('the inbox in the browser', { timeout: 120_000 }, () => {
  const running = appInBrowserForTests();
  let page: Page;

  beforeAll(async () => {
    page = running.page;
    await running.signUp();
  });

  const nav = () => page.locator('nav').getByRole('link', { name: 'Inbox' });
  const row = () => page.getByRole('link', { name: /Meera Shah/ });

  it('saves a quick reply with a variable', async () => {
    await nav().click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    await page.getByRole('button', { name: 'Manage quick replies' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage quick replies' });
    await dialog.getByLabel('Title').fill('Thanks');
    await dialog.getByLabel('Text').fill('Thanks {{nmae}}');
    await dialog.getByRole('button', { name: 'Add quick reply' }).click();
    await dialog.getByText('{{nmae}} is not a variable').waitFor();
    await dialog.getByLabel('Text').fill('Thanks {{first_name}}, we are on it.');
    await dialog.getByRole('button', { name: 'Add quick reply' }).click();
    await dialog.getByText('Thanks {{first_name}}, we are on it.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('shows a customer message live, with unread counts in the list, the sidebar and the tab title', async () => {
    await page.getByText('No open conversations').waitFor();
    const before = await page.title();
    await running.sim('POST', '/inbound', {
      from: CUSTOMER,
      name: 'Meera Shah',
      text: 'Do you deliver to Colaba?',
    });
    // No reload: the stream brings it.
    await row().waitFor({ timeout: 5_000 });
    await row().getByText('Do you deliver to Colaba?').waitFor();
    await row().getByText('1 unread').waitFor();
    await nav().locator('.nav-badge').getByText('1').waitFor();
    await expect.poll(() => page.title()).toBe(`(1) ${before}`);
    await screenshot(page, 'inbox-01-unread');
    await row().click();
    await page.locator('.bubble.inbound', { hasText: 'Do you deliver to Colaba?' }).waitFor();
    // Opened: read by the team.
    await expect.poll(() => page.title()).toBe(before);
    expect(await nav().locator('.nav-badge').count()).toBe(0);
    // A customer's message carries no status of its own ("read" would read as a teammate's).
    expect(await page.locator('.bubble.inbound .status-read').count()).toBe(0);
  });

  it('assigns the conversation, replies with a quick reply and an attachment, and resolves it', async () => {
    await page.getByLabel('Assigned to').selectOption({ label: 'Asha Rao' });
    await row().getByText('→ Asha Rao').waitFor();
    await page.getByRole('button', { name: 'Quick replies', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Quick replies', exact: true })
      .getByRole('button', { name: /Thanks/ })
      .click();
    await expect.poll(() => page.getByLabel('Reply').inputValue()).toBe('Thanks Meera, we are on it.');
    await page.getByRole('button', { name: /Emoji/ }).click();
    await page.getByRole('button', { name: 'thumbs up' }).click();
    await expect.poll(() => page.getByLabel('Reply').inputValue()).toBe('Thanks Meera, we are on it.👍');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const reply = page.locator('.bubble.outbound', { hasText: 'Thanks Meera, we are on it.👍' });
    await reply.waitFor();
    await reply.getByText('Asha Rao').waitFor();

    await page
      .getByLabel('Attachment')
      .setInputFiles({ name: 'menu.jpg', mimeType: 'image/jpeg', buffer: jpeg() });
    await page.getByText('📎 menu.jpg').waitFor();
    await page.getByLabel('Reply').fill('Our menu');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('.bubble.outbound', { hasText: 'Our menu' }).getByText('Asha Rao').waitFor();
    const sent = (await running.sim('GET', `/messages?to=${CUSTOMER}`)) as {
      messages: { payload: { type: string; image?: { caption?: string } } }[];
    };
    // The simulator lists what it was sent, newest first.
    expect(sent.messages.map((m) => m.payload.type)).toEqual(['image', 'text']);
    expect(sent.messages[0]!.payload.image?.caption).toBe('Our menu');

    await page.getByRole('tab', { name: 'Internal note' }).click();
    await page.getByLabel('Note').fill('Prefers mornings');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page
      .locator('.bubble.note', { hasText: 'Prefers mornings' })
      .getByText(/Internal note · Asha Rao/)
      .waitFor();
    await screenshot(page, 'inbox-02-thread');

    await page.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => page.getByLabel('State').inputValue()).toBe('resolved');
    // The "Open" list no longer holds it; "All" does, marked resolved.
    await expect.poll(() => row().count()).toBe(0);
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await row().getByText('Resolved').waitFor();
    // The customer writes again: it opens and comes back, live.
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await running.sim('POST', '/inbound', { from: CUSTOMER, name: 'Meera Shah', text: 'One more question' });
    // The inbox never polls: the row can only change through the live stream. About a second on a
    // quiet machine (the stream's read and the page's reload at most once a second); 5 s ran out on a
    // loaded CI run.
    await row().getByText('One more question').waitFor({ timeout: 15_000 });
    await page.setViewportSize({ width: 390, height: 800 });
    await screenshot(page, 'inbox-03-phone');
  });
});
