import type { Page } from 'playwright-core';
import { expect } from 'vitest';

// What the page's evaluate callbacks touch, run in the browser (the tests are typed without the DOM).
interface PageElement {
  id: string;
  tagName: string;
  dataset: Record<string, string | undefined>;
  closest(selector: string): PageElement | null;
}
declare const document: { activeElement: PageElement | null };

/** What has the keyboard's focus: a conversation row's id, or an element's id or tag. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el?.dataset.row ?? el?.id ?? el?.tagName ?? '';
  });

/** Whether the focus is inside a dialog. */
export const focusInDialog = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null);

/**
 * The morning's triage with the keyboard alone, on the inbox's Open list: `count` times, j opens the
 * next conversation, its customer's "Question N" is read, Enter goes to the reply box, Ctrl+Enter
 * sends "Answer to question N", Escape goes back to the row, i assigns it to the person signed in
 * and e resolves it (it leaves the list). `first` runs on the first conversation, back on its row.
 * Answers each conversation's id with the N its customer asked.
 */
export async function triageWithKeys(
  page: Page,
  count: number,
  me: string,
  first?: (id: string) => Promise<void>,
): Promise<Map<string, string>> {
  const done = new Map<string, string>();
  for (let n = 0; n < count; n++) {
    await page.keyboard.press('j');
    // The next conversation opens with its row focused.
    await expect
      .poll(async () => {
        const now = await focused(page);
        return now.startsWith('ct_') && !done.has(now) ? now : '';
      })
      .not.toBe('');
    const id = await focused(page);
    await page.waitForURL(new RegExp(`/messages/${id}`));
    const question = await page.locator('.bubble.inbound').first().innerText();
    const asked = question.match(/Question (\d+)/)?.[1];
    expect(asked, question).toBeDefined();

    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('reply');
    await page.keyboard.type(`Answer to question ${asked}`);
    await page.keyboard.press('Control+Enter');
    await page.locator('.bubble.outbound', { hasText: `Answer to question ${asked}` }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe(id);
    if (n === 0) await first?.(id);

    await page.keyboard.press('i');
    await page.locator(`#conversation-${id}`).getByText(`→ ${me}`).waitFor();
    await page.keyboard.press('e');
    // Resolved, it leaves the "Open" list.
    await expect.poll(() => page.locator(`#conversation-${id}`).count()).toBe(0);
    done.set(id, asked!);
  }
  return done;
}
