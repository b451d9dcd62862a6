import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';
import { linkIn, startSmtp, type TestSmtp } from './support/smtp.js';
import { until } from './support/until.js';

// Forgot → mail → link → new password → sign in, against a local SMTP server; and an invitation mailed.
describe.skipIf(!hasChromium)(
  'forgotten password and mailed invitations in a browser',
  { timeout: 120_000 },
  () => {
    let smtp: TestSmtp;
    beforeAll(async () => {
      smtp = await startSmtp();
    });
    afterAll(async () => {
      await smtp?.close();
    });
    const app = appInBrowserForTests({
      env: () => ({ SMTP_URL: smtp.url, MAIL_FROM: 'Parley <parley@example.com>' }),
    });

    const mailTo = (email: string) => until(() => smtp.mails.find((m) => m.to.includes(email)));

    it('e-mails an invitation from Settings › Team, the link still shown to copy', async () => {
      await app.signUp();
      await app.page.locator('nav').getByRole('link', { name: 'Settings', exact: true }).click();
      await app.page.getByRole('tab', { name: 'Team', exact: true }).click();
      await app.page.getByLabel('E-mail', { exact: true }).fill('ravi@example.com');
      await expect.poll(() => app.page.getByLabel('Send it by e-mail').isChecked()).toBe(true);
      await app.page.getByRole('button', { name: 'Create invitation' }).click();
      await app.page.getByText('We are e-mailing this link to ravi@example.com').waitFor();
      const shown = await app.page.locator('.secret code').first().textContent();
      expect(linkIn(await mailTo('ravi@example.com'), '/invite')).toBe(shown?.trim());
      await app.page.getByRole('button', { name: 'Sign out' }).click();
    });

    it('resets a forgotten password by e-mail, then signs in with the new one', async () => {
      await app.page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await app.page.getByRole('link', { name: 'Forgot your password?' }).click();
      await app.page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
      expect(await app.page.title()).toBe('Forgot your password? · Parley');
      await app.page.getByLabel('E-mail').fill('asha@example.com');
      await app.page.getByRole('button', { name: 'Send me a link' }).click();
      await app.page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

      const url = linkIn(await mailTo('asha@example.com'), '/reset-password');
      expect(url.startsWith(`${app.base}/reset-password/`)).toBe(true);
      await app.page.goto(url);
      await app.page.getByLabel('New password').fill('short');
      await app.page.getByRole('button', { name: 'Set new password' }).click();
      // The browser's own check stops it first: at least 10 characters.
      expect(await app.page.locator('input[autocomplete="new-password"]:invalid').count()).toBe(1);
      await app.page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      await app.page.getByLabel('New password').fill('my brand new password');
      await app.page.getByRole('button', { name: 'Set new password' }).click();
      await app.page.getByRole('heading', { name: 'Password changed' }).waitFor();
      await screenshot(app.page, 'password-reset-done');
      await app.page.getByRole('link', { name: 'Sign in' }).click();

      await app.page.getByLabel('E-mail').fill('asha@example.com');
      await app.page.getByLabel('Password').fill('my brand new password');
      await app.page.getByRole('button', { name: 'Sign in' }).click();
      await app.page.getByRole('heading', { name: 'Welcome, Asha Rao' }).waitFor();

      // The link was used: opening it again says so in plain words.
      await app.page.goto(url);
      await app.page.getByLabel('New password').fill('another new password');
      await app.page.getByRole('button', { name: 'Set new password' }).click();
      await app.page.getByText('This reset link is not valid any more; ask for a new one').waitFor();
    });
  },
);
