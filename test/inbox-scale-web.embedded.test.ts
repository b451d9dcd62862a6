import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/pglite.js';
import { hasChromium, launchBrowser, screenshot } from './support/browser.js';
import { freePort, type RunningServer, startServer, tempDataDir } from './support/cli.js';
import { seedInbox } from './support/seed-inbox.mjs';

const CONVERSATIONS = 100_000;
const MESSAGES = 1_000_000;

// Issue 32's "Done when", the list's part: with 100,000 conversations the list scrolls (page by page,
// virtual) to the very last one, and typing part of a message finds its conversation, marked.
describe.skipIf(!hasChromium)('the inbox at 100,000 conversations', { timeout: 900_000 }, () => {
  const data = tempDataDir();
  let port: number;
  let server: RunningServer | undefined;
  let browser: Browser;
  let page: Page;
  const start = async () => {
    server = await startServer([], { DATA_DIR: data.dir, PORT: String(port), LOG_LEVEL: 'warn' });
  };

  beforeAll(async () => {
    port = await freePort();
    await start();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(30_000);
    const res = await page.request.post(`${server!.url}/api/app/setup`, {
      headers: { 'x-parley-csrf': '1' },
      data: {
        email: 'asha@example.com',
        password: 'a long enough password',
        name: 'Asha Rao',
        workspace_name: 'Acme Foods',
        default_country_code: '91',
      },
    });
    expect(res.status(), await res.text()).toBeLessThan(300);
    // PGlite is the server's alone: stopped, seeded, started again on the same data (the session holds).
    await server!.stop();
    const db = await openPglite(join(data.dir, 'pg'));
    const { rows } = await db.query<{ workspace_id: string; user_id: string }>(
      'SELECT workspace_id, user_id FROM memberships',
    );
    const began = performance.now();
    await seedInbox(db, rows[0]!.workspace_id, {
      conversations: CONVERSATIONS,
      messages: MESSAGES,
      assigneeId: rows[0]!.user_id,
    });
    console.log(
      `seeded ${CONVERSATIONS} conversations, ${MESSAGES} messages in ${Math.round((performance.now() - began) / 1000)} s`,
    );
    await db.close();
    await start();
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    data.remove();
  });

  const list = () => page.locator('.conversation-scroll');

  it('scrolls the list to the oldest conversation, loading pages as it goes', async () => {
    await page.goto(`${server!.url}/messages?filter=all`);
    // The newest: contact 99,999 (message 999,999). Counts stop at 1,000.
    await page.getByRole('link', { name: /Kabir Reddy 99999/ }).waitFor();
    await page.getByRole('button', { name: 'All', exact: true }).getByText('1,000+').waitFor();
    // Only the rows in view are in the page, however far it scrolls.
    expect(await list().locator('li').count()).toBeLessThan(60);
    const oldest = page.getByRole('link', { name: /Meera Shah 0\b/ });
    const began = performance.now();
    while (!(await oldest.isVisible())) {
      await list().evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await page.waitForTimeout(50);
    }
    console.log(
      `scrolled to the last of ${CONVERSATIONS} conversations in ${Math.round((performance.now() - began) / 1000)} s`,
    );
    expect(await list().locator('li').count()).toBeLessThan(60);
    expect(await list().locator('li').last().getAttribute('aria-posinset')).toBe(String(CONVERSATIONS));
    await screenshot(page, 'inbox-scale-01-oldest');
  });

  it('finds a conversation by typing part of a message, the match marked', async () => {
    const search = page.getByLabel('Search conversations');
    // Message 123,457 is contact 23,457's ("ref 123457"): typed as a person would, no Enter.
    await search.pressSequentially('ref 123457', { delay: 40 });
    const row = page.getByRole('link', { name: /Rohan Mehta 23457/ });
    await row.locator('mark', { hasText: 'ref 123457' }).waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('ref 123457');
    expect(await list().locator('li').count()).toBe(1);
    await screenshot(page, 'inbox-scale-02-found');
    await row.click();
    await page.locator('.bubble', { hasText: 'ref 123457' }).waitFor();
  });
});
