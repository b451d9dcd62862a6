import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appInBrowserForTests, hasChromium, screenshot } from './support/browser.js';
import { jpeg } from './support/media-files.js';
import { PROMO, withHeaderHandle } from './support/rich-template.js';
import { until } from './support/until.js';

const CUSTOMER = '919812345678';

// Every inbound type Meta documents, posted through the simulator, and the rich messages Parley
// sends, drawn in the conversation page of the real server in headless Chromium.
describe.skipIf(!hasChromium)('a conversation in the browser', { timeout: 120_000 }, () => {
  const running = appInBrowserForTests({ viewport: { width: 1280, height: 900 } });
  let page: Page;
  let base: string;
  let apiKey: string;
  let csrf: string;
  let contactId: string;
  const inbound: Record<string, string> = {};
  const sent: Record<string, string> = {};

  /** The web app's API with the browser's own session. */
  const app = async (method: string, path: string, body?: unknown) => {
    const res = await page.request.fetch(`${base}/api/app${path}`, {
      method,
      headers: { 'x-parley-csrf': csrf || '1' },
      ...(body === undefined ? {} : { data: body }),
    });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
    return res.json();
  };
  const sim = async (path: string, body?: unknown) => {
    const res = await fetch(`${base}/_sim${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${running.simulatorToken()}`,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as {
      wamid: string;
      messages: { wamid: string; readAt: number | null; readMarks: number }[];
    };
  };
  const write = async (key: string, message: Record<string, unknown>) => {
    inbound[key] = (await sim('/inbound', { from: CUSTOMER, name: 'Asha', message })).wamid;
  };
  const send = async (key: string, body: Record<string, unknown>) => {
    const res = await fetch(`${base}/api/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: `+${CUSTOMER}`, ...body }),
    });
    const answer = (await res.json()) as { wamid: string };
    expect(res.status, JSON.stringify(answer)).toBe(201);
    sent[key] = answer.wamid;
  };
  /** The message holding this text, received or sent (a reply quoting it is the other side's). */
  const bubble = (text: string | RegExp, side: 'inbound' | 'outbound' = 'inbound'): Locator =>
    page.locator(`.bubble.${side}`, { hasText: text }).first();

  beforeAll(async () => {
    ({ base, page } = running);
    await running.setUpByApi();
    csrf = (await app('GET', '/session')).csrf_token;
    apiKey = (await app('POST', '/api-keys', { name: 'test' })).key;
    // A media header's sample goes through the Resumable Upload API first, as the editor's does.
    const sample = await page.request.fetch(`${base}/api/app/templates/header-sample`, {
      method: 'POST',
      headers: { 'x-parley-csrf': csrf },
      multipart: { file: { name: 'sample.jpg', mimeType: 'image/jpeg', buffer: jpeg() } },
    });
    expect(sample.status(), await sample.text()).toBe(200);
    await app('POST', '/templates', withHeaderHandle(PROMO, (await sample.json()).handle));
    await sim(`/templates/${PROMO.name}/${PROMO.language}/approve`, {});
    await app('POST', '/templates/sync');
  }, 120_000);

  it('stores what the customer sends and what Parley sends', async () => {
    await write('hello', { type: 'text', text: { body: 'Hello, do you deliver?' } });
    await send('yes', { type: 'text', text: 'Yes we do' });
    await send('slots', {
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Pick a delivery slot' },
        footer: { text: 'Slots fill fast' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'am', title: 'Morning' } },
            { type: 'reply', reply: { id: 'pm', title: 'Evening' } },
          ],
        },
      },
    });
    await send('menu', {
      type: 'interactive',
      interactive: {
        type: 'list',
        header: { type: 'text', text: 'Lunch menu' },
        body: { text: 'Choose your lunch' },
        action: {
          button: 'See dishes',
          sections: [
            {
              title: 'Mains',
              rows: [
                { id: 'veg', title: 'Veg thali', description: 'Rice, dal, two curries' },
                { id: 'fish', title: 'Fish curry' },
              ],
            },
          ],
        },
      },
    });
    await send('kitchen', {
      type: 'location',
      location: { latitude: 18.922, longitude: 72.8347, name: 'Our kitchen', address: 'Colaba, Mumbai' },
    });
    await send('book', {
      type: 'interactive',
      interactive: {
        type: 'cta_url',
        body: { text: 'Book a table for tonight' },
        footer: { text: 'Open till 11' },
        action: {
          name: 'cta_url',
          parameters: { display_text: 'Book now', url: 'https://acme.example/book?t=1' },
        },
      },
    });
    await send('desk', {
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Acme Front Desk' },
          phones: [{ phone: '+91 22 5555 0100', type: 'WORK' }],
          emails: [{ email: 'desk@acme.example' }],
          org: { company: 'Acme Foods' },
        },
      ],
    });
    await send('photo', {
      type: 'image',
      image: { link: 'https://cdn.example/special.jpg', caption: 'Today’s special' },
    });
    await send('like', { type: 'reaction', reaction: { message_id: inbound.hello, emoji: '👍' } });
    await send('welcome', {
      template: { name: 'welcome', language: 'en', body: ['Asha', 'Acme Foods'] },
    });
    await send('promo', {
      template: {
        name: PROMO.name,
        language: PROMO.language,
        header: { link: 'https://cdn.example/sale.jpg' },
        body: { first_name: 'Pablo', discount: '25%' },
        buttons: [{ index: 0, text: 's25' }],
      },
    });

    const media = (type: string, extra: Record<string, unknown>) => ({
      type,
      [type]: { id: `${type}-media-1`, mime_type: 'application/octet-stream', sha256: 'x', ...extra },
    });
    await write('image', media('image', { caption: 'Our shop front' }));
    await write('video', media('video', { caption: 'Unboxing' }));
    await write('audio', media('audio', { voice: true }));
    await write('document', media('document', { filename: 'invoice-42.pdf', caption: 'My invoice' }));
    await write('sticker', media('sticker', { animated: false }));
    await write('place', {
      type: 'location',
      location: { latitude: 19.076, longitude: 72.8777, name: 'Gateway Cafe', address: 'Apollo Bunder' },
    });
    await write('card', {
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Meera Shah', first_name: 'Meera' },
          phones: [{ phone: '+91 98200 00000', type: 'CELL', wa_id: '919820000000' }],
        },
      ],
    });
    await write('tap', {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'am', title: 'Morning' } },
      context: { from: '15550100', id: sent.slots },
    });
    await write('row', {
      type: 'interactive',
      interactive: {
        type: 'list_reply',
        list_reply: { id: 'fish', title: 'Fish curry', description: 'Catch of the day' },
      },
      context: { from: '15550100', id: sent.menu },
    });
    await write('stop', {
      type: 'button',
      button: { payload: 'STOP', text: 'Stop promotions' },
      context: { from: '15550100', id: sent.promo },
    });
    await write('love', { type: 'reaction', reaction: { message_id: sent.yes, emoji: '❤️' } });
    await write('wow', { type: 'reaction', reaction: { message_id: 'wamid.NOT_IN_PARLEY', emoji: '😮' } });
    await write('poll', {
      type: 'unsupported',
      errors: [
        {
          code: 131051,
          title: 'Message type unknown',
          message: 'Message type unknown',
          error_data: { details: 'Message type is currently not supported.' },
        },
      ],
    });
    await write('reply', {
      type: 'text',
      text: { body: 'Great, see you' },
      context: { from: '15550100', id: sent.yes },
    });
    await write('fwd', { type: 'text', text: { body: 'Look at this deal' }, context: { forwarded: true } });
    await write('viral', {
      type: 'text',
      text: { body: 'Chain message' },
      context: { frequently_forwarded: true },
    });
    await write('ad', {
      type: 'text',
      text: { body: 'I saw your ad' },
      referral: {
        source_url: 'https://fb.me/thali-ad',
        source_type: 'ad',
        source_id: '120000001',
        headline: 'Thali Tuesday',
        body: 'Two thalis for the price of one',
        ctwa_clid: 'ARAkLkA8rmlFeiCktEJQ',
      },
    });
    await write('product', {
      type: 'text',
      text: { body: 'Is this in stock?' },
      context: {
        from: '15550100',
        id: 'wamid.CATALOG',
        referred_product: { catalog_id: 'cat-1', product_retailer_id: 'sku-42' },
      },
    });
    const list = await app('GET', '/messages?direction=inbound&limit=50');
    expect(list.messages).toHaveLength(Object.keys(inbound).length);
    contactId = list.messages[0].contact_id;
  });

  it('draws each one by its type', async () => {
    await page.goto(`${base}/messages/${contactId}`);
    await page.getByText('Hello, do you deliver?').waitFor();
    await screenshot(page, 'conversation-types');
    const thread = page.locator('.thread');

    // Media: the simulator holds no file for these ids, so each download is refused, and each
    // placeholder says so with what is known of it.
    const refused = 'could not be downloaded from WhatsApp';
    for (const label of ['Image', 'Video', 'Voice or audio', 'Document', 'Sticker']) {
      await expect
        .poll(() => thread.getByRole('img', { name: `${label} ${refused}` }).count())
        .toBeGreaterThan(0);
    }
    await bubble('Our shop front')
      .getByRole('img', { name: `Image ${refused}` })
      .waitFor();
    await bubble('Unboxing')
      .getByRole('img', { name: `Video ${refused}` })
      .waitFor();
    await bubble('invoice-42.pdf').getByText('My invoice').waitFor();

    // Locations with a map link, shared contacts.
    const cafe = bubble('Gateway Cafe');
    await cafe.getByText('Apollo Bunder').waitFor();
    expect(await cafe.getByRole('link', { name: 'Open in a map' }).getAttribute('href')).toContain(
      'mlat=19.076&mlon=72.8777',
    );
    await bubble('Our kitchen', 'outbound').getByText('Colaba, Mumbai').waitFor();
    const card = bubble('Meera Shah').getByRole('list', { name: 'Shared contacts' });
    await card.getByText('+91 98200 00000').waitFor();
    const desk = bubble('Acme Front Desk', 'outbound').getByRole('list', { name: 'Shared contacts' });
    await desk.getByText('+91 22 5555 0100').waitFor();
    await desk.getByText('desk@acme.example').waitFor();
    await desk.getByText('Acme Foods').waitFor();

    // Interactive messages sent, and the customer's taps answering them.
    const slots = bubble('Pick a delivery slot', 'outbound');
    expect(
      await slots.getByRole('list', { name: 'Buttons' }).getByRole('listitem').allTextContents(),
    ).toEqual(['Morning', 'Evening']);
    await slots.getByText('Slots fill fast').waitFor();
    const book = bubble('Book a table for tonight', 'outbound');
    await book.getByText('Book now').waitFor();
    await book.getByText('Opens https://acme.example/book?t=1').waitFor();
    await book.getByText('Open till 11').waitFor();
    const menu = bubble('Choose your lunch', 'outbound');
    await menu.getByText('Lunch menu').waitFor();
    await menu.getByText('See dishes').waitFor();
    await menu.getByRole('region', { name: 'Mains' }).getByText('Rice, dal, two curries').waitFor();
    const tap = bubble('Tapped the button Morning');
    await tap.getByText('Replying to your message').waitFor();
    await tap.getByText('Pick a delivery slot').waitFor();
    const row = bubble('Chose from the list');
    await row.getByText('Catch of the day').waitFor();
    await row.locator('blockquote').getByText('Choose your lunch').waitFor();
    const stop = bubble('Stop promotions');
    await stop.getByText('STOP', { exact: true }).waitFor();
    await stop.getByText('Template summer_sale').waitFor();

    // Reactions on the message they react to, or as a line when it is not here.
    await bubble('Yes we do', 'outbound').getByRole('list', { name: 'Reactions' }).getByText('❤️').waitFor();
    await bubble('Hello, do you deliver?')
      .getByRole('list', { name: 'Reactions' })
      .getByText('👍 (you)')
      .waitFor();
    await thread.getByText('to an earlier message not shown here').waitFor();
    expect(await thread.getByText('❤️').count()).toBe(1);

    // Replies, forwards, ads, catalog questions, what cannot be shown.
    await bubble('Great, see you').getByText('Replying to your message').waitFor();
    await bubble('Look at this deal').getByText('Forwarded', { exact: true }).waitFor();
    await bubble('Chain message').getByText('Forwarded many times').waitFor();
    const ad = bubble('I saw your ad');
    await ad.getByText('Thali Tuesday').waitFor();
    await ad.getByText('Two thalis for the price of one').waitFor();
    await ad.getByRole('link', { name: 'https://fb.me/thali-ad' }).waitFor();
    await bubble('Is this in stock?').getByText('sku-42').waitFor();
    await bubble('does not pass on to business apps')
      .getByText('Message type is currently not supported.')
      .waitFor();

    // Templates: header, filled body, footer and buttons.
    await bubble('Template welcome', 'outbound').getByText('Hi Asha, welcome to Acme Foods!').waitFor();
    const promo = bubble('Hi Pablo, 25% off everything until Sunday!', 'outbound');
    await promo.getByRole('img', { name: 'Image not available yet' }).waitFor();
    await promo.getByText('Reply STOP to opt out').waitFor();
    expect(
      await promo.getByRole('list', { name: 'Buttons' }).getByRole('listitem').allTextContents(),
    ).toEqual(['Shop → https://shop.example/sale/s25', 'Not interested']);
    await bubble('Today’s special', 'outbound')
      .getByRole('img', { name: 'Image not available yet' })
      .waitFor();
  });

  it('marks the newest customer message read on the network once opened, when the setting is on', async () => {
    const before = await sim(`/inbound?from=${CUSTOMER}`);
    expect(before.messages.every((m: { readAt: number | null }) => m.readAt === null)).toBe(true);

    await page.goto(`${base}/settings/general`);
    const setting = page.getByLabel('Mark customer messages as read when a teammate opens the conversation');
    expect(await setting.isChecked()).toBe(false);
    await setting.check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await until(async () => (await app('GET', '/workspace')).workspace.mark_read === true);

    await page.goto(`${base}/messages/${contactId}`);
    await page.getByText('Hello, do you deliver?').waitFor();
    const after = await until(async () => {
      const { messages } = await sim(`/inbound?from=${CUSTOMER}`);
      return messages.every((m: { readAt: number | null }) => m.readAt !== null) && messages;
    });
    // One request, for the newest message: the network marks every earlier one with it.
    expect(after.map((m: { readMarks: number }) => m.readMarks).reduce((a: number, b: number) => a + b)).toBe(
      1,
    );
    expect(after[0]).toMatchObject({ wamid: inbound.product, readMarks: 1 });
  });
});
