import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';
import { until } from './support/until.js';

// The web app end to end: the real server (built CLI, embedded database) driven by headless Chromium.
describe.skipIf(!hasChromium)('web app in a browser', { timeout: 90_000 }, () => {
  const app = appInBrowserForTests();
  let browser: Browser;
  let page: Page;
  let base: string;
  let apiKey: string;

  beforeAll(() => {
    ({ base, browser, page } = app);
  });

  const rest = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : null,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  const go = (name: string, on = page) => on.locator('nav').getByRole('link', { name, exact: true }).click();
  const openSettings = async (tab: string) => {
    await go('Settings');
    await page.getByRole('tab', { name: tab, exact: true }).click();
  };

  it('signs up on first run: the owner account and the workspace', async () => {
    await page.goto(base);
    await page.getByRole('heading', { name: 'Welcome to Parley' }).waitFor();
    await page.getByLabel('Your name').fill('Asha Rao');
    await page.getByLabel('E-mail').fill('asha@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByLabel('Workspace name').fill('Acme Foods');
    await page.getByLabel(/Default country code/).fill('91');
    await screenshot(page, '01-setup');
    await page.getByRole('button', { name: 'Create account and workspace' }).click();
    await page.getByRole('heading', { name: 'Welcome, Asha Rao' }).waitFor();
    await page.getByText('5 of 5 steps left.').waitFor();
    await screenshot(page, '02-home');
    await go('Contacts');
    await page.getByText('No contacts yet').waitFor();
    expect(new URL(page.url()).pathname).toBe('/contacts');
    await screenshot(page, '02-contacts-empty');
  });

  it('connects the simulator as the number in Settings', async () => {
    await openSettings('Connected number');
    await page.getByText('No WhatsApp number connected yet').waitFor();
    await page.getByRole('button', { name: 'Connect the simulator' }).click();
    await page.getByText('Built-in WhatsApp simulator').waitFor();
    await screenshot(page, '03-settings-number');
  });

  it('creates an API key in Settings › Developer and uses it on the REST API', async () => {
    await openSettings('Developer');
    await page.getByText('No API keys yet').waitFor();
    await page.getByLabel('Key name').fill('Website backend');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const shown = page.getByTestId('new-api-key').locator('code').first();
    apiKey = (await shown.textContent()) ?? '';
    expect(apiKey).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
    await page.getByRole('cell', { name: 'Website backend' }).waitFor();
    await screenshot(page, '04-settings-developer');

    const templates = await rest('GET', '/templates');
    expect(templates.status).toBe(200);
    expect((templates.body.templates as { name: string }[]).map((t) => t.name).sort()).toEqual([
      'order_update',
      'welcome',
    ]);
    // Last use is recorded within seconds (batched); the list then shows it.
    await until(async () => {
      await page.reload();
      await page.getByRole('cell', { name: 'Website backend' }).waitFor();
      return page.getByRole('cell', { name: 'just now' }).isVisible();
    });
  });

  it('shows contacts with search, and a contact with its timeline', async () => {
    for (const [phone, name, tags] of [
      ['98765 43210', 'Ravi Kumar', ['vip', 'mumbai']],
      ['91234 56789', 'Meera Shah', ['newsletter']],
      ['+14155552671', 'John Appleseed', []],
    ] as const) {
      const r = await rest('POST', '/contacts', { phone, name, tags, traits: { plan: 'gold', orders: 3 } });
      expect(r.status).toBe(201);
    }
    const sent = await rest('POST', '/messages', {
      to: '9876543210',
      template: { name: 'welcome', language: 'en', body: ['Ravi', 'Acme Foods'] },
    });
    expect(sent.status).toBe(201);
    await go('Contacts');
    await page.getByRole('link', { name: 'Meera Shah' }).waitFor();
    await screenshot(page, '05-contacts');
    await page.getByLabel('Search contacts').fill('ravi');
    await until(async () => (await page.getByRole('link', { name: 'Meera Shah' }).count()) === 0);
    await page.getByRole('link', { name: 'Ravi Kumar' }).click();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await page.getByText('Sent template welcome').waitFor();
    await screenshot(page, '06-contact');
  });

  it('replies in a conversation only inside the 24-hour window', async () => {
    await page.getByRole('link', { name: 'Open conversation' }).click();
    await page.getByText('Free text is closed.').waitFor();
    // The customer writes in: the window opens.
    const inbound = await fetch(`${base}/_sim/inbound`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${app.simulatorToken()}`,
      },
      body: JSON.stringify({ from: '919876543210', text: 'Hi! Is my order on its way?' }),
    });
    expect(inbound.status).toBeLessThan(300);
    // In the thread (the inbox list beside it shows the same words as the last message).
    await page.locator('.bubble', { hasText: 'Is my order on its way?' }).waitFor({ timeout: 20_000 });
    await page.getByLabel('Reply').fill('Yes — it ships today.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('.bubble.outbound', { hasText: 'Yes — it ships today.' }).waitFor();
    await expect.poll(() => page.getByLabel('Reply').inputValue()).toBe('');
    await screenshot(page, '07-conversation');
    await go('Inbox');
    await page.getByRole('link', { name: /Yes — it ships today\./ }).waitFor();
    await screenshot(page, '08-messages');
  });

  it('lists templates and syncs them', async () => {
    await go('Templates');
    await page.getByText('order_update').waitFor();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByText(/Synced \d+ templates? from WhatsApp/).waitFor();
    await page.getByRole('link', { name: 'New template' }).click();
    await page.getByLabel('Name', { exact: true }).fill('spring_offer');
    await page.getByLabel('Message text').fill('Hi {{1}}, enjoy 20% off until {{2}}.');
    await page.getByLabel('Sample for {{1}}').fill('Asha');
    await page.getByLabel('Sample for {{2}}').fill('Sunday');
    await screenshot(page, '09-template-new');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByText('Submitted spring_offer for review').waitFor();
    await page.locator('.template', { hasText: 'spring_offer' }).getByText('pending').waitFor();
    await screenshot(page, '09-templates');
  });

  it('builds and publishes a flow, and sees it run on an event', async () => {
    await go('Flows');
    await page.getByText('No flows yet').waitFor();
    await screenshot(page, '15-flows-empty');
    await page.getByRole('link', { name: 'New flow' }).first().click();
    await page.getByLabel('Name').fill('Welcome on signup');
    await page.getByLabel('When this event is tracked').fill('signup');
    await page.getByRole('button', { name: /Send template/ }).click();
    await page.getByLabel('Template').selectOption({ label: 'welcome (en)' });
    await page.getByLabel('“Hi ___, welcome to”').fill('{{contact.name | there}}');
    await page.getByLabel('“welcome to ___!”').fill('Acme Foods');
    await page.getByRole('button', { name: /Condition/ }).click();
    await page.getByLabel('Field').fill('event.properties.plan');
    await page.getByLabel('Check').selectOption('equals');
    await page.getByLabel('Value').fill('pro');
    await page.getByRole('button', { name: /Add tag/ }).click();
    await page.getByLabel('Tag').fill('pro-welcomed');
    // The condition's "yes" goes to the tag step; "no" ends the run.
    await page.locator('.step').nth(1).locator('.step-head').click();
    await page.getByLabel('When yes').selectOption('step_3');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.locator('.badge', { hasText: 'published' }).waitFor();
    await screenshot(page, '16-flow-builder');

    const tracked = await rest('POST', '/events', {
      phone: '91234 56789',
      event: 'signup',
      properties: { plan: 'pro' },
    });
    expect(tracked.status).toBe(202);
    await page.locator('.list-row', { hasText: 'completed' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Steps' }).first().click();
    await page.getByRole('dialog').getByText('step_3', { exact: true }).waitFor();
    await screenshot(page, '17-flow-run');
    await page.getByRole('button', { name: 'Close' }).click();
    const contacts = await rest('GET', '/contacts?limit=50&offset=0');
    const meera = (contacts.body.contacts as { name: string; tags: string[] }[]).find(
      (c) => c.name === 'Meera Shah',
    );
    expect(meera?.tags).toContain('pro-welcomed');
    await go('Flows');
    await page.getByRole('cell', { name: /Event “signup”/ }).waitFor();
    await screenshot(page, '18-flows');
  });

  it('creates a form, submits it through its hosted page, and sees the lead', async () => {
    await go('Forms');
    await page.getByText('No forms yet').waitFor();
    await page.getByLabel('Form name').fill('Website enquiry');
    await page.getByRole('button', { name: 'Create form' }).click();
    await page.getByRole('heading', { name: 'Website enquiry' }).waitFor();
    // A new form is a draft until switched on.
    await page.getByRole('main').getByRole('switch').click();
    await page.getByText('Active: accepting leads').waitFor();
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Label').last().fill('City');
    // A refusal is said beside the field at fault, in plain words.
    await page.getByLabel('Key').last().fill('email');
    await page.getByRole('button', { name: 'Save fields' }).click();
    await page.locator('.field-row').last().getByText('Two fields are named "email": rename one.').waitFor();
    await page.getByLabel('Key').last().fill('city');
    await page.getByRole('button', { name: 'Save fields' }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    await screenshot(page, '19-form-fields');
    await page.getByRole('tab', { name: 'Publish & embed' }).click();
    const hosted = (await page.getByTestId('hosted-url').textContent()) ?? '';
    expect(hosted).toMatch(new RegExp(`^${base}/f/ft_`));
    await screenshot(page, '20-form-publish');

    const visitor = await browser.newPage();
    await visitor.goto(hosted);
    await visitor.getByLabel('Name').fill('Priya Nair');
    await visitor.getByLabel('E-mail').fill('priya@example.com');
    await visitor.getByLabel('Phone').fill('+91 99887 76655');
    await visitor.getByLabel('City').fill('Pune');
    await screenshot(visitor, '21-hosted-form');
    // A bad phone: the same page again, what was typed kept, the error beside the phone field.
    await visitor.getByLabel('Phone').fill('99887 7665x');
    await visitor.getByRole('button', { name: 'Send' }).click();
    await visitor.getByText(/^Use digits only/).waitFor();
    expect(await visitor.getByLabel('City').inputValue()).toBe('Pune');
    expect(await visitor.getByLabel('Phone').getAttribute('aria-invalid')).toBe('true');
    await screenshot(visitor, '21-hosted-form-error');
    await visitor.getByLabel('Phone').fill('+91 99887 76655');
    await visitor.getByRole('button', { name: 'Send' }).click();
    await visitor.getByRole('heading', { name: 'Thank you' }).waitFor();
    await visitor.close();

    await go('Leads');
    await page.getByRole('link', { name: 'Priya Nair' }).click();
    await page.getByText('Pune').waitFor();
    await page.getByLabel('Lead status').selectOption('contacted');
    await page.locator('.facts .badge', { hasText: 'contacted' }).waitFor();
    await screenshot(page, '22-lead');
    await go('Leads');
    await page.getByRole('button', { name: 'contacted' }).click();
    await page.getByRole('link', { name: 'Priya Nair' }).waitFor();
    await screenshot(page, '23-leads');
  });

  it('publishes a webhook sequence and runs it for a lead posted to its URL', async () => {
    await go('Sequences');
    await page.getByText('No sequences yet').waitFor();
    await page.getByRole('link', { name: 'New sequence' }).first().click();
    await page.getByLabel('Name').fill('Ads follow-up');
    await page.getByRole('button', { name: /Update lead status/ }).click();
    await page.getByLabel('New status').selectOption('contacted');
    await page.getByRole('button', { name: /Add tag/ }).click();
    await page.getByLabel('Tag').fill('from-ads');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('heading', { name: 'Webhook URL' }).waitFor();
    const url = (await page.locator('.secret code').first().textContent()) ?? '';
    expect(url).toMatch(new RegExp(`^${base}/api/automation/webhooks/sq_\\w+/whsec_`));
    const posted = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ full_name: 'Kiran Rao', mobile: '+91 90000 11111', campaign: 'diwali' }),
    });
    expect(posted.status).toBe(202);
    await page.locator('.list-row', { hasText: 'completed' }).waitFor({ timeout: 30_000 });
    await screenshot(page, '25-sequence');
  });

  it('invites a teammate and shows plan usage', async () => {
    await openSettings('Team');
    await page.getByLabel('E-mail').fill('sam@example.com');
    await page.getByRole('button', { name: 'Create invitation' }).click();
    await page.getByText('/invite/').waitFor();
    await screenshot(page, '10-settings-team');
    await page.getByRole('tab', { name: 'Plan & usage' }).click();
    await page.getByText('Messages this month').waitFor();
    await screenshot(page, '11-settings-plan');
  });

  it('works on a phone-sized screen', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.context().addCookies(await page.context().cookies());
    await phone.goto(`${base}/contacts`);
    await phone.getByRole('link', { name: 'Ravi Kumar' }).waitFor();
    await screenshot(phone, '12-phone-contacts');
    await phone.getByRole('button', { name: 'Menu' }).click();
    await phone.locator('nav').getByRole('link', { name: 'Templates', exact: true }).waitFor();
    await screenshot(phone, '12-phone-menu');
    await go('Templates', phone);
    await phone.getByText('order_update').waitFor();
    await screenshot(phone, '13-phone-templates');
    await phone.close();
  });

  it('signs out and back in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, '14-sign-in');
    await page.getByLabel('E-mail').fill('asha@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Welcome, Asha Rao' }).waitFor();
    await page.getByText('All set: everything is in place.').waitFor();
    await screenshot(page, '24-home');
  });

  it('disconnects the number, and connects one by its Meta credentials, checked with the Graph API', async () => {
    await openSettings('Connected number');
    await page.getByRole('button', { name: 'Disconnect number' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disconnect', exact: true }).click();
    await page.getByText('No WhatsApp number connected yet').waitFor();
    const meta = { phoneNumberId: '106540352242922', businessAccountId: '102290129340398' };
    const secrets = { accessToken: 'EAAmetatoken1234', appSecret: 'a1b2c3d4e5f6' };
    const registered = await fetch(`${base}/_sim/numbers`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${app.simulatorToken()}`,
      },
      body: JSON.stringify({
        ...meta,
        ...secrets,
        displayPhone: '+1 555 0142',
        webhookUrl: `${base}/api/webhooks/whatsapp`,
      }),
    });
    expect(registered.status).toBe(200);
    await page.getByLabel('Phone number id').fill(meta.phoneNumberId);
    await page.getByLabel('WhatsApp Business Account id').fill(meta.businessAccountId);
    await page.getByLabel('Access token').fill('EAAnotthetoken');
    await page.getByLabel('App secret').fill(secrets.appSecret);
    await page.getByRole('button', { name: 'Connect number' }).click();
    await page.getByText('Meta did not accept this access token').waitFor();
    await page.getByLabel('Access token').fill(secrets.accessToken);
    await page.getByRole('button', { name: 'Connect number' }).click();
    await page.getByText('GREEN').waitFor();
    await page.getByText('TIER_1K').waitFor();
    await page.getByText(`${base}/api/webhooks/whatsapp`, { exact: true }).waitFor();
    await page.getByText(/^parley_/).waitFor();
    await screenshot(page, '25-settings-real-number');
  });
});
