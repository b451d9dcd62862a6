import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeProblems } from './support/axe.js';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';

// Meta refusing to send from a number (190: its token revoked) pauses it; Settings › Connected number
// says why and what to do, and "Check again" resumes it once Meta reads the number again. A template
// Meta paused says so on the Templates page. Meta here is the server's own simulator, spoken to as a
// real Cloud API number is (GRAPH_API_URL), so its token can be revoked and given back.
const PHONE_ID = '106540352242922';
const WABA = '102290129340398';
const TOKEN = 'EAAG-web-test-token';

describe.skipIf(!hasChromium)(
  'a paused number and a paused template in the web app',
  { timeout: 120_000 },
  () => {
    const app = appInBrowserForTests();
    let page: Page;
    let rest: (method: string, path: string, body?: unknown) => Promise<Response>;
    let call: Awaited<ReturnType<typeof app.setUpByApi>>;

    /** The number as Meta holds it; another token than the one Parley stores revokes Parley's. */
    const metaHolds = (accessToken: string, statuses: Record<string, string> = {}) =>
      app.sim('POST', '/numbers', {
        phoneNumberId: PHONE_ID,
        businessAccountId: WABA,
        displayPhone: '+1 555-010-4477',
        accessToken,
        appSecret: 'web-test-app-secret',
        webhookUrl: `${app.base}/api/webhooks/whatsapp`,
        templates: [
          {
            name: 'spring_sale',
            language: 'en',
            category: 'MARKETING',
            body: 'Spring sale!',
            status: statuses.spring_sale ?? 'APPROVED',
          },
          {
            name: 'old_promo',
            language: 'en',
            category: 'MARKETING',
            body: 'Last season, half price!',
            status: statuses.old_promo ?? 'APPROVED',
          },
          {
            name: 'order_ready',
            language: 'en',
            category: 'UTILITY',
            body: 'Your order is ready.',
            status: 'APPROVED',
          },
        ],
      });
    /** The send is refused in the queue's own time: the page shows the pause once it has happened. */
    const pauseHappened = () =>
      expect
        .poll(
          async () =>
            ((await call('GET', '/number')).number as { paused?: { code: number } } | null)?.paused?.code,
          { timeout: 30_000 },
        )
        .toBe(190);
    const settings = async (p: Page) => {
      await p.locator('nav').getByRole('link', { name: 'Settings', exact: true }).click();
      await p.getByRole('tab', { name: 'Connected number' }).click();
    };

    beforeAll(async () => {
      ({ page } = app);
      call = await app.setUpByApi();
      await call('DELETE', '/number');
      await metaHolds(TOKEN);
      await call('POST', '/number', {
        phone_number_id: PHONE_ID,
        business_account_id: WABA,
        access_token: TOKEN,
        app_secret: 'web-test-app-secret',
      });
      const { key } = await call('POST', '/api-keys', { name: 'Tests' });
      rest = (method, path, body) =>
        fetch(`${app.base}/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
    }, 90_000);

    it("lists templates Meta paused and disabled with Meta's reasons", async () => {
      // Meta pauses one template and disables another without Parley hearing of it: Parley's copies are
      // still approved, the sends are refused with 132015 and 132016, and Parley marks its copies so.
      for (const name of ['spring_sale', 'old_promo']) {
        const gone = await fetch(`${app.base}/_sim/v21.0/${WABA}/message_templates?name=${name}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(gone.status).toBe(200);
      }
      await metaHolds(TOKEN, { spring_sale: 'PAUSED', old_promo: 'DISABLED' });
      for (const name of ['spring_sale', 'old_promo']) {
        const sent = await rest('POST', '/messages', {
          to: '+14155550101',
          template: { name, language: 'en' },
        });
        expect(sent.status).toBe(404);
      }

      await page.goto(app.base);
      await page.locator('nav').getByRole('link', { name: 'Templates', exact: true }).click();
      const reason = (name: string) =>
        page.getByRole('article', { name: `${name} (en)` }).getByTestId('status-reason');
      await expect
        .poll(() => reason('spring_sale').textContent())
        .toMatch(/Template is paused due to low quality/);
      expect(await reason('spring_sale').textContent()).toMatch(
        /^WhatsApp paused it after customers' feedback; it cannot be sent until WhatsApp reinstates it\./,
      );
      // Disabled is for good: not "cannot be sent now".
      await expect.poll(() => reason('old_promo').textContent()).toMatch(/permanently disabled/);
      expect(await reason('old_promo').textContent()).toMatch(
        /^WhatsApp disabled it after customers' feedback paused it too often; it can no longer be sent\./,
      );
      await screenshot(page, 'template-paused');
      expect(await axeProblems(page, 'a paused and a disabled template')).toEqual([]);
    });

    it('shows a paused number with Meta\'s reason and what to do; "Check again" while Meta still refuses says so', async () => {
      await metaHolds('EAAG-someone-elses-token');
      const sent = await rest('POST', '/messages', {
        to: '+14155550102',
        template: { name: 'order_ready', language: 'en' },
      });
      expect(await sent.json()).toMatchObject({ status: 'queued' });
      await pauseHappened();

      await settings(page);
      const paused = page.getByTestId('number-paused');
      await paused.waitFor();
      const shown = (await paused.textContent()) ?? '';
      expect(shown).toMatch(
        /Sending is paused\..*Meta refuses to send from this number: Invalid OAuth access token/,
      );
      expect(shown).toMatch(/The access token has expired or was revoked: save a new access token/);
      expect(shown).toMatch(/save a new access token below, or check again/);
      // The number was connected by its token: a new one can be saved right here.
      await paused.getByLabel('Access token').waitFor();
      await page.getByText('paused', { exact: true }).waitFor();
      await screenshot(page, 'number-paused');

      await page.getByRole('button', { name: 'Check again' }).click();
      const refused = paused.getByRole('alert');
      await refused.waitFor();
      const said = (await refused.textContent()) ?? '';
      expect(said).toMatch(
        /^Meta still refuses the number \(Invalid OAuth access token.*\)\. The access token has expired/,
      );
      await screenshot(page, 'number-check-refused');
      expect(await axeProblems(page, 'a paused number, checked again')).toEqual([]);
      expect(await paused.isVisible()).toBe(true);
    });

    it('shows a member the pause and what to do, with nothing to press', async () => {
      const invite = await call('POST', '/invitations', { email: 'sam@example.com', role: 'member' });
      const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const member = await context.newPage();
        const accepted = await member.request.post(`${app.base}/api/app/invitations/accept`, {
          headers: { 'x-parley-csrf': '1' },
          data: {
            token: String(invite.url).split('/invite/')[1],
            name: 'Sam Lee',
            password: 'a long enough password',
          },
        });
        expect(accepted.status()).toBe(201);
        await member.goto(app.base);
        await settings(member);
        const paused = member.getByTestId('number-paused');
        await paused.waitFor();
        const shown = (await paused.textContent()) ?? '';
        expect(shown).toMatch(/Meta refuses to send from this number: Invalid OAuth access token/);
        expect(shown).toMatch(/The access token has expired or was revoked/);
        // Told who can act, not sent to a form that is not there.
        expect(shown).toMatch(
          /An owner or admin of the workspace can save a new access token or check the number again/,
        );
        expect(shown).not.toMatch(/below/);
        expect(await member.getByRole('button', { name: 'Check again' }).count()).toBe(0);
        expect(await member.getByLabel('Access token').count()).toBe(0);
        expect(await member.getByRole('button', { name: 'Disconnect number' }).count()).toBe(0);
        await screenshot(member, 'number-paused-member');
        expect(await axeProblems(member, 'a paused number, to a member')).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('"Check again" once Meta reads the number shows it connected again', async () => {
      await metaHolds(TOKEN);
      await page.getByRole('button', { name: 'Check again' }).click();
      await page.getByTestId('number-paused').waitFor({ state: 'detached' });
      await page.getByText('connected', { exact: true }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
    });

    it('takes a new access token in the pause, the ids filled in, and resumes sending', async () => {
      await metaHolds('EAAG-revoked-again');
      const sent = await rest('POST', '/messages', {
        to: '+14155550103',
        template: { name: 'order_ready', language: 'en' },
      });
      expect(await sent.json()).toMatchObject({ status: 'queued' });
      await pauseHappened();
      await page.reload();
      await page.getByRole('tab', { name: 'Connected number' }).click();
      const paused = page.getByTestId('number-paused');
      await paused.getByRole('heading', { name: 'Save a new access token' }).waitFor();
      expect(await paused.getByLabel('Phone number id').inputValue()).toBe(PHONE_ID);
      expect(await paused.getByLabel('WhatsApp Business Account id').inputValue()).toBe(WABA);

      await metaHolds('EAAG-a-new-token');
      await paused.getByLabel('Access token').fill('EAAG-a-new-token');
      await paused.getByLabel('App secret').fill('web-test-app-secret');
      await paused.getByRole('button', { name: 'Save and resume sending' }).click();
      await page.getByTestId('number-paused').waitFor({ state: 'detached' });
      await page.getByText('connected', { exact: true }).waitFor();
    });
  },
);
