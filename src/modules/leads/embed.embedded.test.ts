import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser } from '../../../test/support/browser.js';
import { leadsOf } from '../../../test/support/intake.js';
import { simulatorAppForTests } from '../../../test/support/messaging.js';
import { createForm } from '../forms/create-form.js';
import { embedSnippets } from '../forms/embed-snippets.js';
import { escapeHtml } from '../forms/html.js';

if (!hasChromium)
  console.warn(
    '[embed browser test] SKIPPED: no Chromium at /usr/bin/chromium (apt-get install -y chromium)',
  );

const HOSTILE_LABEL = '<img src=x onerror="window.pwned=1">Company';

// The three ways a form reaches people, in a real browser: the embed script and the plain HTML
// snippet on a page of another origin (another loopback port), and the hosted page.
describe.skipIf(!hasChromium)('forms in a browser', () => {
  const t = simulatorAppForTests();
  let site: Server;
  let siteUrl: string;
  let browser: Browser;
  let page: Page;
  const pages = new Map<string, string>();

  beforeAll(async () => {
    site = createServer((req, res) => {
      const html = pages.get(req.url ?? '');
      res
        .writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
        .end(html ?? 'not found');
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    // "localhost" here, "127.0.0.1" for Parley: another host and port, so another origin.
    siteUrl = `http://localhost:${(site.address() as { port: number }).port}`;
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(15_000);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => site?.close(r));
  });

  const customerPage = (path: string, body: string) => {
    pages.set(
      path,
      `<!doctype html><html><head><meta charset="utf-8"><title>Customer site</title></head><body><h1>Acme</h1>${body}</body></html>`,
    );
    return `${siteUrl}${path}`;
  };

  it('the embed script renders the form on another origin and posts it with fetch (CORS)', async () => {
    const ws = await t.workspace({ defaultCountryCode: '91' });
    const form = await createForm(t.ctx.db, ws.id, {
      name: 'Talk to us',
      thankYouMessage: 'Thanks, we will call you!',
      fields: [
        { name: 'name', label: 'Your name', type: 'text', required: true },
        { name: 'phone', label: 'Phone', type: 'tel', required: false },
        { name: 'company', label: HOSTILE_LABEL, type: 'text', required: false },
        { name: 'size', label: 'Team size', type: 'select', required: false, options: ['1-10', '11-50'] },
      ],
    });
    const url = customerPage(
      '/embed',
      `<div id="slot"></div><script src="${t.base}/f/${form.token}/embed.js" data-target="#slot" async></script>`,
    );
    await page.goto(url);
    await page.getByLabel('Your name *').fill('Asha');
    await page.getByLabel('Phone').fill('98765 43210');
    await page.getByLabel(HOSTILE_LABEL).fill('Acme & Co');
    await page.getByLabel('Team size').selectOption('11-50');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Thanks, we will call you!').waitFor();
    expect(page.url()).toBe(url);
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    const [lead] = await leadsOf(t, ws.id);
    expect(lead).toMatchObject({
      name: 'Asha',
      phone: '919876543210',
      fields: { company: 'Acme & Co', size: '11-50' },
    });
  });

  it('the embed script shows the error the endpoint gives beside its field', async () => {
    const ws = await t.workspace({ defaultCountryCode: null });
    const form = await createForm(t.ctx.db, ws.id);
    await page.goto(
      customerPage('/embed-error', `<script src="${t.base}/f/${form.token}/embed.js"></script>`),
    );
    await page.getByLabel('Phone (with country code)').fill('98765 43210');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').getByText('Please correct the fields marked above.').waitFor();
    const phone = page.getByLabel('Phone (with country code)');
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    const said = await page.locator(`[id="${await phone.getAttribute('aria-describedby')}"]`).textContent();
    expect(said).toMatch(/^9876543210 is not a valid international number: add the country code/);
    expect(await phone.inputValue()).toBe('98765 43210');
    expect(await leadsOf(t, ws.id)).toEqual([]);
  });

  it('the plain HTML snippet posts without JavaScript and lands on the thank-you page', async () => {
    const ws = await t.workspace();
    const form = await createForm(t.ctx.db, ws.id, { thankYouMessage: 'Got it <3' });
    const codes = (await embedSnippets(t.ctx.db, t.base, ws.id, form.id))!;
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    try {
      const plain = await noJs.newPage();
      await plain.goto(customerPage('/snippet', codes.html));
      await plain.getByLabel('E-mail').fill('plain@example.com');
      await plain.getByRole('button', { name: 'Send' }).click();
      await plain.getByText('Got it <3').waitFor();
      expect(plain.url()).toBe(`${t.base}/api/forms/submit`);
    } finally {
      await noJs.close();
    }
    const [lead] = await leadsOf(t, ws.id);
    expect(lead).toMatchObject({ email: 'plain@example.com', source_id: form.id });
  });

  it('the hosted page takes a submission and follows the redirect URL', async () => {
    const ws = await t.workspace();
    const thanks = customerPage('/thanks', '<p id="done">Thanks page</p>');
    const form = await createForm(t.ctx.db, ws.id, {
      name: `Hosted ${escapeHtml('&')}`,
      redirectUrl: thanks,
    });
    await page.goto(`${t.base}/f/${form.token}`);
    await page.getByRole('heading', { name: 'Hosted &amp;' }).waitFor();
    await page.getByLabel('E-mail').fill('hosted@example.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(thanks);
    await page.locator('#done').waitFor();
    expect(await leadsOf(t, ws.id)).toHaveLength(1);
  });
});
