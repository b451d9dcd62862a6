import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium } from './support/browser.js';
import { until } from './support/until.js';

// The web app's data layer (web/src/api.ts): a page shows what a save changed without being
// reloaded, and a page visited again within the cache's freshness asks the server nothing.
describe.skipIf(!hasChromium)('the query cache in a browser', { timeout: 120_000 }, () => {
  const app = appInBrowserForTests();
  let page: Page;
  const gets: string[] = [];
  let inFlight = 0;
  const count = (path: string) => gets.filter((p) => p === path).length;
  // Counted once the page is quiet: what sign-up fetched, and any refresh of it, has landed.
  const settled = async (path: string) => {
    await until(() => inFlight === 0);
    return count(path);
  };
  const tab = (name: string) => page.getByRole('tab', { name, exact: true }).click();

  beforeAll(async () => {
    ({ page } = app);
    // The live event stream (/api/app/events) stays open: it is never "in flight" to wait for.
    const ours = (r: Request) => {
      const path = new URL(r.url()).pathname;
      return path.startsWith('/api/app/') && path !== '/api/app/events';
    };
    page.on('request', (r) => {
      if (!ours(r)) return;
      inFlight++;
      if (r.method() === 'GET') gets.push(new URL(r.url()).pathname.slice(8));
    });
    const done = (r: Request) => {
      if (ours(r)) inFlight--;
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    await app.signUp();
  }, 90_000);

  it('shows a saved workspace name on coming back to the tab, from the cache refreshed by the save', async () => {
    await tab('General');
    const name = page.getByLabel('Workspace name', { exact: true });
    await expect.poll(() => name.inputValue()).toBe('Acme Foods');
    const before = await settled('/workspace');

    await name.fill('Acme Kitchens');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Acme Kitchens · you are owner').waitFor();
    // The save marked /workspace stale: the tab on screen fetched it again, once.
    await until(() => count('/workspace') === before + 1);

    await tab('Team');
    await page.getByRole('cell', { name: 'asha@example.com' }).waitFor();
    await tab('General');
    await expect
      .poll(() => page.getByLabel('Workspace name', { exact: true }).inputValue())
      .toBe('Acme Kitchens');
    expect(await settled('/workspace')).toBe(before + 1);
  });

  it('lists a new API key at once, without asking for the page again', async () => {
    await tab('Developer');
    await page.getByLabel('Key name').fill('Second');
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByRole('cell', { name: 'Second' }).waitFor();
  });

  it('answers a second visit within the freshness from the cache: no second GET', async () => {
    await tab('Plan & usage');
    await page.getByText('Messages this month').waitFor();
    const before = await settled('/usage');
    expect(before).toBeGreaterThan(0);
    await tab('General');
    await tab('Plan & usage');
    await page.getByText('Messages this month').waitFor();
    await page.locator('nav').getByRole('link', { name: 'Templates', exact: true }).click();
    await page.getByRole('heading', { name: 'Templates' }).waitFor();
    await page.locator('nav').getByRole('link', { name: 'Settings', exact: true }).click();
    await tab('Plan & usage');
    await page.getByText('Messages this month').waitFor();
    expect(await settled('/usage')).toBe(before);
  });

  it("forgets one workspace's answers on moving to another", async () => {
    const name = page.getByLabel('Workspace name', { exact: true });
    await tab('General');
    await expect.poll(() => name.inputValue()).toBe('Acme Kitchens');
    // Creating a workspace moves the session into it: Acme's cached answer, still fresh, must go.
    await page.getByLabel('New workspace name').fill('Beta Bakery');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByText('Beta Bakery · you are owner').waitFor();
    await expect.poll(() => name.inputValue()).toBe('Beta Bakery');

    await page.getByRole('combobox', { name: /^Workspace/ }).selectOption({ label: 'Acme Kitchens' });
    await page.getByRole('heading', { name: 'Welcome, Asha Rao' }).waitFor();
    await page.locator('nav').getByRole('link', { name: 'Settings', exact: true }).click();
    await tab('General');
    await expect.poll(() => name.inputValue()).toBe('Acme Kitchens');
  });
});
