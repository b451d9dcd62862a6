import { describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';
import { until } from './support/until.js';

const CUSTOMER = '919876500001';

// A flow's "Send media or buttons" step, built in the editor and sent through the simulator.
describe.skipIf(!hasChromium)('send media or buttons in the flow editor', { timeout: 120_000 }, () => {
  const app = appInBrowserForTests({ viewport: { width: 1280, height: 900 } });
  let apiKey: string;

  const sim = (method: string, path: string, body?: unknown) => app.sim(method, path, body);
  const go = (name: string) => app.page.locator('nav').getByRole('link', { name, exact: true }).click();
  const error = (text: string) => app.page.locator('.field-error', { hasText: text });

  it('signs up, connects the simulator and makes an API key', async () => {
    apiKey = await app.signUp();
    expect(apiKey).toMatch(/^pk_live_/);
  });

  it('builds an image, a reply-buttons and a contact-card step, with errors in words beside the fields, and sends them', async () => {
    await go('Flows');
    await app.page.getByRole('link', { name: 'New flow' }).first().click();
    await app.page.getByLabel('Name').fill('Booking');
    await app.page.getByLabel('When this event is tracked').fill('booked');

    await app.page.locator('.add-step-btn', { hasText: 'Send media or buttons' }).click();
    await app.page.getByLabel('Kind').selectOption({ label: 'Image' });
    await app.page.getByLabel('Link to the file').fill('ftp://cdn.example/room.jpg');
    await error('The address starts with https://').waitFor();
    await app.page.getByLabel('Link to the file').fill('https://cdn.example/room.jpg');
    await app.page.getByLabel('Caption (optional)').fill('Your room, {{contact.name | guest}}');
    expect(await app.page.locator('.field-error').count()).toBe(0);

    await app.page.locator('.add-step-btn', { hasText: 'Send media or buttons' }).click();
    await app.page.getByLabel('Kind').selectOption({ label: 'Reply buttons' });
    await error('Write the text the buttons answer.').waitFor();
    await app.page.getByLabel('Text', { exact: true }).fill('Keep your booking?');
    await app.page.getByLabel('Button 1').fill('Keep it, thank you very much');
    await error('A button title holds at most 20 characters.').waitFor();
    await app.page.getByLabel('Button 1').fill('Keep it');
    await app.page.getByLabel('Button 2 (optional)').fill('Move it');
    expect(await app.page.locator('.field-error').count()).toBe(0);

    await app.page.locator('.add-step-btn', { hasText: 'Send media or buttons' }).click();
    await app.page.getByLabel('Kind').selectOption({ label: 'Contact card' });
    await error('Give the name shown on the card.').waitFor();
    await app.page.getByLabel('Name on the card').fill('Front desk');
    await app.page.getByLabel('Phone (optional)').fill('+91 22 5555 0100');
    expect(await app.page.locator('.field-error').count()).toBe(0);
    await screenshot(app.page, 'flow-rich-step');
    await app.page.getByRole('button', { name: 'Publish' }).click();
    await app.page.locator('.badge', { hasText: 'published' }).waitFor();

    await sim('POST', '/inbound', { from: CUSTOMER, name: 'Ravi', text: 'Hi' });
    const tracked = await fetch(`${app.base}/api/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ phone: `+${CUSTOMER}`, event: 'booked' }),
    });
    expect(tracked.status).toBe(202);
    const sent = await until(async () => {
      const { messages } = (await sim('GET', `/messages?to=${CUSTOMER}`)) as {
        messages: { payload: { type: string } }[];
      };
      // By type: contacts, image, interactive, whatever order the simulator lists them in.
      const payloads = messages.map((m) => m.payload);
      return payloads.length === 3 && payloads.sort((a, b) => a.type.localeCompare(b.type));
    }, 30_000);
    expect(sent).toMatchObject([
      {
        type: 'contacts',
        contacts: [{ name: { formatted_name: 'Front desk' }, phones: [{ phone: '+91 22 5555 0100' }] }],
      },
      { type: 'image', image: { link: 'https://cdn.example/room.jpg', caption: 'Your room, Ravi' } },
      {
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: 'Keep your booking?' },
          action: {
            buttons: [
              { type: 'reply', reply: { id: 'Keep it', title: 'Keep it' } },
              { type: 'reply', reply: { id: 'Move it', title: 'Move it' } },
            ],
          },
        },
      },
    ]);
  });
});
