import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium } from './support/browser.js';

interface Shown {
  title: string;
  body?: string;
  tag?: string;
}

// The page's globals this file reads (the tests compile without the DOM's types).
declare const window: { shownNotifications: Shown[]; setTabHidden(hidden: boolean): void };

// Run before the app's scripts: every Notification made is recorded, and the tab's visibility is the
// test's to set (a headless page is always visible). Page code, so a string.
const RECORD_NOTIFICATIONS = `(() => {
  window.shownNotifications = [];
  let hidden = false;
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(Document.prototype, 'visibilityState', {
    configurable: true,
    get: () => (hidden ? 'hidden' : 'visible'),
  });
  window.setTabHidden = (value) => {
    hidden = value;
    document.dispatchEvent(new Event('visibilitychange'));
  };
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) {
      window.shownNotifications.push({ title, body: options?.body, tag: options?.tag });
      super(title, options);
    }
  };
})();`;

// Issue 18's inbox: "Notify me" asks for the browser's permission; once given, a customer message
// arriving while the tab is hidden is shown as a notification, and only then.
describe.skipIf(!hasChromium)('inbox notifications in the browser', { timeout: 120_000 }, () => {
  const running = appInBrowserForTests();
  let page: Page;
  let n = 0;

  beforeAll(async () => {
    page = running.page;
    await running.setUpByApi();
    await page.addInitScript({ content: RECORD_NOTIFICATIONS });
    await page.goto(`${running.base}/messages`);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
  });

  /** A customer writes; resolves once the open inbox lists it (its live event has arrived). */
  const customerWrites = async (name: string) => {
    const text = `Question ${++n} from ${name}`;
    const from = `9198111${String(10_000 + n)}`;
    await running.sim('POST', '/inbound', { from, name, text });
    await page
      .getByRole('link', { name: new RegExp(name) })
      .getByText(text)
      .waitFor({ timeout: 5_000 });
  };
  const shown = () => page.evaluate(() => window.shownNotifications);

  it('shows none before the teammate opts in, even with the tab hidden', async () => {
    await page.getByRole('button', { name: 'Notify me' }).waitFor();
    await page.evaluate(() => window.setTabHidden(true));
    await customerWrites('Meera Shah');
    expect(await shown()).toEqual([]);
  });

  it('shows one for a customer message once allowed, while the tab is hidden', async () => {
    await page.evaluate(() => window.setTabHidden(false));
    await page.context().grantPermissions(['notifications'], { origin: running.base });
    await page.getByRole('button', { name: 'Notify me' }).click();
    await page.getByRole('button', { name: 'Notify me' }).waitFor({ state: 'detached' });
    await page.evaluate(() => window.setTabHidden(true));
    await customerWrites('Ravi Kumar');
    const { contacts } = (await (
      await page.request.get(`${running.base}/api/app/contacts?q=Ravi`)
    ).json()) as {
      contacts: { id: string }[];
    };
    await expect
      .poll(shown)
      .toEqual([{ title: 'New customer message', body: 'Open the inbox to read it', tag: contacts[0]!.id }]);
  });

  it('shows none while the tab is visible', async () => {
    await page.evaluate(() => window.setTabHidden(false));
    await customerWrites('Asha Iyer');
    expect(await shown()).toHaveLength(1);
  });
});
