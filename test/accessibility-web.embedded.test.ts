import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeProblems } from './support/axe.js';
import { ARTIFACTS, appInBrowserForTests, hasChromium } from './support/browser.js';
import { until } from './support/until.js';

// The page's globals used by the functions run in the browser (the tests compile without the DOM library).
interface PageElement {
  tagName: string;
  textContent: string | null;
  labels?: ArrayLike<{ textContent: string | null }>;
  getAttribute(name: string): string | null;
  matches(selector: string): boolean;
  closest(selector: string): PageElement | null;
  contains(other: PageElement | null): boolean;
  getBoundingClientRect(): { width: number; height: number; left: number; right: number };
}
declare const document: {
  activeElement: PageElement | null;
  body: PageElement;
  querySelector(selector: string): PageElement | null;
};
declare function getComputedStyle(e: PageElement): { outlineStyle: string; outlineWidth: string };
declare const innerWidth: number;

const WEB = join(import.meta.dirname, '../web/src');
const WIDTHS = [1280, 390] as const;
const SHOTS = join(ARTIFACTS, 'screenshots');

/** Every file of the web app's source, with its path from web/src. */
function webSources(dir = WEB): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.includes('.test.'))
    .map((e) => {
      const path = join(e.parentPath, e.name);
      return { file: path.slice(WEB.length + 1), text: readFileSync(path, 'utf8') };
    });
}

/**
 * The route table, read from the source (Shell's `pattern: '...'` entries, App's `match('...')` and `if (path === '...')`
 * outside the shell), so a page added to the router is visited without anyone touching this test.
 */
function routePatterns(): string[] {
  const found = new Set<string>();
  for (const { text } of webSources()) {
    for (const m of text.matchAll(/\bpattern:\s*'([^']*)'/g)) found.add(m[1]!);
    for (const m of text.matchAll(/\bmatch\('([^']+)'/g)) found.add(m[1]!);
    for (const m of text.matchAll(/\bif \(path === '(\/[^']*)'\)/g)) found.add(m[1]!);
  }
  return [...found];
}

/**
 * The dialogs the app opens: the page they are on, the button that opens one, and its title.
 * `everyDialogIsListed` below fails when the source has a dialog title missing here.
 */
interface DialogCase {
  path: (ids: Ids) => string;
  opener: string;
  title: string;
  /** What to do on the page before the opener shows (a form to fill first). */
  prepare?: (page: Page) => Promise<void>;
  /** Opened through ConfirmButton (web/src/confirm.tsx), whose Modal's title is computed from its own. */
  confirmButton?: true;
}
const DIALOGS: DialogCase[] = [
  { path: () => '/contacts', opener: 'Import CSV', title: 'Import contacts from CSV' },
  { path: (ids) => `/messages/${ids.contact}`, opener: 'Send a template', title: 'Send a template' },
  { path: (ids) => `/flows/${ids.flow}`, opener: 'Steps', title: 'Run' },
  { path: () => '/settings/developer', opener: 'Deliveries', title: 'Endpoint' },
  { path: () => '/settings/number', opener: 'Disconnect number', title: 'Disconnect this number?' },
  { path: (ids) => `/inbox/${ids.contact}`, opener: 'Quick replies', title: 'Quick replies' },
  { path: () => '/inbox', opener: 'Manage quick replies', title: 'Manage quick replies' },
  { path: () => '/inbox', opener: 'Keys', title: 'Keyboard shortcuts' },
  { path: () => '/inbox', opener: 'Labels', title: 'Labels' },
  { path: () => '/contacts', opener: 'New contact', title: 'New contact' },
  {
    path: (ids) => `/contacts/${ids.contact}`,
    opener: 'Delete contact',
    title: 'Delete Ravi Kumar?',
    confirmButton: true,
  },
  {
    path: () => '/broadcasts/new',
    prepare: async (page) => {
      await page.getByLabel('Name', { exact: true }).fill('Spring sale');
      await page.getByLabel('Template').selectOption({ label: 'welcome (en) · marketing' });
      for (const text of await page.getByLabel('Text', { exact: true }).all()) await text.fill('friend');
    },
    opener: 'Review and send',
    title: 'Send this broadcast?',
  },
  {
    path: (ids) => `/broadcasts/${ids.broadcast}`,
    opener: 'Cancel broadcast',
    title: 'Cancel this broadcast?',
  },
];

interface Ids {
  contact: string;
  lead: string;
  form: string;
  flow: string;
  sequence: string;
  invite: string;
  formToken: string;
  broadcast: string;
  run: string;
}

/** An address for each route pattern, holding seeded data; null for the ones visited signed out. */
const SAMPLES: Record<string, ((ids: Ids) => string) | null> = {
  '': () => '/',
  '/contacts': () => '/contacts',
  '/contacts/:id': (ids) => `/contacts/${ids.contact}`,
  '/messages': () => '/messages',
  '/messages/:contactId': (ids) => `/messages/${ids.contact}`,
  '/templates': () => '/templates',
  '/templates/new': () => '/templates/new',
  '/broadcasts': () => '/broadcasts',
  '/broadcasts/new': () => '/broadcasts/new',
  '/broadcasts/:id': (ids) => `/broadcasts/${ids.broadcast}`,
  '/runs': () => '/runs',
  '/runs/:id': (ids) => `/runs/${ids.run}`,
  '/leads': () => '/leads',
  '/leads/:id': (ids) => `/leads/${ids.lead}`,
  '/forms': () => '/forms',
  '/forms/:id': (ids) => `/forms/${ids.form}`,
  '/flows': () => '/flows',
  '/flows/new': () => '/flows/new',
  '/flows/:id': (ids) => `/flows/${ids.flow}`,
  '/sequences': () => '/sequences',
  '/sequences/new': () => '/sequences/new',
  '/sequences/:id': (ids) => `/sequences/${ids.sequence}`,
  '/settings': () => '/settings',
  '/settings/:tab': () => '/settings/general',
  '/inbox': () => '/inbox',
  '/inbox/:contactId': (ids) => `/inbox/${ids.contact}`,
  '/invite/:token': null,
  '/reset-password/:token': null,
  '/forgot-password': null,
};

/**
 * Run in the page: null when nothing sticks out past the screen's right edge (the page would scroll
 * sideways), else the first elements that do (outside any box that scrolls or clips them).
 */
const SIDEWAYS = `(() => {
  if (document.documentElement.scrollWidth <= innerWidth) return null;
  const edge = innerWidth + 1;
  // A box that scrolls or clips, inside the screen, hides what sticks out of it; an absolutely
  // positioned element escapes every such box below its containing block.
  const clipped = (e) => {
    let free = getComputedStyle(e).position === 'absolute';
    for (let p = e.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (free && s.position === 'static') continue;
      free = false;
      if (s.overflowX !== 'visible' && p.getBoundingClientRect().right <= edge) return true;
    }
    return false;
  };
  const out = [...document.querySelectorAll('body *')].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.right > edge && !clipped(e);
  });
  const name = (e) => e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/ +/).join('.') : '') + (e.textContent ? ' "' + e.textContent.trim().slice(0, 30) + '"' : '');
  const deepest = out.filter((e) => !out.some((o) => o !== e && e.contains(o)));
  return deepest.slice(0, 3).map((e) => name(e) + ' reaches ' + Math.round(e.getBoundingClientRect().right) + ' px').join('; ') + ' (screen ' + innerWidth + ' px)';
})()`;

describe('the accessibility test knows every page and dialog of the web app', () => {
  it('has an address for every route in the router', () => {
    const patterns = routePatterns();
    expect(patterns.length, 'no route patterns found in web/src: has the route table moved?').toBeGreaterThan(
      15,
    );
    const missing = patterns.filter((p) => !(p in SAMPLES));
    expect(
      missing,
      'routes with no address in SAMPLES of test/accessibility-web.embedded.test.ts: add one so axe visits them',
    ).toEqual([]);
  });

  it('lists every dialog, and every dialog is the shared Modal', () => {
    const unlisted: string[] = [];
    const handRolled: string[] = [];
    for (const { file, text } of webSources()) {
      if (file !== 'ui/Modal.tsx' && /role="dialog"|<dialog\b/.test(text)) handRolled.push(file);
      for (const m of text.matchAll(/<Modal\b[^>]*?\btitle=(?:"([^"]*)"|\{)/g)) {
        // ConfirmButton's title is its caller's: one of them listed checks the shared dialog.
        if (m[1] === undefined) {
          if (file !== 'confirm.tsx' || !DIALOGS.some((d) => d.confirmButton))
            unlisted.push(`${file}: a Modal with a computed title`);
        } else if (!DIALOGS.some((d) => d.title === m[1])) unlisted.push(`${file}: “${m[1]}”`);
      }
    }
    expect(
      handRolled,
      'dialogs not made with Modal from web/src/ui/Modal.tsx (focus trap, Escape, labels)',
    ).toEqual([]);
    expect(unlisted, 'dialogs missing from DIALOGS in test/accessibility-web.embedded.test.ts').toEqual([]);
  });
});

// axe-core over every page and dialog at a desktop and a phone width, on the real server in Chromium.
describe.skipIf(!hasChromium)('accessibility of the web app in a browser', { timeout: 600_000 }, () => {
  const running = appInBrowserForTests();
  let page: Page;
  let base: string;
  let apiKey = '';
  const ids = {} as Ids;

  // biome-ignore lint/suspicious/noExplicitAny: answers are read as the test expects them, field by field
  let app: (method: string, path: string, body?: unknown) => Promise<any>;
  const rest = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown>;
  };

  /** The page has drawn its data: a heading, and no loading indicator left. */
  const settled = async (on: Page = page) => {
    await on.locator('h1').first().waitFor({ state: 'attached' });
    // A busy machine may take more than expect.poll's one second to load a page's data and code.
    await expect.poll(() => on.locator('.loading').count(), { timeout: 10_000 }).toBe(0);
    await on.waitForTimeout(150);
  };
  const shoot = async (on: Page, name: string) => {
    mkdirSync(SHOTS, { recursive: true });
    await on.screenshot({ path: join(SHOTS, `${name.replace(/[^\w-]+/g, '_')}.png`), fullPage: true });
  };

  const problems: string[] = [];
  const check = async (where: string, on: Page = page) => {
    // Seeded ids by name (`/contacts/{contact}`): the same label, and screenshot, on every run.
    const label = Object.entries(ids).reduce((l, [name, id]) => l.replaceAll(id, `{${name}}`), where);
    problems.push(...(await axeProblems(on, label)));
    const sideways = await on.evaluate<string | null>(SIDEWAYS);
    if (sideways) problems.push(`${label}: the page scrolls sideways: ${sideways}`);
    await shoot(on, label);
  };

  beforeAll(async () => {
    ({ base, page } = running);
    rmSync(SHOTS, { recursive: true, force: true });
    // First run: the setup page, before there is an account.
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(base);
      await page.getByRole('heading', { name: 'Welcome to Parley' }).waitFor();
      await check(`${width}px /setup`);
    }

    await page.setViewportSize({ width: 1280, height: 900 });
    app = await running.setUpByApi();
    apiKey = (await app('POST', '/api-keys', { name: 'Website backend' })).key;

    for (const [phone, name, tags] of [
      ['98765 43210', 'Ravi Kumar', ['vip', 'mumbai']],
      ['91234 56789', 'Meera Shah', ['newsletter']],
      ['+14155552671', 'John Appleseed', []],
    ] as const) {
      await rest('POST', '/api/v1/contacts', { phone, name, tags, traits: { plan: 'gold', orders: 3 } });
    }
    await rest('POST', '/api/v1/messages', {
      to: '9876543210',
      template: { name: 'welcome', language: 'en', body: ['Ravi', 'Acme Foods'] },
    });
    // Enough messages that the conversation's thread scrolls.
    for (let i = 1; i <= 14; i++) {
      await running.sim('POST', '/inbound', {
        from: '919876543210',
        text: `Message ${i}: is my order on its way?`,
      });
    }
    const contacts = (await rest('POST', '/api/v1/contacts', { phone: '98765 43210' })) as {
      contact?: { id: string };
      id?: string;
    };
    ids.contact = contacts.contact?.id ?? contacts.id ?? '';
    expect(ids.contact).not.toBe('');

    const form = await app('POST', '/forms', { name: 'Website enquiry', active: true });
    ids.form = form.id;
    ids.formToken = form.token;
    const submitted = await fetch(`${base}/api/forms/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token: form.token,
        name: 'Priya Nair',
        email: 'priya@example.com',
        phone: '+91 99887 76655',
      }),
    });
    expect(submitted.status, await submitted.clone().text()).toBeLessThan(300);
    ids.lead = (await app('GET', '/leads')).leads[0].id;

    const flow = await app('POST', '/automations', {
      kind: 'flow',
      publish: true,
      definition: {
        name: 'Tag on signup',
        trigger: { type: 'event', event: 'signup' },
        steps: [{ id: 'tag', type: 'add_tag', tag: 'signed-up' }],
      },
    });
    ids.flow = flow.id;
    await rest('POST', '/api/v1/events', { phone: '91234 56789', event: 'signup', properties: {} });
    const sequence = await app('POST', '/automations', {
      kind: 'sequence',
      publish: true,
      definition: {
        name: 'Ads follow-up',
        trigger: { type: 'webhook' },
        steps: [{ id: 'tag', type: 'add_tag', tag: 'from-ads' }],
      },
    });
    ids.sequence = sequence.id;
    await app('POST', '/webhooks', { url: 'https://hooks.example.com/parley' });
    const invite = await app('POST', '/invitations', { email: 'sam@example.com', role: 'member' });
    ids.invite = invite.url.split('/invite/')[1];
    await until(async () => (await app('GET', `/automations/${ids.flow}`)).runs?.length > 0, 30_000);
    ids.run = (await app('GET', `/automations/${ids.flow}`)).runs[0].id;
    // Scheduled, so the page offers "Cancel broadcast".
    const broadcast = await rest('POST', '/api/v1/broadcasts', {
      name: 'Spring sale',
      template: { name: 'welcome', language: 'en' },
      values: {
        body: [
          { from: 'contact', field: 'name', fallback: 'there' },
          { from: 'text', text: 'Acme' },
        ],
      },
      audience: { tags_all: ['vip'] },
      send_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    });
    ids.broadcast = (broadcast.broadcast as { id: string }).id;
  }, 180_000);

  it('has no serious or critical axe violation on any page or dialog, at 1280 and 390 px', async () => {
    const visited = new Set<string>();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      visited.clear();
      for (const pattern of routePatterns()) {
        const sample = SAMPLES[pattern];
        if (!sample) continue;
        const path = sample(ids);
        await page.goto(`${base}${path}`);
        await settled();
        visited.add(path);
        await check(`${width}px ${path}`);
        // Tabs inside a page are views of it: each is checked; tabs that change the address are routes.
        const tabs = await page.getByRole('tab').allTextContents();
        for (const tab of tabs) {
          const selected = await page
            .getByRole('tab', { name: tab, exact: true })
            .getAttribute('aria-selected');
          if (selected === 'true') continue;
          await page.getByRole('tab', { name: tab, exact: true }).click();
          await settled();
          const now = new URL(page.url()).pathname;
          const key = now === path ? `${path} › ${tab}` : now;
          if (visited.has(key)) continue;
          visited.add(key);
          await check(`${width}px ${key}`);
        }
      }
      for (const d of DIALOGS) {
        const path = d.path(ids);
        await page.goto(`${base}${path}`);
        await settled();
        await d.prepare?.(page);
        await page.getByRole('button', { name: d.opener, exact: true }).first().click();
        const dialog = page.getByRole('dialog', { name: d.title });
        await dialog.waitFor();
        await settled();
        await check(`${width}px ${path} › dialog “${d.title}”`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }
      if (width < 860) {
        await page.goto(`${base}/contacts`);
        await settled();
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.locator('nav').getByRole('link', { name: 'Contacts', exact: true }).waitFor();
        await check(`${width}px /contacts › menu`);
      }
    }

    // Signed out: the sign-in page, an invitation, a form's hosted page, a forgotten password.
    for (const width of WIDTHS) {
      const visitor = await running.browser.newPage({ viewport: { width, height: 900 } });
      await visitor.goto(base);
      await visitor.getByRole('heading', { name: 'Sign in' }).waitFor();
      await check(`${width}px /login`, visitor);
      await visitor.goto(`${base}/invite/${ids.invite}`);
      await settled(visitor);
      await check(`${width}px /invite/:token`, visitor);
      await visitor.goto(`${base}/f/${ids.formToken}`);
      await visitor.locator('form').waitFor();
      await check(`${width}px /f/:token (hosted form)`, visitor);
      await visitor.goto(`${base}/forgot-password`);
      await settled(visitor);
      await check(`${width}px /forgot-password`, visitor);
      await visitor.goto(`${base}/reset-password/not-a-real-token`);
      await settled(visitor);
      await check(`${width}px /reset-password/:token`, visitor);
      await visitor.close();
    }

    expect(problems, `axe-core found ${problems.length} serious or critical violations`).toEqual([]);
  });

  /** The focused element, as "tag text" (its aria-label when it has one). */
  const focused = (on: Page = page) =>
    on.evaluate(() => {
      const a = document.activeElement;
      const name = a?.getAttribute('aria-label') ?? a?.labels?.[0]?.textContent ?? a?.textContent ?? '';
      return `${a?.tagName.toLowerCase()} ${name.replace(/\s+/g, ' ').trim().slice(0, 60)}`;
    });
  const nav = (name: string, on: Page = page) =>
    on.locator('nav').getByRole('link', { name, exact: true }).click();

  it('moves focus to the page heading when a page is opened, and leaves it on a tab that changes the address', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/`);
    await settled();
    await nav('Contacts');
    await expect.poll(() => focused()).toBe('h1 Contacts');
    await page.getByRole('link', { name: 'Ravi Kumar' }).click();
    await expect.poll(() => focused()).toBe('h1 Ravi Kumar');
    await nav('Settings');
    await expect.poll(() => focused()).toBe('h1 Settings');
    await page.getByRole('tab', { name: 'Team', exact: true }).click();
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    expect(await focused()).toBe('button Team');

    await page.setViewportSize({ width: 390, height: 844 });
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    await menu.click();
    await nav('Leads');
    await expect.poll(() => focused()).toBe('h1 Leads');

    // Escape closes the phone's menu and gives focus back to its button.
    await menu.click();
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
    expect(await focused()).toBe('button Menu');

    // On a phone the open conversation replaces the list: focus goes to its name, the inbox's h1 being hidden.
    await menu.click();
    await nav('Inbox');
    await expect.poll(() => focused()).toBe('h1 Inbox');
    await page.locator('.conversation-row', { hasText: 'Ravi Kumar' }).click();
    await expect.poll(() => focused()).toBe('h2 Ravi Kumar');
  });

  it('shows no status on a message the customer sent: "read" would say a teammate read it', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/contacts/${ids.contact}`);
    await settled();
    const received = page.locator('.timeline li', { hasText: 'Received a message' });
    expect(await received.count()).toBeGreaterThan(0);
    expect(await received.locator('.badge').count()).toBe(0);
    await page.goto(`${base}/inbox/${ids.contact}`);
    await settled();
    const inbound = page.locator('.bubble.inbound');
    expect(await inbound.count()).toBeGreaterThan(0);
    expect(
      await inbound
        .locator('.bubble-meta')
        .filter({ hasText: /read|delivered|sent/ })
        .count(),
    ).toBe(0);
  });

  /**
   * Presses Tab `times` times and answers, for each stop, what has focus and whether it shows it:
   * matched by :focus-visible with a drawn outline (2 px or more), and inside the viewport.
   */
  const tabThrough = async (on: Page, times: number) => {
    const stops: { name: string; shown: boolean }[] = [];
    for (let i = 0; i < times; i++) {
      await on.keyboard.press('Tab');
      // Past the last stop Tab leaves the page for the browser's own controls.
      if (await on.evaluate(() => document.activeElement === document.body)) continue;
      stops.push(
        await on.evaluate(() => {
          const a = document.activeElement as PageElement;
          const s = getComputedStyle(a);
          const box = a.getBoundingClientRect();
          const inView = box.width > 0 && box.height > 0 && box.right > 0 && box.left < innerWidth;
          const ring = s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) >= 2;
          const label = (a.getAttribute('aria-label') ?? a.labels?.[0]?.textContent ?? a.textContent ?? '')
            .replace(/\s+/g, ' ')
            .trim();
          return {
            name: `${a.tagName.toLowerCase()} ${label.slice(0, 40)}`,
            shown: a.matches(':focus-visible') && ring && inView,
          };
        }),
      );
    }
    return stops;
  };

  it('tabs through the sign-in page with a visible focus on every stop', async () => {
    const visitor = await running.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await visitor.goto(base);
    await visitor.getByRole('heading', { name: 'Sign in' }).waitFor();
    const stops = await tabThrough(visitor, 3);
    expect(stops.map((s) => s.name)).toEqual(['input E-mail', 'input Password', 'button Sign in']);
    expect(
      stops.filter((s) => !s.shown),
      'focus stops with no visible focus',
    ).toEqual([]);
    await visitor.close();
  });

  for (const width of WIDTHS) {
    it(`tabs through the contacts page at ${width} px: a skip link first, then only visible stops with a visible focus`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${base}/contacts`);
      await settled();
      const stops = await tabThrough(page, 25);
      expect(stops[0]?.name).toBe('a Skip to content');
      expect(
        stops.filter((s) => !s.shown),
        'focus stops with no visible focus, or out of sight',
      ).toEqual([]);
      await page.goto(`${base}/contacts`);
      await settled();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      // Past the skip link the next stop is in the page, not in the sidebar.
      expect(
        await page.evaluate(() => document.querySelector('main')?.contains(document.activeElement)),
      ).toBe(true);
    });
  }

  it('keeps Tab inside a dialog, closes it on Escape and gives focus back to its opener', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/contacts`);
    await settled();
    await page.getByRole('button', { name: 'Import CSV' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Import contacts from CSV' });
    await dialog.waitFor();
    const inside = () => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'));
    // focus-trap moves focus in on its next tick: on a loaded machine, after the dialog is drawn.
    await expect.poll(inside, { message: 'focus moves into the dialog when it opens' }).toBe(true);
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await inside(), `Tab ${i + 1} left the dialog for ${await focused()}`).toBe(true);
      seen.add(await focused());
    }
    expect(seen.size, "Tab moves between the dialog's controls").toBeGreaterThan(1);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await inside(), `Shift+Tab ${i + 1} left the dialog for ${await focused()}`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focused()).toBe('button Import CSV');
  });
});
