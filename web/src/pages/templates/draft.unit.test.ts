import { describe, expect, it } from 'vitest';
import { reviewTemplate } from '../../../../src/simulator/template-review.js';
import { PROMO } from '../../../../test/support/rich-template.js';
import {
  blankDraft,
  type Draft,
  type DraftButton,
  draftErrors,
  placeProblem,
  previewOf,
  toRequest,
} from './draft';

const draft = (patch: Partial<Draft>): Draft => ({ ...blankDraft(), name: 'offer', ...patch });
const button = (type: DraftButton['type'], patch: Partial<DraftButton> = {}): DraftButton => ({
  key: Math.random(),
  type,
  text: 'Go',
  target: '',
  example: '',
  ...patch,
});
// The simulator reviews a creation request as Meta documents it.
const review = (d: Draft) => {
  const req = toRequest(d) as { category: string };
  return reviewTemplate(req, req.category);
};

const promo = draft({
  name: 'summer_sale',
  parameterFormat: 'NAMED',
  header: {
    format: 'IMAGE',
    text: '',
    example: '',
    media: '4::aW1hZ2UvanBlZw==:ARa1',
    fileName: 'sale.jpg',
    preview: 'blob:http://127.0.0.1/sale',
  },
  body: 'Hi {{first_name}}, {{discount}} off everything until Sunday!',
  examples: { first_name: 'Pablo', discount: '25%' },
  footer: 'Reply STOP to opt out',
  buttons: [
    button('URL', { text: 'Shop', target: 'https://shop.example/sale/{{1}}', example: 's25' }),
    button('QUICK_REPLY', { text: 'Not interested' }),
  ],
});

const upper = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v), (k, x) => (['type', 'format'].includes(k) ? String(x).toUpperCase() : x));

describe('the template editor draft', () => {
  it("gives Meta's creation request for its custom marketing template", () => {
    expect(draftErrors(promo)).toEqual({});
    expect(toRequest(promo)).toEqual(upper(PROMO));
  });

  it('passes review with each header kind, both variable styles and every button', () => {
    const drafts: Draft[] = [
      promo,
      draft({
        header: { format: 'TEXT', text: 'Order {{1}}', example: '', media: '', fileName: '', preview: '' },
        body: 'Hi {{1}}, your order ships on {{2}}.',
        examples: { 1: 'A-17', 2: 'Friday' },
      }),
      draft({
        parameterFormat: 'NAMED',
        header: {
          format: 'TEXT',
          text: 'Order {{order_id}}',
          example: '',
          media: '',
          fileName: '',
          preview: '',
        },
        body: 'Hi {{first_name}}.',
        examples: { order_id: 'A-17', first_name: 'Asha' },
      }),
      ...(['VIDEO', 'DOCUMENT'] as const).map((format) =>
        draft({
          header: { format, text: '', example: '', media: '4::dmlkZW8vbXA0:ARb2', fileName: '', preview: '' },
          body: 'Here it is.',
        }),
      ),
      draft({
        header: { format: 'LOCATION', text: '', example: '', media: '', fileName: '', preview: '' },
        body: 'See you there.',
        buttons: [
          button('PHONE_NUMBER', { text: 'Call us', target: '+1 555 005 1310' }),
          button('URL', { text: 'Site', target: 'https://example.com' }),
          button('COPY_CODE', { example: 'SAVE25' }),
        ],
      }),
    ];
    for (const d of drafts) {
      expect(draftErrors(d)).toEqual({});
      expect(review(d)).toMatchObject({ ok: true });
    }
  });

  it("gives an authentication template only Meta's options, which Parley turns into its preset components", () => {
    const auth = draft({ category: 'AUTHENTICATION', body: 'ignored', security: true, expiry: '5' });
    expect(draftErrors(auth)).toEqual({});
    expect(toRequest(auth)).toEqual({
      name: 'offer',
      language: 'en_US',
      category: 'AUTHENTICATION',
      add_security_recommendation: true,
      code_expiration_minutes: 5,
      otp_type: 'COPY_CODE',
    });
    expect(draftErrors({ ...auth, expiry: '91' }).expiry).toBe(
      'Give whole minutes from 1 to 90, or leave it empty.',
    );
  });

  it("names in words what Meta's limits refuse, by field", () => {
    const errors = draftErrors(
      draft({
        category: 'UTILITY',
        header: {
          format: 'TEXT',
          text: '{{1}} and {{2}}',
          example: '',
          media: '',
          fileName: '',
          preview: '',
        },
        body: 'Hi {{1}} and {{3}}',
        examples: {},
        footer: 'Bye {{1}}',
        buttons: [
          button('QUICK_REPLY'),
          button('URL', { target: 'https://x.example/{{1}}/more' }),
          button('QUICK_REPLY', { text: 'x'.repeat(26) }),
          button('COPY_CODE', { example: 'C' }),
        ],
      }),
    );
    expect(errors).toEqual({
      'header.text': 'A header takes at most one variable.',
      body: 'Number the variables in turn, from {{1}} to {{2}}.',
      footer: 'A footer cannot have variables.',
      buttons: 'Keep the quick replies together, before or after the other buttons.',
      'buttons.1.target': 'Put {{1}} at the very end of the address.',
      'buttons.1.example': 'Give a sample ending for the review.',
      'buttons.2.text': 'Keep the label to 25 characters.',
      'buttons.3.example': 'Copy-code buttons are for marketing templates.',
    });
    expect(draftErrors(draft({ parameterFormat: 'NAMED', body: 'Hi {{First}}' })).body).toMatch(/lowercase/);
    expect(draftErrors(draft({ body: 'Hi {{1}}' }))['examples.1']).toBe(
      'Give a sample value for the review.',
    );
    expect(draftErrors(draft({ name: 'Offer', body: 'x' })).name).toMatch(/lowercase/);
  });

  it('previews the bubble with the samples filled in, and the preset authentication text', () => {
    expect(previewOf(promo)).toEqual({
      header: { format: 'IMAGE', text: '', media: 'blob:http://127.0.0.1/sale' },
      body: 'Hi Pablo, 25% off everything until Sunday!',
      footer: 'Reply STOP to opt out',
      buttons: [
        { type: 'URL', text: 'Shop' },
        { type: 'QUICK_REPLY', text: 'Not interested' },
      ],
    });
    expect(previewOf(draft({ category: 'AUTHENTICATION', security: false, expiry: '5' }))).toEqual({
      body: '*123456* is your verification code.',
      footer: 'This code expires in 5 minutes.',
      buttons: [{ type: 'OTP', text: 'Copy code' }],
    });
  });

  it("places the network's refusal at the component it names", () => {
    const refused = 'the network refused the template: (#100) Invalid parameter: buttons[1]: url is required';
    expect(placeProblem('template', refused)).toEqual([
      'buttons.1.text',
      'WhatsApp refused this: url is required',
    ]);
    expect(
      placeProblem(
        'template',
        'the network refused the template: Content in this language already exists',
      )[0],
    ).toBe('name');
    expect(placeProblem('code_expiration_minutes', 'whole minutes, 1 to 90')).toEqual([
      'expiry',
      'whole minutes, 1 to 90',
    ]);
  });
});
