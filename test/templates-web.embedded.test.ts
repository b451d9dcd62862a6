import { describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';
import { until } from './support/until.js';

const CUSTOMER = '919876543210';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

// Templates with every component, end to end: created in the app's editor, reviewed by the
// simulator, sent with the values form from a conversation and from a flow step.
describe.skipIf(!hasChromium)('template editor and values form in a browser', { timeout: 120_000 }, () => {
  const app = appInBrowserForTests({ viewport: { width: 1280, height: 900 } });
  let apiKey: string;

  const sim = (method: string, path: string, body?: unknown) => app.sim(method, path, body);
  type Sent = { type: string; payload: { template?: { name: string; components: unknown[] } } };
  const sentTemplates = async () =>
    ((await sim('GET', `/messages?to=${CUSTOMER}`)) as unknown as { messages: Sent[] }).messages.filter(
      (m) => m.payload.template?.name === 'summer_sale',
    );
  const go = (name: string) => app.page.locator('nav').getByRole('link', { name, exact: true }).click();
  const card = (name: string) => app.page.locator('.template', { hasText: name });

  it('signs up, connects the simulator and makes an API key', async () => {
    apiKey = await app.signUp();
    expect(apiKey).toMatch(/^pk_live_/);
  });

  it('creates a template with an image header, named variables and two kinds of button, previewed as typed', async () => {
    await go('Templates');
    await app.page.getByRole('link', { name: 'New template' }).click();
    const preview = app.page.getByTestId('bubble');
    // Plain words next to the fields that need them, before anything reaches the server.
    await app.page.getByRole('button', { name: 'Submit for review' }).click();
    await app.page.getByText('Give the template a name.').waitFor();
    await app.page.getByText('Write the message text.').waitFor();

    await app.page.getByLabel('Name', { exact: true }).fill('summer_sale');
    await app.page.getByLabel('Variables').selectOption('NAMED');
    await app.page.getByLabel('Header type').selectOption('IMAGE');
    // The sample goes to Meta's upload API at once; its handle is what the submit sends.
    await app.page
      .getByLabel('Sample image')
      .setInputFiles({ name: 'sample.png', mimeType: 'image/png', buffer: PNG });
    await app.page.getByText('Uploaded sample.png').waitFor();
    await app.page
      .getByLabel('Message text')
      .fill('Hi {{first_name}}, {{discount}} off everything until Sunday!');
    await app.page.getByLabel('Sample for {{first_name}}').fill('Pablo');
    await expect.poll(() => preview.textContent()).toContain('Hi Pablo, {{discount}} off');
    await app.page.getByLabel('Sample for {{discount}}').fill('25%');
    await app.page.getByLabel('Footer (optional)').fill('Reply STOP to opt out');
    await app.page.getByRole('button', { name: '+ Website link' }).click();
    await app.page.getByLabel('Button label').fill('Shop');
    await app.page.getByLabel('Web address').fill('https://shop.example/sale/{{1}}/x');
    await app.page.getByRole('button', { name: '+ Quick reply' }).click();
    await app.page.getByLabel('Button label').nth(1).fill('Not interested');
    await app.page.getByRole('button', { name: 'Submit for review' }).click();
    await app.page.getByText('Put {{1}} at the very end of the address.').waitFor();
    await app.page.getByText('Give a sample ending for the review.').waitFor();
    await app.page.getByLabel('Web address').fill('https://shop.example/sale/{{1}}');
    await app.page.getByLabel('Sample ending for {{1}}').fill('s25');

    await expect.poll(() => preview.textContent()).toContain('Hi Pablo, 25% off everything until Sunday!');
    expect(await preview.textContent()).toContain('Reply STOP to opt out');
    await app.page.locator('.template-preview').getByText('Shop').waitFor();
    await app.page.locator('.template-preview').getByText('Not interested').waitFor();
    await app.page.locator('.template-preview').getByRole('img', { name: 'Header' }).waitFor();
    await screenshot(app.page, 'templates-01-editor');
    await app.page.getByRole('button', { name: 'Submit for review' }).click();
    await app.page.getByText('Submitted summer_sale for review').waitFor();
    await card('summer_sale').getByText('pending').waitFor();
  });

  it("shows the network's refusal next to the field it names", async () => {
    await app.page.getByRole('link', { name: 'New template' }).click();
    await app.page.getByLabel('Name', { exact: true }).fill('summer_sale');
    await app.page.getByLabel('Message text').fill('Hello again');
    await app.page.getByRole('button', { name: 'Submit for review' }).click();
    const name = app.page.locator('.field', { has: app.page.getByLabel('Name', { exact: true }) });
    await name.getByText('A template with this name and language exists already').waitFor();
    await app.page.getByLabel('Name', { exact: true }).fill('too_pushy');
    await app.page.getByRole('button', { name: 'Submit for review' }).click();
    await card('too_pushy').getByText('pending').waitFor();
  });

  it("creates an authentication template from its options, WhatsApp's preset text previewed", async () => {
    await app.page.getByRole('link', { name: 'New template' }).click();
    await app.page.getByLabel('Name', { exact: true }).fill('login_code');
    await app.page.getByLabel('Category').selectOption('AUTHENTICATION');
    expect(await app.page.getByLabel('Message text').count()).toBe(0);
    await app.page.getByLabel('Code expires after (minutes)').fill('5');
    const preview = app.page.getByTestId('bubble');
    await expect
      .poll(() => preview.textContent())
      .toContain('123456 is your verification code. For your security, do not share this code.');
    expect(await preview.textContent()).toContain('This code expires in 5 minutes.');
    await app.page.locator('.template-preview').getByText('Copy code').waitFor();
    await app.page.getByRole('button', { name: 'Submit for review' }).click();
    await card('login_code').getByText('pending').waitFor();
    await card('login_code').getByText('This code expires in 5 minutes.').waitFor();
  });

  it("shows the simulator's approval and rejection without a reload", async () => {
    await sim('POST', '/templates/summer_sale/en_US/approve');
    await sim('POST', '/templates/too_pushy/en_US/reject');
    await card('summer_sale').getByText('approved').waitFor();
    await card('too_pushy')
      .getByTestId('rejection')
      .getByText('the category does not fit the content')
      .waitFor();
    await screenshot(app.page, 'templates-02-reviewed');
  });

  it('sends it from a conversation with labelled values, the server placing its 422 by the field', async () => {
    await sim('POST', '/inbound', { from: CUSTOMER, name: 'Ravi', text: 'Any offers?' });
    await go('Inbox');
    await app.page.getByRole('link', { name: /Any offers\?/ }).click();
    await app.page.getByRole('button', { name: 'Send a template' }).click();
    const dialog = app.page.getByRole('dialog');
    await dialog.getByLabel('Template').selectOption({ label: 'summer_sale (en_US)' });
    await dialog.getByRole('button', { name: 'Send template' }).click();
    const field = (label: string) => dialog.locator('.field', { has: app.page.getByLabel(label) });
    await field('First name').getByText('Fill this in.').waitFor();
    await field('Link ending for “Shop”').getByText('Fill this in.').waitFor();

    await dialog.getByLabel('Header image link').fill('ftp://cdn.example/sale.jpg');
    await dialog.getByLabel('First name').fill('Ravi');
    await dialog.getByLabel('Discount').fill('25%');
    await dialog.getByLabel('Link ending for “Shop”').fill('s25');
    await dialog.getByLabel('Reply payload for “Not interested” (optional)').fill('stop-promos');
    await expect.poll(() => dialog.getByTestId('bubble').textContent()).toContain('Hi Ravi, 25% off');
    await dialog.getByRole('button', { name: 'Send template' }).click();
    // The server's 422 names template.header.link: its words show under the header's field.
    await field('Header image link').getByText('An http(s) URL the network can fetch.').waitFor();
    expect(await sentTemplates()).toEqual([]);
    await screenshot(app.page, 'templates-03-send-dialog');

    await dialog.getByLabel('Header image link').fill('https://cdn.example/sale.jpg');
    await dialog.getByRole('button', { name: 'Send template' }).click();
    await dialog.waitFor({ state: 'detached' });
    const [sent] = await until(async () => {
      const list = await sentTemplates();
      return list.length === 1 && list;
    });
    expect(sent!.payload.template!.components).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example/sale.jpg' } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', parameter_name: 'first_name', text: 'Ravi' },
          { type: 'text', parameter_name: 'discount', text: '25%' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 's25' }] },
      {
        type: 'button',
        sub_type: 'quick_reply',
        index: '1',
        parameters: [{ type: 'payload', payload: 'stop-promos' }],
      },
    ]);
  });

  it('sends it from a flow step filled with placeholders', async () => {
    await go('Flows');
    await app.page.getByRole('link', { name: 'New flow' }).first().click();
    await app.page.getByLabel('Name').fill('Sale');
    await app.page.getByLabel('When this event is tracked').fill('sale_started');
    await app.page.getByRole('button', { name: /Send template/ }).click();
    await app.page.getByLabel('Template').selectOption({ label: 'summer_sale (en_US)' });
    await app.page.getByLabel('Header image link').fill('not a link');
    await app.page.getByLabel('First name').fill('{{contact.name | "there"}}');
    await app.page.getByLabel('Discount').fill('{{event.properties.discount}}');
    await app.page.getByLabel('Link ending for “Shop”').fill('{{event.properties.code}}');
    await app.page.getByRole('button', { name: 'Publish' }).click();
    const header = app.page.locator('.field', { has: app.page.getByLabel('Header image link') });
    await header.getByText('An http(s) URL the network can fetch.').waitFor();
    await screenshot(app.page, 'templates-04-flow-step');

    await app.page.getByLabel('Header image link').fill('{{event.properties.image}}');
    await app.page.getByRole('button', { name: 'Publish' }).click();
    await app.page.locator('.badge', { hasText: 'published' }).waitFor();
    const tracked = await fetch(`${app.base}/api/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        phone: CUSTOMER,
        event: 'sale_started',
        properties: { image: 'https://cdn.example/flow.jpg', discount: '30%', code: 'f30' },
      }),
    });
    expect(tracked.status).toBe(202);
    const sent = await until(async () => {
      const list = await sentTemplates();
      return list.length === 2 && list[0];
    }, 30_000);
    expect(sent.payload.template!.components).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example/flow.jpg' } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', parameter_name: 'first_name', text: 'Ravi' },
          { type: 'text', parameter_name: 'discount', text: '30%' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'f30' }] },
    ]);
  });

  it("picks the language from Meta's list by name, and refuses a sample that is not an image beside the field", async () => {
    await go('Templates');
    await app.page.getByRole('link', { name: 'New template' }).click();
    await app.page.getByLabel('Name', { exact: true }).fill('oferta_festival');
    const language = app.page.getByLabel('Language', { exact: true });
    await app.page.getByLabel('Search languages').fill('portu');
    expect(await language.locator('option').allTextContents()).toEqual(
      expect.arrayContaining(['Portuguese (Brazil) · pt_BR', 'Portuguese (Portugal) · pt_PT']),
    );
    await language.selectOption({ label: 'Portuguese (Brazil) · pt_BR' });
    await app.page.getByLabel('Header type').selectOption('IMAGE');
    const sample = app.page.getByLabel('Sample image');
    await sample.setInputFiles({
      name: 'notes.txt',
      mimeType: 'image/png',
      buffer: Buffer.from('just words'),
    });
    const field = app.page.locator('.field', { has: sample });
    await field.getByText('A header sample is a JPEG or PNG image, an MP4 video or a PDF document').waitFor();
    await sample.setInputFiles({ name: 'oferta.png', mimeType: 'image/png', buffer: PNG });
    await app.page.getByText('Uploaded oferta.png').waitFor();
    await app.page.getByLabel('Message text').fill('Oferta de festival: 20% em tudo');
    await app.page.getByRole('button', { name: 'Submit for review' }).click();
    await card('oferta_festival').getByText('pending').waitFor();
    expect(await card('oferta_festival').textContent()).toContain('pt_BR');
    // The next template starts in the language last submitted in this workspace.
    await app.page.getByRole('link', { name: 'New template' }).click();
    await expect.poll(() => app.page.getByLabel('Language', { exact: true }).inputValue()).toBe('pt_BR');
  });
});
