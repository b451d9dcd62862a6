import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AppInBrowser, appInBrowserForTests, hasChromium } from './support/browser.js';

// The page's global object (the tests compile without the DOM's types).
declare const window: object;

// Issue 18, the web app as a team's daily tool: what a teammate, the REST API or a form adds shows up
// on an open Contacts or Leads page without a reload.
describe.skipIf(!hasChromium)('contacts and leads kept live in the browser', { timeout: 120_000 }, () => {
  const running = appInBrowserForTests();
  let page: Page;
  let app: Awaited<ReturnType<AppInBrowser['setUpByApi']>>;
  let apiKey: string;

  beforeAll(async () => {
    page = running.page;
    app = await running.setUpByApi();
    apiKey = String((await app('POST', '/api-keys', { name: 'Live test' })).key);
  });

  const upsert = async (body: Record<string, unknown>) => {
    const res = await fetch(`${running.base}/api/v1/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.text()).toBeLessThan(300);
  };
  // Set once the page is open: a reload would lose it.
  const markLoad = () => page.evaluate(() => Object.assign(window, { sameLoad: true }));
  const sameLoad = () => page.evaluate(() => 'sameLoad' in window);

  it('shows a contact created through the REST API in the open Contacts list', async () => {
    await page.goto(`${running.base}/contacts`);
    await page.getByText('No contacts yet').waitFor();
    await markLoad();
    await upsert({ phone: '+91 98111 22233', name: 'Meera Shah' });
    await page.getByRole('link', { name: 'Meera Shah' }).waitFor({ timeout: 5_000 });
    expect(await sameLoad()).toBe(true);
  });

  it('follows a contact changed and erased elsewhere on its own page', async () => {
    await page.getByRole('link', { name: 'Meera Shah' }).click();
    await page.getByRole('heading', { name: 'Meera Shah' }).waitFor();
    await upsert({ phone: '+91 98111 22233', name: 'Meera S. Shah', tags: ['vip'] });
    await page.getByRole('heading', { name: 'Meera S. Shah' }).waitFor({ timeout: 5_000 });
    const { contacts } = (await app('GET', '/contacts')) as { contacts: { id: string }[] };
    // Deleted by a teammate (this session's API, outside the page).
    await app('DELETE', `/contacts/${contacts[0]!.id}`);
    await page.getByText('No contact with that id').waitFor({ timeout: 5_000 });
    expect(await sameLoad()).toBe(true);
  });

  it('shows a lead submitted to a form in the open Leads list', async () => {
    const form = await app('POST', '/forms', { name: 'Website', active: true });
    await page.locator('nav').getByRole('link', { name: 'Leads' }).click();
    await page.getByText('No leads yet').waitFor();
    await markLoad();
    const res = await fetch(`${running.base}/api/forms/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: form.token, name: 'Ravi Kumar', phone: '+91 98111 44455' }),
    });
    expect(res.status).toBe(201);
    await page.getByRole('link', { name: 'Ravi Kumar' }).waitFor({ timeout: 5_000 });
    expect(await sameLoad()).toBe(true);
  });

  it('shows a teammate’s note on the open lead page, keeping the note being written', async () => {
    await page.getByRole('link', { name: 'Ravi Kumar' }).click();
    await page.getByText('No notes yet.').waitFor();
    await page.getByLabel('Add a note').fill('Half written');
    const { leads } = (await app('GET', '/leads')) as { leads: { id: string }[] };
    await app('POST', `/leads/${leads[0]!.id}/notes`, { body: 'Called back, wants a demo' });
    await page.getByText('Called back, wants a demo').waitFor({ timeout: 5_000 });
    expect(await page.getByLabel('Add a note').inputValue()).toBe('Half written');
    expect(await sameLoad()).toBe(true);
  });
});
