import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';

// Settings › General › Data retention, in a browser.
describe.skipIf(!hasChromium)('data retention settings in a browser', { timeout: 90_000 }, () => {
  const app = appInBrowserForTests();
  let page: Page;
  const days = (label: string) => page.getByLabel(`${label}: days kept`);
  const save = () => page.getByRole('button', { name: 'Save retention' }).click();

  beforeAll(async () => {
    page = app.page;
    page.setDefaultTimeout(20_000);
    await app.createAccount();
    await page.locator('nav').getByRole('link', { name: 'Settings', exact: true }).click();
  }, 90_000);

  it('shows the defaults, and says in words beside the field what is wrong with a value', async () => {
    await expect(days('Message content').inputValue()).resolves.toBe('365');
    await expect(days('Media').inputValue()).resolves.toBe('90');
    await expect(days('Finished runs').inputValue()).resolves.toBe('90');
    await expect(days('Webhook delivery log').inputValue()).resolves.toBe('30');

    await days('Media').fill('0');
    await days('Finished runs').fill('ninety');
    await save();
    const mediaField = page.locator('.field').filter({ has: days('Media') });
    const runsField = page.locator('.field').filter({ has: days('Finished runs') });
    await mediaField.locator('.field-error').waitFor();
    await runsField.locator('.field-error').waitFor();
    await screenshot(page, 'retention-errors');
    for (const field of [mediaField, runsField]) {
      const text = (await field.locator('.field-error').textContent()) ?? '';
      expect(text).not.toMatch(/_days|must |anyOf/);
    }
    await expect(page.getByText(/media_days|finished_runs_days/).count()).resolves.toBe(0);
  });

  it('saves days and "keep for ever", kept after a reload', async () => {
    await days('Media').fill('30');
    await days('Finished runs').fill('60');
    await page.getByLabel('Keep webhook delivery log for ever').check();
    await save();
    await page.getByRole('status').getByText('Saved').waitFor();
    await page.reload();
    await expect(days('Media').inputValue()).resolves.toBe('30');
    await expect(days('Finished runs').inputValue()).resolves.toBe('60');
    await expect(days('Webhook delivery log').isDisabled()).resolves.toBe(true);
    await expect(page.getByLabel('Keep webhook delivery log for ever').isChecked()).resolves.toBe(true);
    await screenshot(page, 'retention-saved');
  });
});
