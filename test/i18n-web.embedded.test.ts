import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import arAuth from '../web/src/i18n/locales/ar/auth.json' with { type: 'json' };
import arSettings from '../web/src/i18n/locales/ar/settings.json' with { type: 'json' };
import ar from '../web/src/i18n/locales/ar/shell.json' with { type: 'json' };
import en from '../web/src/i18n/locales/en/shell.json' with { type: 'json' };
import hi from '../web/src/i18n/locales/hi/shell.json' with { type: 'json' };
import { axeProblems } from './support/axe.js';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';

const NAV_KEYS = [
  'home',
  'contacts',
  'leads',
  'inbox',
  'templates',
  'broadcasts',
  'forms',
  'flows',
  'sequences',
  'settings',
] as const;

// Issue 34: a person picks the app's language in the user menu; Arabic lays it out right to left.
describe.skipIf(!hasChromium)('the app in the team’s language', { timeout: 240_000 }, () => {
  const running = appInBrowserForTests();
  let page: Page;
  let base: string;

  beforeAll(async () => {
    ({ base, page } = running);
    await running.setUpByApi();
  }, 120_000);

  // Each link's text after its icon.
  const navLabels = async () =>
    (await page.locator('nav .nav-item').allInnerTexts()).map((text) => text.split('\n').at(-1));
  const html = () =>
    page.evaluate('({ lang: document.documentElement.lang, dir: document.documentElement.dir })') as Promise<{
      lang: string;
      dir: string;
    }>;
  /** Every label the shell and the Settings page show: nav, tabs, headings, the user menu's buttons. */
  const labels = () =>
    page
      .locator('nav .nav-item, [role=tab], main h1, main h2, .sidebar-foot button, .sidebar-foot label')
      .allInnerTexts();

  /** Axe finds nothing, and screenshots at desktop and phone width (the menu open). */
  const lookAt = async (language: string) => {
    expect(await axeProblems(page, `${language}, desktop`)).toEqual([]);
    await screenshot(page, `i18n-${language}-desktop`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.topbar button').click();
    await page.locator('.menu-open').waitFor();
    expect(await axeProblems(page, `${language}, phone`)).toEqual([]);
    await screenshot(page, `i18n-${language}-phone`);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 800 });
  };

  it('shows the pages before sign-in in the browser’s language: Arabic, right to left, then the app in it', async () => {
    const context = await running.browser.newContext({
      locale: 'ar',
      viewport: { width: 1280, height: 800 },
    });
    const theirs = await context.newPage();
    theirs.setDefaultTimeout(15_000);
    const theirHtml = () =>
      theirs.evaluate('({ lang: document.documentElement.lang, dir: document.documentElement.dir })');
    await theirs.goto(base);
    await theirs.getByRole('heading', { name: arAuth.login.title }).waitFor();
    expect(await theirHtml()).toEqual({ lang: 'ar', dir: 'rtl' });
    expect(await theirs.locator('.untranslated').count()).toBe(0);
    expect(await theirs.title()).toBe(`${arAuth.login.title} · Parley`);
    expect(await axeProblems(theirs, 'ar, sign-in')).toEqual([]);
    await screenshot(theirs, 'i18n-ar-sign-in');
    // This server sends no mail: the way to a reset link, the command left to right inside the Arabic sentence.
    await theirs.getByRole('link', { name: arAuth.login.forgot }).click();
    await theirs.getByRole('heading', { name: arAuth.forgot.title }).waitFor();
    expect(await theirs.locator('main code').getAttribute('dir')).toBe('ltr');
    expect(await axeProblems(theirs, 'ar, forgot password')).toEqual([]);
    await theirs.getByRole('link', { name: arAuth.backToSignIn }).click();
    await theirs.getByLabel(arAuth.email).fill('asha@example.com');
    await theirs.getByLabel(arAuth.password).fill('a long enough password');
    await theirs.getByRole('button', { name: arAuth.login.submit }).click();
    // No language chosen yet: the app stays in the browser's.
    await theirs.locator('nav').getByRole('link', { name: ar.nav.inbox }).waitFor();
    expect(await theirHtml()).toEqual({ lang: 'ar', dir: 'rtl' });
    await context.close();
  });

  let english: string[];

  it('starts in the browser’s language (English), and says so in the picker', async () => {
    await page.goto(`${base}/settings/plan`);
    await page.getByRole('heading', { name: 'Plan and usage' }).waitFor();
    expect(await html()).toEqual({ lang: 'en', dir: 'ltr' });
    expect(await navLabels()).toEqual(NAV_KEYS.map((k) => en.nav[k]));
    expect(await page.getByLabel('Language').locator('option:checked').innerText()).toBe(
      'As my browser (English)',
    );
    expect(await page.title()).toBe('Settings · Parley');
    english = await labels();
    expect(english).toContain('Sign out');
    expect(english).toContain('Plan & usage');
  });

  it('switches to Arabic at once: right to left, the navigation and the page in Arabic, nothing for axe', async () => {
    await page.getByLabel('Language').selectOption('ar');
    await expect.poll(html).toEqual({ lang: 'ar', dir: 'rtl' });
    expect(await navLabels()).toEqual(NAV_KEYS.map((k) => ar.nav[k]));
    await page.getByRole('heading', { name: arSettings.plan.title }).waitFor();
    expect(await page.getByRole('tab', { selected: true }).innerText()).toBe(arSettings.tabs.plan);
    expect(await page.locator('main code').innerText()).toBe('parley plan set');
    expect(await page.title()).toBe(`${ar.nav.settings} · Parley`);
    // The sidebar sits on the right in Arabic (logical properties), the page on its left.
    const sidebar = (await page.locator('.sidebar').boundingBox())!;
    const main = (await page.locator('main').boundingBox())!;
    expect(sidebar.x).toBeGreaterThan(main.x);
    await lookAt('ar');
  });

  it('marks a page not yet in the catalogs as English, left to right, inside the Arabic shell', async () => {
    await page.locator('nav').getByRole('link', { name: ar.nav.contacts }).click();
    await page.getByRole('heading', { name: 'Contacts', exact: true }).waitFor();
    const part = page.locator('main > .untranslated');
    expect([await part.getAttribute('lang'), await part.getAttribute('dir')]).toEqual(['en', 'ltr']);
    await page.locator('nav').getByRole('link', { name: ar.nav.settings }).click();
    await page.getByRole('tab', { name: arSettings.tabs.plan }).click();
    await page.getByRole('heading', { name: arSettings.plan.title }).waitFor();
    expect(await page.locator('main .untranslated').count()).toBe(0);
  });

  it('switches to Hindi from Arabic, left to right again', async () => {
    await page.getByLabel(ar.language.label).selectOption('hi');
    await expect.poll(html).toEqual({ lang: 'hi', dir: 'ltr' });
    expect(await navLabels()).toEqual(NAV_KEYS.map((k) => hi.nav[k]));
    await page.getByRole('button', { name: hi.signOut }).waitFor();
    await lookAt('hi');
  });

  it('keeps the choice across a reload', async () => {
    await page.reload();
    await page.getByRole('button', { name: hi.signOut }).waitFor();
    expect(await html()).toEqual({ lang: 'hi', dir: 'ltr' });
    expect(await navLabels()).toEqual(NAV_KEYS.map((k) => hi.nav[k]));
  });

  it('comes back to English with every label as it was', async () => {
    await page.getByLabel(hi.language.label).selectOption('en');
    await expect.poll(html).toEqual({ lang: 'en', dir: 'ltr' });
    await page.getByRole('heading', { name: 'Plan and usage' }).waitFor();
    expect(await labels()).toEqual(english);
    expect(await page.title()).toBe('Settings · Parley');
    await page.reload();
    await page.getByRole('heading', { name: 'Plan and usage' }).waitFor();
    expect(await labels()).toEqual(english);
    expect(await page.getByLabel('Language').inputValue()).toBe('en');
  });
});
