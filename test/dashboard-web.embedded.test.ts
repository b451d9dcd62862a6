import { describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';
import { until } from './support/until.js';

const ANA = '919876500101';
const BEN = '919876500102';

// The home dashboard's charts over real traffic, a chart's link to its list, a run in sentences, and a
// lead found by a field, noted and given an owner.
describe.skipIf(!hasChromium)('the home dashboard, runs and leads', { timeout: 150_000 }, () => {
  const app = appInBrowserForTests();
  let apiKey: string;

  const v1 = async (path: string, body: unknown) => {
    const res = await fetch(`${app.base}/api/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(answer)).toBeLessThan(300);
    return answer;
  };
  /** The web app's own API, as the signed-in page (its cookie, its CSRF token). */
  const appApi = async (method: string, path: string, body?: unknown) => {
    const session = (await (await app.page.request.get(`${app.base}/api/app/session`)).json()) as {
      csrf_token: string;
    };
    const res = await app.page.request.fetch(`${app.base}/api/app${path}`, {
      method,
      headers: { 'x-parley-csrf': session.csrf_token },
      ...(body === undefined ? {} : { data: body }),
    });
    expect(res.status(), await res.text()).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown> & { result: boolean };
  };
  const chartSummary = (name: RegExp) => app.page.getByRole('img', { name }).getAttribute('aria-label');

  it('signs up, connects the simulator and makes an API key', async () => {
    apiKey = await app.signUp();
    expect(apiKey).toMatch(/^pk_live_/);
  });

  it('seeds messages through the simulator, a form lead and a flow run', async () => {
    const welcome = { name: 'welcome', language: 'en', body: ['Ana', 'Acme'] };
    await v1('/messages', { to: `+${ANA}`, type: 'template', template: welcome });
    await app.sim('POST', '/inbound', { from: ANA, name: 'Ana', text: 'Hello!' });
    await v1('/messages', { to: `+${ANA}`, type: 'text', text: 'Thanks for writing' });
    const toBen = await v1('/messages', { to: `+${BEN}`, type: 'template', template: welcome });
    await app.sim('POST', '/status', { wamid: toBen.wamid, status: 'failed' });

    const form = await appApi('POST', '/forms', { name: 'Spring fair', active: true });
    const fields = [
      { name: 'name', label: 'Name', type: 'text', required: false },
      { name: 'email', label: 'E-mail', type: 'email', required: true },
      { name: 'company_size', label: 'Company size', type: 'text', required: false },
    ];
    await appApi('PATCH', `/forms/${form.id}`, { fields });
    const submitted = await fetch(`${app.base}/api/forms/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token: form.token,
        name: 'Lena',
        email: 'lena@example.com',
        company_size: 'Forty people',
      }),
    });
    expect(submitted.status).toBe(201);

    const definition = {
      name: 'Tag VIP',
      trigger: { type: 'event', event: 'vip' },
      steps: [
        { id: 'tag', type: 'add_tag', tag: 'vip' },
        {
          id: 'check',
          type: 'condition',
          if: { field: 'contact.tags', op: 'contains', value: 'vip' },
          if_true: 'thanks',
          if_false: null,
        },
        { id: 'thanks', type: 'set_trait', key: 'tier', value: 'gold' },
      ],
    };
    await appApi('POST', '/automations', { kind: 'flow', definition, publish: true });
    await v1('/events', { phone: `+${ANA}`, event: 'vip' });

    // Statuses come back from the simulator a moment later.
    await until(async () => {
      const d = (await appApi('GET', '/dashboard?days=7')) as unknown as {
        messages: { read: number; failed: number }[];
        runs: { completed: number }[];
      };
      const today = d.messages.at(-1)!;
      return today.read === 2 && today.failed === 1 && d.runs.at(-1)!.completed === 1;
    }, 30_000);
  });

  it('draws the charts with the right totals and follows a chart to its list', async () => {
    await app.page.goto(`${app.base}/?days=7`);
    await app.page.getByRole('button', { name: '7 days', pressed: true }).waitFor();
    expect(await chartSummary(/^Messages per day/)).toMatch(
      /: Sent 2, Delivered 2, Read 2, Failed 1, Replies 1\.$/,
    );
    expect(await chartSummary(/^Runs finished per day/)).toMatch(/: Completed 1, Failed 0\.$/);
    expect(await chartSummary(/^Leads per form per day/)).toMatch(/: Spring fair 1\.$/);
    // The figures also sit in a table for screen readers; the canvas is drawn.
    const totals = app.page.locator('.sr-only table', { hasText: 'Messages per day' }).locator('tfoot td');
    expect(await totals.allTextContents()).toEqual(['2', '2', '2', '1', '1']);
    expect(await app.page.locator('.time-chart canvas').count()).toBe(3);
    await screenshot(app.page, 'dashboard-home');
    await app.page.setViewportSize({ width: 390, height: 844 });
    // Chart.js redraws on its container's resize: each chart then fits the phone's width.
    await until(async () => {
      const boxes = await Promise.all(
        (await app.page.locator('.time-chart canvas').all()).map((c) => c.boundingBox()),
      );
      return boxes.every((b) => b !== null && b.x + b.width <= 390);
    });
    await screenshot(app.page, 'dashboard-home-phone');
    await app.page.setViewportSize({ width: 1280, height: 800 });

    await app.page.getByRole('button', { name: '30 days' }).click();
    expect(await chartSummary(/^Messages per day/)).toMatch(/Sent 2,/);

    await app.page.getByRole('link', { name: 'Completed runs' }).click();
    await app.page.getByRole('heading', { name: 'Runs' }).waitFor();
    expect(app.page.url()).toBe(`${app.base}/runs?status=completed`);
    const row = app.page.getByRole('row', { name: /Tag VIP/ });
    await row.getByRole('link', { name: /\+919876500101|Ana/ }).waitFor();
    await row.getByRole('link', { name: 'Tag VIP' }).click();
  });

  it('reads a run as sentences, with the raw record behind a disclosure', async () => {
    await app.page.getByRole('heading', { name: 'Run of Tag VIP' }).waitFor();
    await app.page.getByText('Tag “vip” added').waitFor();
    await app.page.getByText('Condition true → thanks').waitFor();
    await app.page.getByText('Trait “tier” set to “gold”').waitFor();
    const raw = app.page.locator('details.raw').first();
    expect(await raw.locator('pre').isVisible()).toBe(false);
    await raw.getByText('Show raw').click();
    expect(await raw.locator('pre').textContent()).toContain('"step_id": "tag"');
    await screenshot(app.page, 'dashboard-run');
  });

  it('finds a lead by a field, shows fields by their labels, takes a note and an owner', async () => {
    await app.page.goto(`${app.base}/?days=7`);
    await app.page.getByRole('link', { name: 'Leads from Spring fair' }).click();
    await app.page.getByRole('link', { name: 'Lena' }).waitFor();
    expect(app.page.url()).toMatch(/\/leads\?form_id=fm_/);

    await app.page.locator('nav').getByRole('link', { name: 'Leads', exact: true }).click();
    await app.page.getByLabel('Search leads').fill('nobody-like-this');
    await app.page.getByRole('button', { name: 'Search' }).click();
    await app.page.getByText('No leads match these filters').waitFor();
    await app.page.getByLabel('Search leads').fill('forty');
    await app.page.getByRole('button', { name: 'Search' }).click();
    await app.page.getByRole('link', { name: 'Lena' }).click();

    await app.page.getByRole('heading', { name: 'Lena' }).waitFor();
    await app.page.locator('dt', { hasText: 'Company size' }).waitFor();
    expect(await app.page.locator('dt', { hasText: 'company_size' }).count()).toBe(0);

    await app.page.getByRole('button', { name: 'Add note' }).click();
    await app.page.locator('.field-error', { hasText: 'Write something in the note.' }).waitFor();
    await app.page.getByLabel('Add a note').fill('Met her at the fair; wants a call on Monday.');
    await app.page.getByRole('button', { name: 'Add note' }).click();
    const note = app.page.locator('.note', { hasText: 'wants a call on Monday' });
    await note.waitFor();
    expect(await note.textContent()).toContain('Asha Rao');
    expect(await app.page.getByLabel('Add a note').inputValue()).toBe('');

    await app.page.getByLabel('Lead owner').selectOption({ label: 'Asha Rao' });
    // Saved: the page reloads the lead, and the select is enabled again.
    await until(async () => ((await appApi('GET', '/leads?owner=none')).leads as unknown[]).length === 0);
    await screenshot(app.page, 'dashboard-lead');
    await app.page.locator('nav').getByRole('link', { name: 'Leads', exact: true }).click();
    await app.page.getByRole('row', { name: /Lena/ }).getByText('Asha Rao').waitFor();
  });

  it('warns in the builder, before publishing, about a text step in a sequence', async () => {
    await app.page.locator('nav').getByRole('link', { name: 'Sequences', exact: true }).click();
    await app.page.getByRole('link', { name: 'New sequence' }).first().click();
    await app.page.getByLabel('Name').fill('Say hi to new leads');
    expect(await app.page.locator('.note-warning').count()).toBe(0);
    await app.page.locator('.add-step-btn', { hasText: 'Send text' }).click();
    await app.page.locator('.note-warning', { hasText: 'Before you publish' }).waitFor();
    const warning = app.page.locator('.step-warning');
    expect(await warning.textContent()).toMatch(/usually outside the 24-hour window.*the run ends there/);
    await app.page.locator('.add-step-btn', { hasText: 'Send template' }).click();
    expect(await app.page.locator('.step-warning').count()).toBe(1);
    await screenshot(app.page, 'dashboard-builder-warning');
  });
});
