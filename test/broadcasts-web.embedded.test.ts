import { describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';

// Indian mobile numbers: the workspace's default country code is 91.
const RAVI = '919876500001';
const ASHA = '919876500002';
const NAMELESS = '919876500003';
const MEENA = '919876500004'; // opted out
const OTHER = '919876500005'; // not tagged vip

const TEMPLATE = 'winter_sale';
const BODY = 'Hi {{1}}, our winter sale starts today. Use code {{2}} at checkout.';

type Sent = {
  payload: { template?: { name: string; components: { type: string; parameters: { text: string }[] }[] } };
};

// A broadcast to a tag segment from the web app, end to end: audience counted, values mapped and
// previewed, sent through the simulator, followed live to its figures; a second one paused and cancelled.
describe.skipIf(!hasChromium)('broadcasts in a browser', { timeout: 180_000 }, () => {
  const app = appInBrowserForTests({ viewport: { width: 1280, height: 900 } });
  let apiKey: string;

  const received = async (phone: string) =>
    ((await app.sim('GET', `/messages?to=${phone}`)) as unknown as { messages: Sent[] }).messages.filter(
      (m) => m.payload.template?.name === TEMPLATE,
    );
  const bodyTexts = (m: Sent) =>
    m.payload.template!.components.find((c) => c.type === 'body')!.parameters.map((p) => p.text);
  const field = (label: string | RegExp) => app.page.locator('.field', { has: app.page.getByLabel(label) });
  const group = (name: RegExp) => app.page.getByRole('group', { name });
  const count = (term: string) =>
    app.page.getByTestId('broadcast-counts').locator('.stat', { hasText: term }).locator('dd').textContent();

  it('signs up, makes an approved template and a tagged audience with one contact opted out', async () => {
    apiKey = await app.signUp();
    // The web app's own API, called from the signed-in page with its CSRF token.
    const created = await app.page.evaluate(
      async ({ body }) => {
        const session = (await (await fetch('/api/app/session')).json()) as { csrf_token: string };
        const res = await fetch('/api/app/templates', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-parley-csrf': session.csrf_token },
          body: JSON.stringify({
            name: 'winter_sale',
            language: 'en',
            category: 'MARKETING',
            body,
            examples: ['Ravi', 'WINTER10'],
          }),
        });
        return res.status;
      },
      { body: BODY },
    );
    expect(created).toBe(201);
    await app.sim('POST', `/templates/${TEMPLATE}/en/approve`);
    const contacts = [
      { phone: RAVI, name: 'Ravi', tags: ['vip'] },
      { phone: ASHA, name: 'Asha', tags: ['vip', 'new'] },
      { phone: NAMELESS, tags: ['vip'] },
      { phone: MEENA, name: 'Meena', tags: ['vip'], opted_out: true },
      { phone: OTHER, name: 'Other', tags: ['new'] },
    ];
    for (const c of contacts) {
      const res = await fetch(`${app.base}/api/v1/contacts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(c),
      });
      expect(res.status).toBe(201);
    }
  });

  it('builds the broadcast: the live count leaves the opted-out contact out, the values are labelled by their words', async () => {
    await app.page.locator('nav').getByRole('link', { name: 'Broadcasts', exact: true }).click();
    await app.page.getByRole('link', { name: 'New broadcast' }).first().click();
    await app.page.getByLabel('Name', { exact: true }).fill('Winter sale');
    const counted = app.page.getByTestId('audience-count');
    await expect.poll(() => counted.textContent()).toMatch(/^5 contacts will get/);
    await app.page.getByLabel('vip (4)').selectOption('all');
    await expect.poll(() => counted.textContent()).toMatch(/^4 contacts will get/);
    await app.page.getByLabel('Template').selectOption({ label: `${TEMPLATE} (en) · marketing` });
    // A marketing template never reaches Meena, who opted out.
    await expect
      .poll(() => counted.textContent())
      .toBe('3 contacts will get this broadcast (opted-out contacts left out).');
    expect(await app.page.getByText('{{1}}').count()).toBe(0);

    // Nothing mapped yet: each value says so beside it, before anything reaches the server.
    await app.page.getByRole('button', { name: 'Review and send' }).click();
    const code = group(/Use code ___ at checkout/);
    await code.getByText('Fill this in.').waitFor();

    const name = group(/^“Hi ___, our winter/);
    await name.getByLabel('Fill with').selectOption('name');
    await name.getByLabel('When it is empty').fill('there');
    await code.getByLabel('Text').fill('WINTER10');
    await expect(code.getByText('Fill this in.').count()).resolves.toBe(0);

    const bubble = app.page.getByTestId('bubble');
    await expect.poll(() => bubble.textContent()).toMatch(/our winter sale starts today\. Use code WINTER10/);
    await app.page.getByLabel('For the contact').selectOption({ label: `+${NAMELESS}` });
    await expect.poll(() => bubble.textContent()).toContain('Hi there, our winter sale');
    await app.page.getByLabel('For the contact').selectOption({ label: `Ravi (+${RAVI})` });
    await expect.poll(() => bubble.textContent()).toContain('Hi Ravi, our winter sale');
    await screenshot(app.page, 'broadcasts-01-new');
  });

  it('refuses a time gone by beside the time, before the confirmation', async () => {
    await app.page.getByLabel('Later').check();
    await app.page.getByLabel(/^Send at/).fill('2020-01-01T09:00');
    await app.page.getByRole('button', { name: 'Review and send' }).click();
    const at = field(/^Send at/);
    await at.locator('.field-error').waitFor();
    expect(await at.locator('.field-error').textContent()).toBe(
      'That time has passed: choose a later one, or send now.',
    );
    expect(await app.page.getByRole('dialog').count()).toBe(0);
    expect(await received(RAVI)).toEqual([]);
    await app.page.getByLabel('Now').check();
  });

  it('sends to the segment and follows it live to completed, each contact getting their own values', async () => {
    await app.page.getByRole('button', { name: 'Review and send' }).click();
    const dialog = app.page.getByRole('dialog');
    await dialog.getByText('goes to 3 contacts').waitFor();
    await dialog.getByRole('button', { name: 'Send to 3 contacts' }).click();
    await app.page.getByRole('heading', { name: 'Winter sale' }).waitFor();
    await app.page.getByTestId('broadcast-status').getByText('completed').waitFor({ timeout: 60_000 });
    expect(await count('Sent')).toBe('3');
    // Delivered and read, which the network reports after the broadcast completed, reach the open
    // page from the live stream, unreloaded.
    await expect.poll(() => count('Read'), { timeout: 20_000 }).toBe('3');
    expect(await count('Audience')).toBe('3');
    expect(await count('Sent')).toBe('3');
    expect(await count('Delivered')).toBe('3');
    expect(await count('Failed')).toBe('0');
    expect(await count('Skipped')).toBe('0');
    expect(
      await app.page.getByRole('progressbar', { name: 'Recipients done' }).getAttribute('aria-valuenow'),
    ).toBe('100');
    await app.page.getByRole('img', { name: 'Delivered and read' }).waitFor();
    await expect.poll(() => app.page.getByTestId('recipient').count()).toBe(3);
    await app.page.getByLabel('Status', { exact: true }).selectOption('failed');
    await app.page.getByText('No recipients here').waitFor();
    await app.page.getByLabel('Status', { exact: true }).selectOption('read');
    await expect.poll(() => app.page.getByTestId('recipient').count()).toBe(3);
    await screenshot(app.page, 'broadcasts-02-completed');

    const [ravi] = await received(RAVI);
    const [asha] = await received(ASHA);
    const [nameless] = await received(NAMELESS);
    expect(bodyTexts(ravi!)).toEqual(['Ravi', 'WINTER10']);
    expect(bodyTexts(asha!)).toEqual(['Asha', 'WINTER10']);
    expect(bodyTexts(nameless!)).toEqual(['there', 'WINTER10']);
    expect(await received(MEENA)).toEqual([]);
    expect(await received(OTHER)).toEqual([]);
    for (const phone of [RAVI, ASHA, NAMELESS]) expect(await received(phone)).toHaveLength(1);
  });

  it('schedules a second one, pauses, resumes and cancels it (asked first), sending nothing', async () => {
    await app.page.locator('nav').getByRole('link', { name: 'Broadcasts', exact: true }).click();
    await app.page
      .getByRole('row', { name: /Winter sale/ })
      .getByText('completed')
      .waitFor();
    await app.page.getByRole('link', { name: 'New broadcast' }).first().click();
    await app.page.getByLabel('Name', { exact: true }).fill('Next week');
    await app.page.getByLabel('new (2)').selectOption('any');
    await app.page.getByLabel('Template').selectOption({ label: `${TEMPLATE} (en) · marketing` });
    await group(/^“Hi ___, our winter/)
      .getByLabel('Text')
      .fill('friend');
    await group(/Use code ___ at checkout/)
      .getByLabel('Text')
      .fill('LATER');
    await app.page.getByLabel('Later').check();
    await app.page.getByLabel(/^Send at/).fill(`${new Date().getUTCFullYear() + 1}-06-01T10:00`);
    await app.page.getByRole('button', { name: 'Review and send' }).click();
    await app.page.getByRole('dialog').getByRole('button', { name: 'Schedule for 2 contacts' }).click();
    await app.page.getByRole('heading', { name: 'Next week' }).waitFor();
    const status = app.page.getByTestId('broadcast-status');
    await status.getByText('scheduled').waitFor();

    // Paused and resumed from elsewhere (the REST API): the page shows each from the live stream, unreloaded.
    const id = app.page.url().split('/').pop()!;
    const rest = (path: string) =>
      fetch(`${app.base}/api/v1/broadcasts/${id}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}` },
      });
    expect((await rest('pause')).status).toBe(200);
    await status.getByText('paused').waitFor({ timeout: 5000 });
    expect((await rest('resume')).status).toBe(200);
    await status.getByText('scheduled').waitFor({ timeout: 5000 });

    await app.page.getByRole('button', { name: 'Pause' }).click();
    await status.getByText('paused').waitFor();
    await app.page.getByRole('button', { name: 'Resume' }).click();
    await status.getByText('scheduled').waitFor();
    await app.page.getByRole('button', { name: 'Cancel broadcast' }).click();
    const dialog = app.page.getByRole('dialog', { name: 'Cancel this broadcast?' });
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await status.getByText('scheduled').waitFor();
    await app.page.getByRole('button', { name: 'Cancel broadcast' }).click();
    await dialog.getByRole('button', { name: 'Yes, cancel it' }).click();
    await status.getByText('cancelled').waitFor();
    await expect(app.page.getByRole('button', { name: 'Resume' }).count()).resolves.toBe(0);
    // Cancelled while scheduled: said so, not an audience of 0 and an empty list of recipients.
    await app.page.getByTestId('never-started').waitFor();
    expect(await app.page.getByTestId('broadcast-counts').count()).toBe(0);
    expect(await app.page.getByRole('heading', { name: 'Recipients' }).count()).toBe(0);
    await screenshot(app.page, 'broadcasts-03-cancelled');
    expect((await received(OTHER)).length).toBe(0);
    expect((await received(ASHA)).length).toBe(1);
  });

  it('shows a broadcast past the number’s messaging limit waiting for it, in plain words', async () => {
    const number = await app.page.evaluate(
      async () => (await (await fetch('/api/app/number')).json()) as { number: { phone_number_id: string } },
    );
    await app.sim('POST', `/numbers/${number.number.phone_number_id}/tier`, {
      messaging_limit_tier: 'TIER_250',
    });
    // Three customers got the first broadcast today: 247 of these 251 fit in the tier's 250.
    const rows = Array.from({ length: 251 }, (_, i) => `9198770${String(i).padStart(5, '0')},crowd`);
    const imported = await fetch(`${app.base}/api/v1/contacts/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'text/csv' },
      body: ['phone,tags', ...rows].join('\n'),
    });
    expect(imported.status).toBe(202);
    const importId = ((await imported.json()) as { import: { id: string } }).import.id;
    await expect
      .poll(
        async () => {
          const res = await fetch(`${app.base}/api/v1/contacts/imports/${importId}`, {
            headers: { authorization: `Bearer ${apiKey}` },
          });
          return ((await res.json()) as { import: { status: string; created: number } }).import;
        },
        { timeout: 30_000 },
      )
      .toMatchObject({ status: 'completed', created: 251 });
    const created = await fetch(`${app.base}/api/v1/broadcasts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Crowd',
        template: { name: TEMPLATE, language: 'en' },
        audience: { tags_all: ['crowd'] },
        values: {
          body: [
            { from: 'text', text: 'friend' },
            { from: 'text', text: 'CROWD' },
          ],
        },
      }),
    });
    expect(created.status).toBe(201);
    const { broadcast } = (await created.json()) as { broadcast: { id: string } };
    await app.page.goto(`${app.base}/broadcasts/${broadcast.id}`);
    await app.page.getByRole('heading', { name: 'Crowd' }).waitFor();
    await app.page
      .getByTestId('broadcast-status')
      .getByText('waiting for limit')
      .waitFor({ timeout: 60_000 });
    const note = app.page.getByRole('status').filter({ hasText: 'Waiting for the messaging limit' });
    await expect
      .poll(() => note.textContent())
      .toMatch(/250 different people in any 24 hours \(tier TIER_250\), and 250 have been messaged/);
    // The 247 that fit are sent at the number's rate; the page follows them until 4 are left queued.
    await expect.poll(() => count('Queued'), { timeout: 60_000 }).toBe('4');
    expect(await count('Audience')).toBe('251');
    await screenshot(app.page, 'broadcasts-04-waiting-for-limit');
  });
});
