import { describe, expect, it } from 'vitest';
import { reviewTemplate } from './template-review.js';
import { checkTemplateSend } from './template-send-check.js';

// The creation request of Meta's custom marketing template page (image header, named body
// parameters, footer, url / phone number / quick-reply buttons), its placeholders filled.
const promo = {
  name: 'summer_sale',
  language: 'en_US',
  category: 'marketing',
  parameter_format: 'named',
  components: [
    { type: 'header', format: 'image', example: { header_handle: ['4::aW1hZ2UvanBlZw==:ARa1'] } },
    {
      type: 'body',
      text: 'Hi {{first_name}}, {{discount}} off everything!',
      example: {
        body_text_named_params: [
          { param_name: 'first_name', example: 'Pablo' },
          { param_name: 'discount', example: '25%' },
        ],
      },
    },
    { type: 'footer', text: 'Reply STOP to opt out' },
    {
      type: 'buttons',
      buttons: [
        {
          type: 'url',
          text: 'Shop',
          url: 'https://shop.example/{{1}}',
          example: ['https://shop.example/s25'],
        },
        { type: 'phone_number', text: 'Call us', phone_number: '+15550051310' },
        { type: 'quick_reply', text: 'Unsubscribe' },
      ],
    },
  ],
};

describe("the simulator's template review", () => {
  it('takes a template with every component, as the template list will show it', () => {
    const review = reviewTemplate(promo, 'MARKETING');
    expect(review).toMatchObject({
      ok: true,
      parameterFormat: 'NAMED',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY' },
        { type: 'FOOTER' },
        { type: 'BUTTONS', buttons: [{ type: 'URL' }, { type: 'PHONE_NUMBER' }, { type: 'QUICK_REPLY' }] },
      ],
    });
  });

  it.each([
    ['a media header without an example handle', { type: 'header', format: 'image' }, 'header:'],
    ['a body variable without its example', { type: 'body', text: 'Hi {{first_name}}' }, 'body:'],
    ['a footer with a variable', { type: 'footer', text: 'Bye {{1}}' }, 'footer:'],
    [
      'a dynamic URL without an example',
      { type: 'buttons', buttons: [{ type: 'url', text: 'Go', url: 'https://x.example/{{1}}' }] },
      'buttons[0]:',
    ],
  ])('refuses %s', (_, component, details) => {
    const type = (component as { type: string }).type;
    const components = [...promo.components.filter((c) => c.type !== type), component];
    const review = reviewTemplate({ ...promo, components }, 'MARKETING');
    expect(review).toMatchObject({ ok: false, details: expect.stringContaining(details) });
  });

  it("builds an authentication template's preset text from Meta's shape, and refuses free text", () => {
    const auth = {
      components: [
        { type: 'body', add_security_recommendation: true },
        { type: 'footer', code_expiration_minutes: 10 },
        { type: 'buttons', buttons: [{ type: 'otp', otp_type: 'copy_code' }] },
      ],
    };
    expect(reviewTemplate(auth, 'AUTHENTICATION')).toEqual({
      ok: true,
      parameterFormat: 'POSITIONAL',
      components: [
        {
          type: 'BODY',
          text: '*{{1}}* is your verification code. For your security, do not share this code.',
          add_security_recommendation: true,
        },
        { type: 'FOOTER', text: 'This code expires in 10 minutes.', code_expiration_minutes: 10 },
        { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
      ],
    });
    const freeText = {
      components: [{ type: 'BODY', text: 'Your code is {{1}}' }, ...auth.components.slice(1)],
    };
    expect(reviewTemplate(freeText, 'AUTHENTICATION')).toMatchObject({ ok: false });
  });
});

describe("the simulator's send check", () => {
  const review = reviewTemplate(promo, 'MARKETING');
  if (!review.ok) throw new Error(review.details);
  const template = { category: 'MARKETING', parameterFormat: 'NAMED', components: review.components };
  const header = {
    type: 'header',
    parameters: [{ type: 'image', image: { link: 'https://x.example/a.jpg' } }],
  };
  const body = {
    type: 'body',
    parameters: [
      { type: 'text', parameter_name: 'first_name', text: 'Pablo' },
      { type: 'text', parameter_name: 'discount', text: '25%' },
    ],
  };
  const url = { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 's25' }] };

  it('accepts a send whose header, body and buttons match', () => {
    expect(checkTemplateSend(template, [header, body, url])).toBeNull();
    const reply = {
      type: 'button',
      sub_type: 'quick_reply',
      index: '2',
      parameters: [{ type: 'payload', payload: 'p' }],
    };
    expect(checkTemplateSend(template, [header, body, url, reply])).toBeNull();
  });

  it.each([
    ['no header', [body, url], 132000, 'header: number of localizable_params (0)'],
    [
      'a text header',
      [{ type: 'header', parameters: [{ type: 'text', text: 'x' }] }, body, url],
      132012,
      'header',
    ],
    [
      'one body parameter short',
      [header, { ...body, parameters: body.parameters.slice(1) }, url],
      132000,
      'body',
    ],
    [
      'a misnamed body parameter',
      [
        header,
        { ...body, parameters: [body.parameters[0]!, { ...body.parameters[1]!, parameter_name: 'x' }] },
        url,
      ],
      132000,
      'body: parameter discount',
    ],
    ['no url suffix', [header, body], 132000, 'button at index 0'],
    ['a parameter for the phone button', [header, body, url, { ...url, index: '1' }], 132000, 'index 1'],
  ])('refuses a send with %s, as Meta does', (_, sent, code, details) => {
    expect(checkTemplateSend(template, sent)).toMatchObject({
      code,
      details: expect.stringContaining(details),
    });
  });
});
