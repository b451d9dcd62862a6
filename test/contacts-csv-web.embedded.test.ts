import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';

// The Contacts page's CSV import, the opt-out toggle and Settings › General's opt-out words, in a browser.
describe.skipIf(!hasChromium)('contacts import and opt-out in a browser', { timeout: 90_000 }, () => {
  const app = appInBrowserForTests();
  let page: Page;

  beforeAll(async () => {
    page = app.page;
    page.setDefaultTimeout(20_000);
    await app.createAccount();
  }, 90_000);

  it('imports a CSV with its columns mapped, reports the refused row, and lists the contacts', async () => {
    await page.locator('nav').getByRole('link', { name: 'Contacts', exact: true }).click();
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const csv = 'Mobile,Customer,City\n98765 43210,Ravi,Pune\n12,Nobody,Delhi\n';
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'crm.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByLabel('Phone column').selectOption('Mobile');
    await page.getByLabel('Name column').selectOption('Customer');
    await page.getByLabel('City').check();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('completed').waitFor();
    await expect(dialog.getByText('1 created · 0 updated · 1 refused').isVisible()).resolves.toBe(true);
    await dialog.getByRole('cell', { name: /^12 is not a valid number/ }).waitFor();
    await screenshot(page, 'contacts-import-report');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('link', { name: 'Ravi' }).waitFor();
  });

  it('lets a teammate mark the contact as opted out, shown on the page and its timeline', async () => {
    await page.getByRole('link', { name: 'Ravi' }).click();
    await page.getByRole('button', { name: 'Mark as opted out' }).click();
    await page.getByRole('button', { name: 'Opt back in' }).waitFor();
    await page.getByText('set by a teammate').waitFor();
    await screenshot(page, 'contact-opted-out');
  });

  it('saves the workspace’s own opt-out words, and says in words what is wrong with one', async () => {
    await page.locator('nav').getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByLabel('More opt-out words').fill('baja, !!!');
    await page.getByRole('button', { name: 'Save opt-out settings' }).click();
    await page.getByText('Give each word at least one letter or digit.', { exact: true }).waitFor();
    await expect(page.getByText(/opt_out_keywords/).count()).resolves.toBe(0);
    await page.getByLabel('More opt-out words').fill('baja, no more');
    await page.getByLabel('Reply to an opt-out').fill('You will get no more offers.');
    await page.getByRole('button', { name: 'Save opt-out settings' }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    await page.reload();
    await expect(page.getByLabel('More opt-out words').inputValue()).resolves.toBe('BAJA, NO MORE');
  });
});
