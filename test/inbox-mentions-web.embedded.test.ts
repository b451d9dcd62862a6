import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeProblems } from './support/axe.js';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';
import { until } from './support/until.js';

// Done when (issue 32): the owner @mentions an invited teammate in a note; the teammate, in a browser
// of their own, sees the notice arrive live and opens the conversation from it; the owner sees the
// teammate viewing it, then replying while they type.
describe.skipIf(!hasChromium)('mentions and presence in the web app', { timeout: 240_000 }, () => {
  const app = appInBrowserForTests();
  let owner: Page;
  let tara: Page;
  let call: Awaited<ReturnType<typeof app.setUpByApi>>;
  let contactId: string;

  beforeAll(async () => {
    owner = app.page;
    call = await app.setUpByApi();
    const invite = await call('POST', '/invitations', { email: 'tara@example.com', role: 'member' });
    tara = await app.acceptInvitation(String(invite.url), 'Tara Singh');

    await app.sim('POST', '/inbound', {
      from: '919812300001',
      name: 'Meera Shah',
      message: { type: 'text', text: { body: 'Where is my order?' } },
    });
    const inbox = async () => (await call('GET', '/inbox')).conversations as { contact_id: string }[];
    await until(async () => (await inbox()).length === 1, 15_000);
    contactId = (await inbox())[0]!.contact_id;
  }, 180_000);

  it('mentions a teammate who sees the notice, and shows the presence of a second teammate', async () => {
    await owner.goto(`${app.base}/messages/${contactId}`);
    await owner.getByRole('heading', { name: 'Meera Shah' }).waitFor();
    await owner.getByRole('tab', { name: 'Internal note' }).click();
    const box = owner.getByRole('combobox', { name: 'Note' });
    await box.fill('Could you call her back, @ta');
    const list = owner.getByRole('listbox', { name: 'Teammates to mention' });
    await list.getByRole('option', { name: /Tara Singh/ }).waitFor();
    // Narrowed by what was typed: the owner's own name does not match "ta".
    expect(await list.getByRole('option').count()).toBe(1);
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(await axeProblems(owner, 'the mention list')).toEqual([]);
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('Could you call her back, @Tara Singh ');
    await box.pressSequentially('please?');
    await owner.getByRole('button', { name: 'Add note' }).click();
    // The note shows the mention as a name.
    await owner.locator('mark.mention', { hasText: '@Tara Singh' }).waitFor();

    // Tara's bell counts it, live, wherever she is in the app.
    const bell = tara.getByRole('button', { name: /Mentions/ });
    await expect.poll(() => bell.textContent(), { timeout: 10_000 }).toContain('1 unread');
    await bell.click();
    const panel = tara.getByRole('region', { name: 'Mentions' });
    const notice = panel.getByRole('button', { name: /Asha Rao mentioned you in Meera Shah/ });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Could you call her back, @Tara Singh please?');
    expect(await axeProblems(tara, 'the mentions list')).toEqual([]);
    await screenshot(tara, 'mentions-list');
    await notice.click();
    await tara.getByRole('heading', { name: 'Meera Shah' }).waitFor();
    expect(new URL(tara.url()).pathname).toBe(`/messages/${contactId}`);
    await expect.poll(() => bell.textContent()).not.toContain('unread');

    // The owner, on the same conversation, sees Tara there, then replying as she types.
    const presence = owner.locator('.conversation-head').getByRole('status');
    await presence.getByText('Tara Singh is viewing').waitFor({ timeout: 10_000 });
    await tara.getByRole('textbox', { name: 'Reply' }).pressSequentially('Hello Meera, ');
    await presence.getByText('Tara Singh is replying').waitFor({ timeout: 10_000 });
    // And Tara sees the owner, never herself.
    const taraSees = tara.locator('.conversation-head').getByRole('status');
    await taraSees.getByText('Asha Rao is viewing').waitFor();
    expect(await tara.getByText(/Tara Singh is/).count()).toBe(0);
    // The list marks the conversation someone has open.
    expect(await owner.getByRole('link', { name: /Meera Shah.*Tara Singh is replying/ }).count()).toBe(1);
    await screenshot(owner, 'mentions-presence');
  });

  it('lists older mentions when asked, twenty at a time', async () => {
    const { members } = (await call('GET', '/team')) as { members: { id: string; name: string }[] };
    const taraId = members.find((m) => m.name === 'Tara Singh')!.id;
    for (let k = 1; k <= 21; k++)
      await call('POST', `/conversations/${contactId}/notes`, { text: `Mention ${k} <@${taraId}>` });
    const bell = tara.getByRole('button', { name: /Mentions/ });
    await expect.poll(() => bell.textContent(), { timeout: 10_000 }).toContain('21 unread');
    await bell.click();
    const panel = tara.getByRole('region', { name: 'Mentions' });
    const notices = panel.getByRole('button', { name: /mentioned you in Meera Shah/ });
    await expect.poll(() => notices.count()).toBe(20);
    expect(await panel.getByText('Mention 1 @Tara Singh', { exact: true }).count()).toBe(0);
    await panel.getByRole('button', { name: 'Older mentions' }).click();
    // The last one and the first test's, then no more to ask for.
    await panel.getByText('Mention 1 @Tara Singh', { exact: true }).waitFor();
    await expect.poll(() => notices.count()).toBe(22);
    await panel.getByRole('button', { name: 'Older mentions' }).waitFor({ state: 'detached' });
    // Marking all read reaches the older ones too.
    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(() => panel.getByText('(unread)').count()).toBe(0);
    expect(await axeProblems(tara, 'the mentions list, paged')).toEqual([]);
  });
});
