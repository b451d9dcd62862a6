import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const GREETING = 'Hello from Acme Foods! A teammate will be with you shortly.';
const AWAY = 'Acme Foods is closed today; we will reply when we are back.';

// Issue 30's done-when for business hours: an owner sets hours in Settings so that now is inside and
// turns the greeting and away message on; a new customer's first message gets the greeting, seen in
// the inbox; then today becomes a holiday (outside hours) and a message gets the away message.
describe.skipIf(!hasChromium)(
  'business hours, greeting and away message in a browser',
  { timeout: 150_000 },
  () => {
    const running = appInBrowserForTests();
    let page: Page;
    const customer = '919811077001';
    const save = () => page.getByRole('button', { name: 'Save business hours' }).click();

    beforeAll(async () => {
      page = running.page;
      page.setDefaultTimeout(20_000);
      await running.setUpByApi();
      await page.goto(`${running.base}/settings/general`);
      await page.getByRole('tab', { name: 'Business hours' }).click();
      await page.getByText('No schedule: always inside business hours.').waitFor();
    }, 120_000);

    /** The contact's conversation in the inbox, found by the customer's name in the list. */
    const openConversation = async () => {
      await page.locator('nav').getByRole('link', { name: 'Inbox' }).click();
      await page.getByRole('link', { name: /Meera Shah/ }).click();
    };
    const outbound = (text: string) => page.locator('.bubble.outbound', { hasText: text }).first();

    it('sets opening hours all day, every day, with both messages on; says in words what is wrong', async () => {
      await page.getByLabel('Keep a schedule (off: always open)').check();
      for (const day of DAYS) {
        const open = page.locator('.hours-day').filter({ hasText: day }).getByRole('checkbox');
        if (!(await open.isChecked())) await open.check();
        await page.getByLabel(`${day} opens (1)`).fill('00:00');
        await page.getByLabel(`${day} closes (1)`).fill('24:00');
      }
      await page.getByLabel(/Send an away message/).check();
      await page.getByLabel('Away message', { exact: true }).fill(AWAY);
      await page.getByLabel(/Send a greeting/).check();
      await page.getByLabel('Greeting', { exact: true }).fill('');

      // Two mistakes: a closing time past midnight, and a greeting switched on without words.
      await page.getByLabel('Wednesday closes (1)').fill('25:00');
      await save();
      const wednesday = page.locator('.hours-day').filter({ hasText: 'Wednesday' });
      await expect
        .poll(() => wednesday.locator('.field-error').textContent())
        .toMatch(/Write times as HH:MM/);
      const greetingField = page
        .locator('.field')
        .filter({ has: page.getByLabel('Greeting', { exact: true }) });
      await expect
        .poll(() => greetingField.locator('.field-error').textContent())
        .toMatch(/Write the greeting/);
      await expect(page.getByText(/schedule\.wed|greeting\.text/).count()).resolves.toBe(0);
      await screenshot(page, 'business-hours-errors');

      await page.getByLabel('Wednesday closes (1)').fill('24:00');
      await page.getByLabel('Greeting', { exact: true }).fill(GREETING);
      await save();
      await page.getByText('Saved').waitFor();
      await page.getByText('Now: inside business hours.').waitFor();
      await page.reload();
      await expect(page.getByLabel('Wednesday closes (1)').inputValue()).resolves.toBe('24:00');
      await expect(page.getByLabel(/Send a greeting/).isChecked()).resolves.toBe(true);
    });

    it("greets a new customer's first message, shown in the inbox as automatic", async () => {
      await running.sim('POST', '/inbound', {
        from: customer,
        name: 'Meera Shah',
        text: 'Hi, are you open?',
      });
      await openConversation();
      await outbound(GREETING).waitFor();
      await expect(outbound(GREETING).locator('.sender').textContent()).resolves.toBe('Automatic · Greeting');
      await screenshot(page, 'business-hours-greeting');
    });

    it('after today is made a holiday, a message gets the away message', async () => {
      await page.goto(`${running.base}/settings/hours`);
      await page.getByRole('button', { name: 'Add a holiday' }).click();
      await page.getByLabel('Holiday 1 date').fill(new Date().toISOString().slice(0, 10));
      await page.getByLabel('Holiday 1 name').fill('Staff day out');
      await save();
      await page.getByText('Now: outside business hours.').waitFor();

      await running.sim('POST', '/inbound', {
        from: customer,
        name: 'Meera Shah',
        text: 'Hello? Anyone there?',
      });
      await openConversation();
      await outbound(AWAY).waitFor();
      await expect(outbound(AWAY).locator('.sender').textContent()).resolves.toBe('Automatic · Away message');
      // The greeting was for the first message only.
      await expect(page.locator('.bubble.outbound', { hasText: GREETING }).count()).resolves.toBe(1);
      await screenshot(page, 'business-hours-away');
    });

    it('builds a bot in the builder that starts outside business hours and branches on them', async () => {
      const card = (id: string) => page.locator(`li[data-step="${id}"]`);
      await page.locator('nav').getByRole('link', { name: 'Flows', exact: true }).click();
      await page.getByRole('link', { name: 'New flow' }).first().click();
      await page.getByLabel('Name', { exact: true }).fill('Night desk');
      await page.getByLabel('Starts when').selectOption({ label: 'a customer writes' });
      await page.getByLabel('Keywords (optional)').fill('menu');
      await page.getByLabel('Business hours').selectOption({ label: 'only outside business hours' });
      await expect
        .poll(() => page.locator('.react-flow__node[data-id="@trigger"]').textContent())
        .toContain('outside business hours');
      await page.locator('.add-step-btn', { hasText: 'Condition' }).click();
      await card('step_1')
        .getByLabel('Condition on')
        .selectOption({ label: 'business hours (Settings › Business hours)' });
      await card('step_1')
        .getByLabel('When the step runs, it is')
        .selectOption({ label: 'outside business hours' });
      await page.getByRole('button', { name: 'Publish' }).click();
      await page
        .getByText(/Published/)
        .first()
        .waitFor();
      await screenshot(page, 'business-hours-builder');

      const api = async (path: string) => (await page.request.get(`${running.base}/api/app${path}`)).json();
      const { automations } = (await api('/automations')) as { automations: { id: string; name: string }[] };
      const id = automations.find((a) => a.name === 'Night desk')!.id;
      const { automation } = (await api(`/automations/${id}`)) as {
        automation: { draft: { trigger: unknown; steps: { if?: unknown }[] } };
      };
      expect(automation.draft.trigger).toEqual({
        type: 'message_received',
        keywords: ['menu'],
        hours: 'outside',
      });
      expect(automation.draft.steps[0]!.if).toEqual({ inside_business_hours: false });
    });
  },
);
