import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeProblems } from './support/axe.js';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';

// Done when (issue 30): a team of members invited and signed in as people are, one away and one full
// (the team's cap reached); new customers' conversations go round robin to the others, skipping
// those two, and the inbox shows who has each and in which team.
describe.skipIf(!hasChromium)('teams and automatic assignment in the web app', { timeout: 240_000 }, () => {
  const app = appInBrowserForTests();
  let page: Page;
  let call: Awaited<ReturnType<typeof app.setUpByApi>>;
  const pages: Record<string, Page> = {};

  /** An invited member who accepts in a browser of their own and keeps the app open. */
  const join = async (name: string, email: string) => {
    const invite = await call('POST', '/invitations', { email, role: 'member' });
    pages[name] = await app.acceptInvitation(String(invite.url), name);
  };

  let phone = 919812300000;
  /** A new customer writes in; answers their phone once the inbox lists them. */
  const customerWrites = async (name: string) => {
    const from = String(phone++);
    await app.sim('POST', '/inbound', {
      from,
      name,
      message: { type: 'text', text: { body: `Hi, ${name} here` } },
    });
    return from;
  };
  type Row = { contact_id: string; name: string; phone: string };
  const inbox = async () => (await call('GET', '/inbox')).conversations as Row[];
  const row = (name: string) => page.getByRole('link', { name: new RegExp(`^${name}\\b`) });

  beforeAll(async () => {
    ({ page } = app);
    call = await app.setUpByApi();
    await join('Ben Kumar', 'ben@example.com');
    await join('Cara Singh', 'cara@example.com');
    await join('Dev Patel', 'dev@example.com');
  }, 180_000);

  it('assigns new conversations round robin among the available members, skipping one away and one full', async () => {
    // Dev already looks after two customers: with a cap of two, Dev is full.
    const team = (await call('GET', '/team')).members as { id: string; name: string }[];
    const dev = team.find((m) => m.name === 'Dev Patel')!;
    for (const name of ['Early One', 'Early Two']) {
      await customerWrites(name);
      await expect.poll(async () => (await inbox()).length, { timeout: 15_000 }).toBeGreaterThan(0);
    }
    await expect.poll(async () => (await inbox()).length, { timeout: 15_000 }).toBe(2);
    for (const c of await inbox())
      await call('PATCH', `/conversations/${c.contact_id}`, { assignee_id: dev.id });

    // Cara goes away with the switch beside her name.
    const cara = pages['Cara Singh']!;
    await cara.getByRole('switch', { name: 'Available for new conversations' }).click();
    await expect.poll(() => cara.getByTestId('my-availability').textContent()).toBe('Away');

    // The owner makes the team in Settings and sends new conversations to it.
    await page.goto(`${app.base}/settings`);
    await page.getByRole('tab', { name: 'Teams and assignment' }).click();
    await page.getByLabel('Team name').fill('Support');
    await page.getByLabel('Most open conversations per member').fill('0');
    for (const name of ['Asha Rao', 'Ben Kumar', 'Cara Singh', 'Dev Patel'])
      await page.getByRole('checkbox', { name }).check();
    await page.getByRole('button', { name: 'Create team' }).click();
    // Out of range is said next to the field.
    await page.getByText('Use 1 or more.').waitFor();
    await page.getByLabel('Most open conversations per member').fill('2');
    await page.getByRole('button', { name: 'Create team' }).click();
    const card = page.getByRole('region', { name: 'Team Support' });
    await card.waitFor();
    await expect
      .poll(() => card.getByTestId('team-member').allTextContents())
      .toEqual([
        expect.stringMatching(/^Asha Rao.*Available.*0 open$/),
        expect.stringMatching(/^Ben Kumar.*Available.*0 open$/),
        expect.stringMatching(/^Cara Singh.*Away.*0 open$/),
        expect.stringMatching(/^Dev Patel.*Available.*2 open \(full\)$/),
      ]);
    await page.getByLabel('New conversations go to').selectOption({ label: 'Support' });
    await page.getByRole('button', { name: 'Save assignment' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await screenshot(page, 'teams-settings');
    expect(await axeProblems(page, 'Settings › Teams and assignment')).toEqual([]);

    // Five new customers: Asha and Ben in turn until both hold two; the fifth waits in the team.
    const customers = ['Ravi', 'Meera', 'Sunil', 'Lata', 'Arjun'];
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
    for (const name of customers) {
      await customerWrites(name);
      await row(name).waitFor();
    }
    const expected: Record<string, string> = {
      Ravi: 'Asha Rao',
      Meera: 'Ben Kumar',
      Sunil: 'Asha Rao',
      Lata: 'Ben Kumar',
    };
    for (const [name, who] of Object.entries(expected)) {
      await expect.poll(() => row(name).textContent()).toContain(`→ ${who}`);
      expect(await row(name).textContent()).toContain('Support');
    }
    const waiting = (await row('Arjun').textContent()) ?? '';
    expect(waiting).toContain('Support');
    expect(waiting).not.toContain('→');

    // The conversation shows its team; Ben sees his own in "Mine".
    await row('Meera').click();
    await expect.poll(() => page.getByLabel('Team').inputValue()).not.toBe('');
    expect(await page.getByLabel('Assigned to').locator('option:checked').textContent()).toBe('Ben Kumar');
    await screenshot(page, 'teams-inbox');
    const ben = pages['Ben Kumar']!;
    await ben.goto(`${app.base}/messages?filter=mine`);
    await ben.getByRole('link', { name: /^Meera\b/ }).waitFor();
    await ben.getByRole('link', { name: /^Lata\b/ }).waitFor();
    expect(await ben.getByRole('link', { name: /^Ravi\b/ }).count()).toBe(0);

    // Cara comes back: the waiting customer writes again and goes to her.
    await cara.getByRole('switch', { name: 'Available for new conversations' }).click();
    await expect.poll(() => cara.getByTestId('my-availability').textContent()).toBe('Online');
    const arjun = (await inbox()).find((c) => c.name === 'Arjun')!;
    await app.sim('POST', '/inbound', {
      from: arjun.phone,
      name: 'Arjun',
      message: { type: 'text', text: { body: 'Anyone?' } },
    });
    await expect.poll(() => row('Arjun').textContent()).toContain('→ Cara Singh');
  });
});
