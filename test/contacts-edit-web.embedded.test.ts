import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';

/** The error shown beside the field labelled `label`, inside `scope` (the page or a dialog). */
const errorBeside = (page: Page, scope: Page | Locator, label: string) =>
  // The inner locator is matched inside each .field, so it starts from the page, not the scope.
  scope.locator('.field', { has: page.getByLabel(label, { exact: true }) }).locator('.field-error');

// Contacts added, edited inline and deleted in the app, the audit log of it, and a form archived and restored.
describe.skipIf(!hasChromium)('editing contacts and archiving in a browser', { timeout: 120_000 }, () => {
  const app = appInBrowserForTests();
  let page: Page;

  beforeAll(async () => {
    page = app.page;
    await app.signUp();
  }, 90_000);

  const go = (name: string) => page.locator('nav').getByRole('link', { name, exact: true }).click();

  it('adds a contact, each refusal beside its field in words with what was typed kept', async () => {
    await go('Contacts');
    await page.getByRole('button', { name: 'New contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'New contact' });
    await dialog.getByLabel('Phone', { exact: true }).fill('98765 4321x');
    await dialog.getByLabel('Name', { exact: true }).fill('Ravi');
    await dialog.getByLabel('E-mail', { exact: true }).fill('ravi@example.com');
    await dialog.getByRole('button', { name: 'Add contact' }).click();
    await expect(errorBeside(page, dialog, 'Phone').textContent()).resolves.toMatch(/^Use digits only/);
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).toBe('Ravi');

    await dialog.getByLabel('Phone', { exact: true }).fill('98765 43210');
    await dialog.getByLabel('E-mail', { exact: true }).fill('ravi-at-example');
    await dialog.getByRole('button', { name: 'Add contact' }).click();
    await errorBeside(page, dialog, 'E-mail')
      .getByText('Enter an e-mail address, such as name@example.com.')
      .waitFor();
    expect(await dialog.getByLabel('Phone', { exact: true }).inputValue()).toBe('98765 43210');

    // The input stops at the server's limit; past it (pasted by a script) the server's words show.
    const name = dialog.getByLabel('Name', { exact: true });
    expect(await name.getAttribute('maxlength')).toBe('200');
    await name.evaluate((el) => el.removeAttribute('maxlength'));
    await name.fill('R'.repeat(201));
    await dialog.getByLabel('E-mail', { exact: true }).fill('ravi@example.com');
    await dialog.getByRole('button', { name: 'Add contact' }).click();
    await errorBeside(page, dialog, 'Name').getByText('Use at most 200 characters.').waitFor();
    await screenshot(page, 'contact-new-errors');

    await name.fill('Ravi');
    await dialog.getByRole('button', { name: 'Add contact' }).click();
    await page.getByRole('heading', { name: 'Ravi', exact: true }).waitFor();
    await page.getByText('+919876543210').first().waitFor();
  });

  it('edits name and e-mail, and adds a tag and typed traits inline', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Ravi Kumar');
    await page.getByLabel('E-mail', { exact: true }).fill('nope');
    await page.getByRole('button', { name: 'Save details' }).click();
    await errorBeside(page, page, 'E-mail')
      .getByText(/^Enter an e-mail address/)
      .waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Ravi Kumar');
    await page.getByLabel('E-mail', { exact: true }).fill('ravi.k@example.com');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.getByRole('heading', { name: 'Ravi Kumar' }).waitFor();

    await page.getByLabel('Add a tag').fill('vip');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('button', { name: 'Remove tag vip' }).waitFor();

    await page.getByLabel('Trait', { exact: true }).fill('seats');
    await page.getByLabel('Type').selectOption('number');
    await page.getByLabel('Value').fill('three');
    await page.getByRole('button', { name: 'Save trait' }).click();
    await page.getByText('Enter a number, such as 42 or 9.5.').waitFor();
    await page.getByLabel('Value').fill('3');
    await page.getByRole('button', { name: 'Save trait' }).click();
    await page.getByRole('button', { name: 'Remove trait seats' }).waitFor();
    await page.getByLabel('Trait', { exact: true }).fill('plan');
    await page.getByLabel('Type').selectOption('text');
    await page.getByLabel('Value').fill('pro');
    await page.getByRole('button', { name: 'Save trait' }).click();
    await page.getByRole('button', { name: 'Remove trait plan' }).waitFor();
    await screenshot(page, 'contact-edited');
    await page.getByRole('button', { name: 'Remove trait plan' }).click();
    await expect(
      page.getByRole('button', { name: 'Remove trait plan' }).waitFor({ state: 'detached' }),
    ).resolves.toBeUndefined();
  });

  it('deletes the contact after a confirmation, and the audit log shows who did what', async () => {
    await page.getByRole('button', { name: 'Delete contact' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Ravi Kumar?' });
    await confirm.getByText('This cannot be undone.', { exact: false }).waitFor();
    await screenshot(page, 'contact-delete-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'Ravi Kumar' }).waitFor();
    await page.getByRole('button', { name: 'Delete contact' }).click();
    await confirm.getByRole('button', { name: 'Delete contact' }).click();
    await page.getByText('No contacts yet').waitFor();

    await go('Settings');
    await page.getByRole('tab', { name: 'Audit log' }).click();
    const rows = page.locator('tbody tr');
    await rows.first().getByText('delete').waitFor();
    await expect(rows.first().textContent()).resolves.toMatch(/Asha Rao.*delete contact/);
    await page.getByLabel('Filter by kind of thing').selectOption('contact');
    // Created, its details saved, a tag, two traits, one removed, deleted: no API key's creation among them.
    await expect.poll(() => rows.count()).toBe(7);
    await expect(rows.nth(1).textContent()).resolves.toMatch(/update contact.*fields: remove_traits/);
    await expect(rows.last().textContent()).resolves.toMatch(/create contact.*fields: name/);
    await screenshot(page, 'settings-audit-log');
  });

  it('archives a form after a confirmation, closes its page, and restores it', async () => {
    await go('Forms');
    // A form without a name is not made under another: the field says what to write.
    await page.getByRole('button', { name: 'Create form' }).click();
    await page.locator('.field-error', { hasText: 'Give the form a name' }).waitFor();
    expect(await page.getByLabel('Form name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('heading', { name: 'Forms', exact: true }).count()).toBe(1);
    await page.getByLabel('Form name').fill('Spring offer');
    expect(await page.locator('.field-error').count()).toBe(0);
    await page.getByRole('button', { name: 'Create form' }).click();
    await page.getByRole('heading', { name: 'Spring offer' }).waitFor();
    await page.getByText('Draft: submissions are refused').waitFor();
    await page.getByRole('main').getByRole('switch').click();
    await page.getByText('Active: accepting leads').waitFor();
    await page.getByRole('tab', { name: 'Publish & embed' }).click();
    const hosted = (await page.getByTestId('hosted-url').textContent()) ?? '';

    await page.getByRole('button', { name: 'Archive' }).click();
    await page
      .getByRole('dialog', { name: 'Archive this form?' })
      .getByRole('button', { name: 'Archive form' })
      .click();
    await page.getByText(/^Archived .*its page says the form is closed/).waitFor();
    const closed = await fetch(hosted);
    expect(closed.status).toBe(410);
    expect(await closed.text()).toContain('This form is closed');

    await go('Forms');
    await page.getByText('No forms yet').waitFor();
    await page.getByLabel('Show archived').check();
    await page.getByRole('link', { name: 'Spring offer' }).waitFor();
    await screenshot(page, 'forms-archived');
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('No archived forms').waitFor();
    await page.getByLabel('Show archived').uncheck();
    await page.getByRole('link', { name: 'Spring offer' }).waitFor();
    expect((await fetch(hosted)).status).toBe(200);
  });

  it('picks the form of a sequence by name, and asks before unpublishing it', async () => {
    await go('Sequences');
    await page.getByRole('link', { name: 'New sequence' }).first().click();
    await page.getByLabel('Name', { exact: true }).fill('Spring follow-up');
    await page.getByLabel('Starts when').selectOption('form_submitted');
    await page.getByRole('combobox', { name: /^Form/ }).selectOption({ label: 'Spring offer' });
    await page.getByRole('button', { name: 'Update lead status' }).click();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: 'Unpublish' }).click();
    const ask = page.getByRole('dialog', { name: 'Unpublish this sequence?' });
    await ask.getByText('Nothing starts it until you publish it again.', { exact: false }).waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Unpublish' }).click();
    await ask.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByRole('button', { name: 'Publish', exact: true }).waitFor();
    await page.reload();
    // The forms are listed once their request answers: until then the choice reads as still loading.
    await expect
      .poll(() => page.getByRole('combobox', { name: /^Form/ }).locator('option:checked').textContent(), {
        timeout: 15_000,
      })
      .toBe('Spring offer');
  });
});
