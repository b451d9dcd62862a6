import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeProblems } from './support/axe.js';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';
import { until } from './support/until.js';

type Row = { contact_id: string; name: string; state: string; labels: { name: string }[] };

// Issue 32's "Done when", labels part: a team labels conversations, filters by a label, selects
// all shown and resolves them at once, snoozes one out of the open list and saves a view.
describe.skipIf(!hasChromium)(
  'labels, snooze, bulk actions and saved views in the browser',
  { timeout: 180_000 },
  () => {
    const running = appInBrowserForTests();
    let page: Page;
    let app: Awaited<ReturnType<typeof running.setUpByApi>>;
    const inbox = async (query: string) =>
      ((await app('GET', `/inbox?${query}`)).conversations as Row[]) ?? [];

    beforeAll(async () => {
      page = running.page;
      app = await running.setUpByApi();
      let n = 0;
      for (const name of ['Ravi Kumar', 'Priya Nair', 'Kiran Rao'])
        await running.sim('POST', '/inbound', {
          from: `9198222${String(10_000 + ++n)}`,
          name,
          text: `Hello from ${name}`,
        });
      await until(async () => (await inbox('filter=open')).length === 3);
      await page.goto(`${running.base}/messages`);
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    });

    const row = (name: string) => page.getByRole('link', { name: new RegExp(name) });

    it('creates a label in the labels manager, refusing a name in use in plain words', async () => {
      await page.getByRole('button', { name: 'Labels', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Labels' });
      await dialog.getByLabel('New label').fill('VIP');
      await dialog.getByLabel('Colour', { exact: true }).selectOption({ label: 'Purple' });
      await dialog.getByRole('button', { name: 'Create' }).click();
      await dialog.getByLabel('Name of VIP').waitFor();
      await dialog.getByLabel('New label').fill('vip');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await dialog.getByText('A label of that name exists already; choose another name.').waitFor();
      expect(await axeProblems(page, 'labels manager')).toEqual([]);
      await screenshot(page, 'inbox-labels-01-manager');
      await dialog.getByRole('button', { name: 'Close' }).click();
    });

    it('labels two conversations from their header and filters the inbox by the label', async () => {
      for (const name of ['Ravi Kumar', 'Priya Nair']) {
        await row(name).click();
        await page.getByRole('heading', { name }).waitFor();
        await page.getByLabel('Add a label').selectOption({ label: 'VIP' });
        await page.locator('.conversation-labels').getByText('VIP').waitFor();
        await row(name).locator('.label-chip', { hasText: 'VIP' }).waitFor();
      }
      await page.getByLabel('Label', { exact: true }).selectOption({ label: 'VIP' });
      await expect.poll(() => page.locator('.conversation-list li').count()).toBe(2);
      expect(await row('Kiran Rao').count()).toBe(0);
    });

    it('bulk-resolves a filtered set', async () => {
      await page.getByLabel('Select all shown').check();
      const bar = page.getByRole('region', { name: 'Bulk actions' });
      await bar.getByText('2 conversations selected').waitFor();
      await bar.getByRole('button', { name: 'Resolve', exact: true }).click();
      expect(await axeProblems(page, 'bulk bar')).toEqual([]);
      await screenshot(page, 'inbox-labels-02-bulk');
      await bar.getByRole('button', { name: 'Resolve 2 conversations' }).click();
      await bar.getByText('Resolve: 2 done.').waitFor();
      // Checked through the API: the labelled two resolved, the other one still open.
      const all = await inbox('filter=all');
      const state = Object.fromEntries(all.map((r) => [r.name, r.state]));
      expect(state).toEqual({ 'Ravi Kumar': 'resolved', 'Priya Nair': 'resolved', 'Kiran Rao': 'open' });
      await expect.poll(() => page.locator('.conversation-list li').count()).toBe(0);
    });

    it('snoozes a conversation out of the Open list into Snoozed, and saves that view', async () => {
      await page.getByLabel('Label', { exact: true }).selectOption({ label: 'Any label' });
      await row('Kiran Rao').click();
      await page.getByRole('heading', { name: 'Kiran Rao' }).waitFor();
      await page.locator('.snooze-toggle').click();
      await page.getByLabel('Pick a time').fill('2020-01-01T09:00');
      await page.getByRole('button', { name: 'Snooze until then' }).click();
      await page.getByText('Choose a time in the future.').waitFor();
      await page.getByRole('button', { name: '1 hour' }).click();
      await page.getByText(/Snoozed until/).waitFor();
      await expect.poll(() => row('Kiran Rao').count()).toBe(0);
      await page.getByRole('button', { name: 'Snoozed', exact: true }).click();
      await row('Kiran Rao').waitFor();
      expect((await inbox('filter=snoozed')).map((r) => r.name)).toEqual(['Kiran Rao']);

      await page.getByRole('button', { name: '+ Save view' }).click();
      await page.getByLabel('Name of the view').fill('Snoozed ones');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const views = page.getByRole('navigation', { name: 'Saved views' });
      await views.getByRole('button', { name: 'Snoozed ones', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await expect.poll(() => row('Kiran Rao').count()).toBe(0);
      await views.getByRole('button', { name: 'Snoozed ones', exact: true }).click();
      await row('Kiran Rao').waitFor();
      expect(
        await page.getByRole('button', { name: 'Snoozed', exact: true }).getAttribute('aria-pressed'),
      ).toBe('true');
      await screenshot(page, 'inbox-labels-03-snoozed-view');
    });

    it('brings a conversation back to the Open list when its snooze ends, without a reload', async () => {
      const [kiran] = await inbox('filter=snoozed');
      const until = new Date(Date.now() + 4_000).toISOString();
      // The snooze's live event is handled while the Snoozed list is shown (it reads that list again):
      // the Open list cached a moment ago must not come back with the old snooze's end.
      const heard = page.waitForResponse((r) => r.url().includes('/api/app/inbox?filter=snoozed'));
      await app('POST', `/conversations/${kiran!.contact_id}/snooze`, { until });
      await heard;
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await expect.poll(() => row('Kiran Rao').count()).toBe(0);
      // Nothing changes on the server when the time comes: the page reads the list again itself.
      await row('Kiran Rao').waitFor({ timeout: 15_000 });
      expect(await page.getByRole('button', { name: 'Snoozed', exact: true }).textContent()).toContain('0');
    });
  },
);
