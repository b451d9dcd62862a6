import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/pglite.js';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';
import { triageWithKeys } from './support/keyboard-triage.js';
import { seedInbox } from './support/seed-inbox.mjs';
import { until } from './support/until.js';

const CONVERSATIONS = 100_000;
const MESSAGES = 1_000_000;
const NEW_CUSTOMERS = 20;
const LABELLED = 30;

type Row = { contact_id: string; name: string; state: string; assignee_name: string | null };

// Issue 32's "Done when", at scale: an owner and an invited teammate with 100,000 conversations
// (1,000,000 messages). The list scrolls (page by page, virtual) to the very last one; typing part of
// a message finds its conversation, marked; twenty new customers are triaged with the keyboard
// alone; a label-filtered set is resolved at once; the owner mentions the teammate, who sees the
// notice, and each sees the other on the conversation.
describe.skipIf(!hasChromium)('the inbox at 100,000 conversations', { timeout: 900_000 }, () => {
  const running = appInBrowserForTests();
  let page: Page;
  let tara: Page;
  let app: Awaited<ReturnType<typeof running.setUpByApi>>;
  const inbox = async (query: string) => (await app('GET', `/inbox?${query}`)).conversations as Row[];

  beforeAll(async () => {
    page = running.page;
    page.setDefaultTimeout(30_000);
    app = await running.setUpByApi();
    const invite = await app('POST', '/invitations', { email: 'tara@example.com', role: 'member' });
    // PGlite is the server's alone: stopped, seeded, started again on the same data (the session holds).
    await running.restart(async (dir) => {
      const db = await openPglite(join(dir, 'pg'));
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
    });
    tara = await running.acceptInvitation(String(invite.url), 'Tara Singh');
    tara.setDefaultTimeout(30_000);
  }, 900_000);

  const list = () => page.locator('.conversation-scroll');

  it('scrolls the list to the oldest conversation, loading pages as it goes', async () => {
    await page.goto(`${running.base}/messages?filter=all`);
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

  it('triages twenty new customers with the keyboard alone', async () => {
    for (let n = 0; n < NEW_CUSTOMERS; n++)
      await running.sim('POST', '/inbound', {
        from: `9198200${String(10_000 + n)}`,
        name: `New customer ${n}`,
        text: `Question ${n}`,
      });
    const newest = async () => (await inbox(`filter=open&limit=${NEW_CUSTOMERS}`)).map((r) => r.name);
    await until(async () => (await newest()).every((name) => name.startsWith('New customer')));
    await page.goto(`${running.base}/messages`);
    await page.getByRole('link', { name: /New customer 19/ }).waitFor();
    const done = await triageWithKeys(page, NEW_CUSTOMERS, 'Asha Rao');
    // The twenty new ones, each answered what it asked, and no seeded conversation touched.
    const rows = await inbox('filter=all&limit=50');
    const fresh = rows.filter((r) => r.name.startsWith('New customer'));
    expect(fresh).toHaveLength(NEW_CUSTOMERS);
    expect(new Set(fresh.map((r) => r.contact_id))).toEqual(new Set(done.keys()));
    for (const r of fresh) {
      expect(r).toMatchObject({ state: 'resolved', assignee_name: 'Asha Rao' });
      expect(r.name).toBe(`New customer ${done.get(r.contact_id)}`);
    }
    expect((await newest()).some((name) => name.startsWith('New customer'))).toBe(false);
  });

  it('resolves a label-filtered set at once', async () => {
    const label = (await app('POST', '/labels', { name: 'Refund', colour: 'red' })).label as { id: string };
    // Thirty open seeded conversations spread over the whole inbox: 1 + 3,325k is neither a fifth
    // (resolved) nor a seventh (pending).
    const ids = Array.from({ length: LABELLED }, (_, k) => `seed_${1 + k * 3_325}`);
    await app('POST', '/conversations/bulk', { ids, action: 'label', label_id: label.id });
    await page.goto(`${running.base}/messages`);
    await page.getByLabel('Label', { exact: true }).selectOption({ label: 'Refund' });
    // The list is virtual: it draws the rows in view and says how many it holds.
    await page.locator(`[aria-posinset="1"][aria-setsize="${LABELLED}"]`).waitFor();
    await page.getByLabel('Select all shown').check();
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    await bar.getByText(`${LABELLED} conversations selected`).waitFor();
    await bar.getByRole('button', { name: 'Resolve', exact: true }).click();
    await bar.getByRole('button', { name: `Resolve ${LABELLED} conversations` }).click();
    await bar.getByText(`Resolve: ${LABELLED} done.`).waitFor();
    await expect.poll(() => page.locator('.conversation-list li').count()).toBe(0);
    await screenshot(page, 'inbox-scale-03-bulk-resolved');
    const labelled = await inbox(`filter=all&label=${label.id}&limit=50`);
    expect(labelled.map((r) => r.contact_id).sort()).toEqual([...ids].sort());
    for (const r of labelled) expect(r.state).toBe('resolved');
    // Only those: the open conversation beside one of them is untouched.
    expect((await app('GET', '/conversations/seed_2')).conversation).toMatchObject({ state: 'open' });
  });

  it('mentions a teammate who sees the notice, and shows the presence of the second teammate', async () => {
    await running.sim('POST', '/inbound', {
      from: '919820099999',
      name: 'Dev Patel',
      text: 'Can someone call me about my refund?',
    });
    await until(async () => (await inbox('filter=open&limit=1'))[0]?.name === 'Dev Patel');
    const [dev] = await inbox('filter=open&limit=1');
    await page.goto(`${running.base}/messages/${dev!.contact_id}`);
    await page.getByRole('heading', { name: 'Dev Patel' }).waitFor();
    await page.getByRole('tab', { name: 'Internal note' }).click();
    const box = page.getByRole('combobox', { name: 'Note' });
    await box.fill('Tara, this one is yours: @ta');
    await page
      .getByRole('listbox', { name: 'Teammates to mention' })
      .getByRole('option', { name: /Tara Singh/ })
      .waitFor();
    await box.press('Enter');
    await box.pressSequentially('thanks');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.locator('mark.mention', { hasText: '@Tara Singh' }).waitFor();

    const bell = tara.getByRole('button', { name: /Mentions/ });
    await expect.poll(() => bell.textContent(), { timeout: 15_000 }).toContain('1 unread');
    await bell.click();
    const notice = tara
      .getByRole('region', { name: 'Mentions' })
      .getByRole('button', { name: /Asha Rao mentioned you in Dev Patel/ });
    await notice.click();
    await tara.getByRole('heading', { name: 'Dev Patel' }).waitFor();

    const presence = page.locator('.conversation-head').getByRole('status');
    await presence.getByText('Tara Singh is viewing').waitFor({ timeout: 15_000 });
    await tara.getByRole('textbox', { name: 'Reply' }).pressSequentially('Hello Dev, ');
    await presence.getByText('Tara Singh is replying').waitFor({ timeout: 15_000 });
    await tara.locator('.conversation-head').getByRole('status').getByText('Asha Rao is viewing').waitFor();
    await screenshot(page, 'inbox-scale-04-presence');
  });
});
