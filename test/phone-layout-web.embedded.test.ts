import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';

const CUSTOMER = '919812345670';
const LONG_URL = `https://shop.example/track?order=${'A1b2C3d4'.repeat(20)}`;

// A 390 px phone: no page wider than the screen, long words kept inside their bubble, the condition
// step's fields inside their card, and a tab title that names the page.
describe.skipIf(!hasChromium)('the web app on a 390 px phone', { timeout: 150_000 }, () => {
  const running = appInBrowserForTests({ viewport: { width: 390, height: 844 } });
  let page: Page;
  let base: string;

  beforeAll(async () => {
    ({ base, page } = running);
    const app = await running.setUpByApi();
    await app('POST', '/invitations', {
      email: 'a-rather-long-address-of-a-teammate@example.com',
      role: 'admin',
    });
    await running.sim('POST', '/inbound', {
      from: CUSTOMER,
      name: 'Ravi',
      message: { type: 'text', text: { body: `Where is my order? ${LONG_URL}` } },
    });
  }, 120_000);

  // A string, evaluated in the page: this project's TypeScript has no DOM types.
  const overflow = () =>
    page.evaluate(
      '({ scroll: document.scrollingElement.scrollWidth, width: window.innerWidth })',
    ) as Promise<{ scroll: number; width: number }>;

  const PAGES: [string, string][] = [
    ['/', 'Home · Parley'],
    ['/contacts', 'Contacts · Parley'],
    ['/leads', 'Leads · Parley'],
    ['/messages', 'Inbox · Parley'],
    ['/templates', 'Templates · Parley'],
    ['/templates/new', 'Templates · Parley'],
    ['/forms', 'Forms · Parley'],
    ['/flows', 'Flows · Parley'],
    ['/flows/new', 'Flows · Parley'],
    ['/sequences', 'Sequences · Parley'],
    ['/settings/general', 'Settings · Parley'],
    ['/settings/team', 'Settings · Parley'],
    ['/settings/number', 'Settings · Parley'],
    ['/settings/developer', 'Settings · Parley'],
    ['/settings/plan', 'Settings · Parley'],
    ['/no-such-page', 'Nothing here · Parley'],
  ];

  it.each(PAGES)('%s fits the screen and is titled %j', async (path, title) => {
    await page.goto(`${base}${path}`);
    await page.locator('main h1, main h3').first().waitFor();
    await page
      .locator('.loading')
      .first()
      .waitFor({ state: 'detached' })
      .catch(() => {});
    // An unread count may come first: "(1) Home · Parley" (the inbox's; the seeded customer wrote).
    await expect.poll(async () => (await page.title()).replace(/^\(\d+\+?\) /, '')).toBe(title);
    const { scroll, width } = await overflow();
    if (scroll > width) await screenshot(page, `phone-overflow${path.replaceAll('/', '-')}`);
    expect(scroll, `${path} is ${scroll} px wide on a ${width} px screen`).toBeLessThanOrEqual(width);
  });

  it('keeps a long URL inside its bubble', async () => {
    await page.goto(`${base}/messages`);
    await page.getByRole('link', { name: /Ravi/ }).first().click();
    const bubble = page.locator('.bubble.inbound', { hasText: 'Where is my order?' }).first();
    await bubble.waitFor();
    const box = (await bubble.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // The thread scrolls sideways by itself, so a word running out of its bubble widens no page: measure the bubble.
    const fit = (await page.evaluate(`(() => {
      const b = [...document.querySelectorAll('.bubble.inbound')].find((e) => e.textContent.includes('Where is my order?'));
      return { scroll: b.scrollWidth, client: b.clientWidth };
    })()`)) as { scroll: number; client: number };
    expect(fit.scroll).toBeLessThanOrEqual(fit.client);
    const { scroll, width } = await overflow();
    expect(scroll).toBeLessThanOrEqual(width);
    await screenshot(page, 'phone-conversation');
  });

  it.each([390, 1024])("keeps the condition step's fields inside their card at %i px", async (screen) => {
    await page.setViewportSize({ width: screen, height: 844 });
    await page.goto(`${base}/flows/new`);
    await page.getByRole('button', { name: /Condition/ }).click();
    await page.getByLabel('Check').waitFor();
    const card = page.locator('.step-card').last();
    const cardBox = (await card.boundingBox())!;
    for (const field of await card.locator('input, select').all()) {
      const box = (await field.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(cardBox.x);
      expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width + 0.5);
    }
    const { scroll, width } = await overflow();
    expect(scroll).toBeLessThanOrEqual(width);
    await screenshot(page, `flow-condition-${screen}`);
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it('lets the keyboard reach a table that scrolls sideways', async () => {
    await page.goto(`${base}/settings/team`);
    const region = page.getByRole('region', { name: 'Members' });
    // Chromium lets the keyboard into any scroller by itself; other browsers need the tabindex.
    expect(await region.getAttribute('tabindex')).toBe('0');
    await region.focus();
    expect(await page.evaluate('document.activeElement.getAttribute("aria-label")')).toBe('Members');
  });
});
