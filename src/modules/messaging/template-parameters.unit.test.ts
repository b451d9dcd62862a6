import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../api/errors.js';
import { type StoredTemplate, templateNeeds } from '../templates/components.js';
import { sendRequestBody } from './cloud-api/send-body.js';
import { type GivenTemplateValues, type TemplateValues, templateComponents } from './template-parameters.js';

// A custom marketing template in the shape Meta's template list answers it: image header, body with
// named parameters, footer, and url (with a suffix), phone number and quick-reply buttons.
// https://developers.facebook.com/documentation/business-messaging/whatsapp/templates/marketing-templates/custom-marketing-templates/
const promo: StoredTemplate = {
  category: 'MARKETING',
  body: '',
  parameter_format: 'NAMED',
  components: [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://scontent.whatsapp.net/x'] } },
    {
      type: 'BODY',
      text: 'Hi {{first_name}}! Our summer sale is on: {{discount}} off until {{end_date}}.',
      example: {
        body_text_named_params: [
          { param_name: 'first_name', example: 'Pablo' },
          { param_name: 'discount', example: '25%' },
          { param_name: 'end_date', example: 'August 31' },
        ],
      },
    },
    { type: 'FOOTER', text: 'Reply STOP to opt out' },
    {
      type: 'BUTTONS',
      buttons: [
        {
          type: 'URL',
          text: 'Shop now',
          url: 'https://www.luckyshrub.com/shop?promo={{1}}',
          example: ['https://www.luckyshrub.com/shop?promo=summer25'],
        },
        { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550051310' },
        { type: 'QUICK_REPLY', text: 'Unsubscribe' },
      ],
    },
  ],
};

const send = (t: StoredTemplate, values: GivenTemplateValues) => templateComponents(templateNeeds(t), values);
const fieldsOf = (t: StoredTemplate, values: GivenTemplateValues) => {
  try {
    send(t, values);
  } catch (err) {
    return (err as ApiError).details?.map((d) => d.field);
  }
  return [];
};

describe('the Graph request body', () => {
  it('of a marketing template: header, named body parameters and button components, as Meta documents', () => {
    const { components } = send(promo, {
      header: { id: '2871834006348767' },
      body: { first_name: 'Pablo', discount: '25%', end_date: 'August 31' },
      buttons: [
        { index: 0, text: 'summer25' },
        { index: 2, payload: 'unsubscribe-pablo' },
      ],
    });
    const body = sendRequestBody({
      type: 'template',
      to: '12015553931',
      name: 'summer_sale',
      language: 'en_US',
      components,
    });
    // The send syntax of the page above (Step 2: send), its placeholders filled with these values.
    expect(body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '12015553931',
      type: 'template',
      template: {
        name: 'summer_sale',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { id: '2871834006348767' } }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', parameter_name: 'first_name', text: 'Pablo' },
              { type: 'text', parameter_name: 'discount', text: '25%' },
              { type: 'text', parameter_name: 'end_date', text: 'August 31' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'summer25' }] },
          {
            type: 'button',
            sub_type: 'quick_reply',
            index: '2',
            parameters: [{ type: 'payload', payload: 'unsubscribe-pablo' }],
          },
        ],
      },
    });
  });

  it('of a copy-code authentication template: the code as the body parameter and the url button parameter', () => {
    // https://developers.facebook.com/documentation/business-messaging/whatsapp/templates/authentication-templates/copy-code-button-authentication-templates/
    // ("Sending authentication templates": the request example, copied as Meta shows it).
    const expected = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '12015553931',
      type: 'template',
      template: {
        name: 'verification_code',
        language: { code: 'en_US' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: 'J$FpnYnP' }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'J$FpnYnP' }] },
        ],
      },
    };
    const auth: StoredTemplate = {
      category: 'AUTHENTICATION',
      body: '',
      parameter_format: 'POSITIONAL',
      components: [
        {
          type: 'BODY',
          text: '*{{1}}* is your verification code. For your security, do not share this code.',
          add_security_recommendation: true,
        },
        { type: 'FOOTER', text: 'This code expires in 10 minutes.', code_expiration_minutes: 10 },
        { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
      ],
    };
    // The spec's shape alone (the code as the body's one value) fills the button too.
    for (const values of [
      { body: ['J$FpnYnP'] },
      { body: ['J$FpnYnP'], buttons: [{ index: 0, text: 'J$FpnYnP' }] },
    ]) {
      const { components } = send(auth, values);
      expect(
        sendRequestBody({
          type: 'template',
          to: '12015553931',
          name: 'verification_code',
          language: 'en_US',
          components,
        }),
      ).toEqual(expected);
    }
    // Older template lists show the OTP button as a URL one: sent the same way.
    const listedAsUrl = {
      ...auth,
      components: [auth.components![0]!, { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Copy code' }] }],
    };
    expect(send(listedAsUrl, { body: ['J$FpnYnP'] }).components).toEqual(expected.template.components);
    expect(fieldsOf(auth, { body: ['J$FpnYnP'], buttons: [{ index: 0, text: 'other' }] })).toEqual([
      'template.buttons[0]',
    ]);
  });

  it('of a location header, a document header and a coupon code button', () => {
    const t: StoredTemplate = {
      category: 'MARKETING',
      body: '',
      parameter_format: 'POSITIONAL',
      components: [
        { type: 'HEADER', format: 'LOCATION' },
        { type: 'BODY', text: 'Use code {{1}} at our store' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Thanks' },
            { type: 'COPY_CODE', example: '25OFF' },
          ],
        },
      ],
    };
    const { components } = send(t, {
      header: {
        latitude: 37.483307,
        longitude: 122.148981,
        name: 'Pablo Morales',
        address: '1 Hacker Way, Menlo Park, CA 94025',
      },
      body: ['25OFF'],
      buttons: [{ index: 1, coupon_code: '25OFF' }],
    });
    // Location headers: https://developers.facebook.com/documentation/business-messaging/whatsapp/templates/components
    // (latitude and longitude as strings, as Meta's example sends them). Coupon codes:
    // .../templates/marketing-templates/coupon-templates (index as a string, like every button).
    expect(components).toEqual([
      {
        type: 'header',
        parameters: [
          {
            type: 'location',
            location: {
              latitude: '37.483307',
              longitude: '122.148981',
              name: 'Pablo Morales',
              address: '1 Hacker Way, Menlo Park, CA 94025',
            },
          },
        ],
      },
      { type: 'body', parameters: [{ type: 'text', text: '25OFF' }] },
      {
        type: 'button',
        sub_type: 'copy_code',
        index: '1',
        parameters: [{ type: 'coupon_code', coupon_code: '25OFF' }],
      },
    ]);
    const doc = {
      ...t,
      components: [
        { type: 'HEADER', format: 'DOCUMENT' },
        { type: 'BODY', text: 'Your invoice' },
      ],
    };
    expect(
      send(doc, { header: { link: 'https://example.com/i.pdf', filename: 'invoice.pdf' } }).components,
    ).toEqual([
      {
        type: 'header',
        parameters: [
          { type: 'document', document: { link: 'https://example.com/i.pdf', filename: 'invoice.pdf' } },
        ],
      },
    ]);
  });

  it('of a positional body-only template: the body values in order, as before', () => {
    const t: StoredTemplate = {
      category: 'UTILITY',
      body: 'Hi {{1}}, order {{2}}',
      parameter_format: null,
      components: null,
    };
    expect(send(t, { body: ['Asha', 'A-1'] }).components).toEqual([
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Asha' },
          { type: 'text', text: 'A-1' },
        ],
      },
    ]);
    expect(send({ ...t, body: 'Hello!' }, {}).components).toEqual([]);
  });
});

it("names a NAMED template's header parameter, as the components page shows it", () => {
  // https://developers.facebook.com/documentation/business-messaging/whatsapp/templates/components
  // (text header, named parameter syntax: "Our new sale starts {{sale_start_date}}!").
  const t: StoredTemplate = {
    category: 'MARKETING',
    body: '',
    parameter_format: 'NAMED',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Our new sale starts {{sale_start_date}}!' },
      { type: 'BODY', text: 'See you there' },
    ],
  };
  expect(send(t, { header: 'December 1st' }).components).toEqual([
    {
      type: 'header',
      parameters: [{ type: 'text', parameter_name: 'sale_start_date', text: 'December 1st' }],
    },
  ]);
});

describe('a send that does not fit the template', () => {
  const good: TemplateValues = {
    header: { link: 'https://example.com/sale.jpg' },
    body: { first_name: 'Pablo', discount: '25%', end_date: 'August 31' },
    buttons: [{ index: 0, text: 'summer25' }],
  };

  it('is answered 422 naming each part that is missing, extra or of the wrong kind', () => {
    expect(fieldsOf(promo, good)).toEqual([]);
    expect(fieldsOf(promo, { ...good, header: undefined })).toEqual(['template.header']);
    expect(fieldsOf(promo, { ...good, header: 'a text' })).toEqual(['template.header']);
    expect(fieldsOf(promo, { ...good, header: { link: 'ftp://x' } })).toEqual(['template.header.link']);
    expect(fieldsOf(promo, { ...good, header: { link: 'https://x/a.jpg', id: '1' } })).toEqual([
      'template.header',
    ]);
    expect(fieldsOf(promo, { ...good, body: { first_name: 'Pablo', discount: '25%' } })).toEqual([
      'template.body.end_date',
    ]);
    expect(fieldsOf(promo, { ...good, body: { ...(good.body as object), coupon: 'x' } })).toEqual([
      'template.body.coupon',
    ]);
    expect(fieldsOf(promo, { ...good, buttons: [] })).toEqual(['template.buttons[0]']);
    expect(fieldsOf(promo, { ...good, buttons: [{ index: 0, payload: 'x' }] })).toEqual([
      'template.buttons[0]',
    ]);
    expect(fieldsOf(promo, { ...good, buttons: [...good.buttons!, { index: 1, text: 'x' }] })).toEqual([
      'template.buttons[1]',
    ]);
    expect(() => send(promo, { ...good, buttons: [...good.buttons!, { index: 1, text: 'x' }] })).toThrow(
      'template.buttons[1]: a PHONE_NUMBER button takes no value',
    );
    expect(fieldsOf(promo, { ...good, buttons: [...good.buttons!, { index: 5, payload: 'x' }] })).toEqual([
      'template.buttons[5]',
    ]);
  });

  it('takes a NAMED body as an array in order too (the spec shape), and refuses an object for a positional one', () => {
    expect(fieldsOf(promo, { ...good, body: ['Pablo', '25%', 'August 31'] })).toEqual([]);
    expect(send(promo, { ...good, body: ['Pablo', '25%', 'August 31'] }).components[1]).toEqual(
      send(promo, good).components[1],
    );
    const positional: StoredTemplate = {
      category: 'UTILITY',
      body: 'Hi {{1}}',
      parameter_format: 'POSITIONAL',
      components: null,
    };
    expect(fieldsOf(positional, { body: { name: 'x' } })).toEqual(['template.body']);
    expect(fieldsOf(positional, { body: ['x'], header: 'y' })).toEqual(['template.header']);
  });

  it('refuses a value for a header that takes none', () => {
    const t: StoredTemplate = {
      category: 'UTILITY',
      body: '',
      parameter_format: 'POSITIONAL',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Order update' },
        { type: 'BODY', text: 'Shipped' },
      ],
    };
    expect(fieldsOf(t, { header: 'x' })).toEqual(['template.header']);
    const withVariable = {
      ...t,
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
        { type: 'BODY', text: 'Shipped' },
      ],
    };
    expect(send(withVariable, { header: 'A-1' }).components).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: 'A-1' }] },
    ]);
  });
});

describe("body parameters in Meta's shape: currency and date_time", () => {
  // https://developers.facebook.com/documentation/business-messaging/whatsapp/templates/components
  const bill: StoredTemplate = {
    category: 'UTILITY',
    body: 'Your bill of {{1}} is due on {{2}}',
    parameter_format: null,
    components: null,
  };
  const named: StoredTemplate = {
    category: 'UTILITY',
    body: '',
    parameter_format: 'NAMED',
    components: [{ type: 'BODY', text: 'Pay {{amount}} by {{due}}' }],
  };
  const price = {
    type: 'currency',
    currency: { fallback_value: '$100.99', code: 'USD', amount_1000: 100990 },
  };
  const due = { type: 'date_time', date_time: { fallback_value: 'February 25, 1977' } };
  const priced = (currency: object) => ({ body: [{ type: 'currency', currency }, due] });

  it('are passed to the network as Meta documents them, their fallback text kept as the values', () => {
    expect(send(bill, { body: [price, due] })).toEqual({
      components: [{ type: 'body', parameters: [price, due] }],
      bodyValues: ['$100.99', 'February 25, 1977'],
    });
    expect(send(named, { body: { amount: price, due } }).components).toEqual([
      {
        type: 'body',
        parameters: [
          { ...price, parameter_name: 'amount' },
          { ...due, parameter_name: 'due' },
        ],
      },
    ]);
    expect(send(bill, { body: [{ type: 'text', text: 'ten dollars' }, 'Friday'] }).bodyValues).toEqual([
      'ten dollars',
      'Friday',
    ]);
  });

  it('are refused 422 at the field at fault, each check by the input only it refuses', () => {
    const { fallback_value, code, amount_1000 } = price.currency;
    expect(fieldsOf(bill, priced({ fallback_value, code, amount_1000: 100990.5 }))).toEqual([
      'template.body[0].currency.amount_1000',
    ]);
    expect(fieldsOf(bill, priced({ fallback_value, code, amount_1000: '100990' }))).toEqual([
      'template.body[0].currency.amount_1000',
    ]);
    expect(fieldsOf(bill, priced({ fallback_value, code: 'US', amount_1000 }))).toEqual([
      'template.body[0].currency.code',
    ]);
    expect(fieldsOf(bill, priced({ fallback_value, code: 'usd', amount_1000 }))).toEqual([
      'template.body[0].currency.code',
    ]);
    // Three capitals, but no currency ISO 4217 knows.
    expect(fieldsOf(bill, priced({ fallback_value, code: 'QQQ', amount_1000 }))).toEqual([
      'template.body[0].currency.code',
    ]);
    expect(fieldsOf(bill, priced({ code, amount_1000 }))).toEqual([
      'template.body[0].currency.fallback_value',
    ]);
    expect(fieldsOf(bill, priced({ fallback_value: 'x\ud800', code, amount_1000 }))).toEqual([
      'template.body[0].currency.fallback_value',
    ]);
    expect(fieldsOf(bill, priced({ fallback_value: '', code, amount_1000 }))).toEqual([
      'template.body[0].currency.fallback_value',
    ]);
    expect(fieldsOf(bill, priced({ fallback_value: 'x\u0000', code, amount_1000 }))).toEqual([
      'template.body[0].currency.fallback_value',
    ]);
    expect(fieldsOf(bill, priced({ fallback_value: 'x'.repeat(1025), code, amount_1000 }))).toEqual([
      'template.body[0].currency.fallback_value',
    ]);
    // An emoji is a surrogate pair, not a lone one; 1024 characters are within Meta's limit.
    expect(fieldsOf(bill, priced({ fallback_value: '💵'.repeat(512), code, amount_1000 }))).toEqual([]);
    expect(fieldsOf(bill, priced({ fallback_value, code, amount_1000, symbol: '$' }))).toEqual([
      'template.body[0].currency.symbol',
    ]);
    expect(fieldsOf(bill, { body: [{ type: 'currency', currency: 'USD 100' }, due] })).toEqual([
      'template.body[0].currency',
    ]);
    expect(fieldsOf(bill, { body: [price, { type: 'date_time', date_time: {} }] })).toEqual([
      'template.body[1].date_time.fallback_value',
    ]);
    expect(
      fieldsOf(bill, {
        body: [price, { type: 'date_time', date_time: { fallback_value: 'x', day_of_month: 25 } }],
      }),
    ).toEqual(['template.body[1].date_time.day_of_month']);
    expect(fieldsOf(bill, { body: [price, { type: 'money', money: {} }] })).toEqual([
      'template.body[1].type',
    ]);
    expect(fieldsOf(bill, { body: [price, { ...due, currency: price.currency }] })).toEqual([
      'template.body[1].currency',
    ]);
    expect(
      fieldsOf(named, { body: { amount: { ...price, currency: { ...price.currency, code: 'EU' } }, due } }),
    ).toEqual(['template.body.amount.currency.code']);
  });
});
