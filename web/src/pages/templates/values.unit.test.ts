import { describe, expect, it } from 'vitest';
import type { GraphTemplateComponent } from '../../../../src/modules/messaging/cloud-api/types.js';
import { templateComponents } from '../../../../src/modules/messaging/template-parameters.js';
import { templateNeeds } from '../../../../src/modules/templates/components.js';
import { PROMO } from '../../../../test/support/rich-template.js';
import { listed } from './listed-template';
import type { Template, TemplateValues } from './types';
import { around, bodyFields, emptyValues, missingValues, valuesPreview } from './values';

// What POST /messages would build from the values, by the server's own rules (a 422 throws).
const send = (t: Template, v: TemplateValues) =>
  templateComponents(
    templateNeeds({ ...t, components: t.components as GraphTemplateComponent[] }),
    v as Parameters<typeof templateComponents>[1],
  ).components;

const promo = listed(PROMO);

describe('the template values form', () => {
  it('labels body variables by name, or by the words around them', () => {
    expect(bodyFields(promo)).toEqual([
      { key: 'first_name', label: 'First name', example: 'Pablo' },
      { key: 'discount', label: 'Discount', example: '25%' },
    ]);
    const positional = listed({
      name: 'order',
      language: 'en',
      category: 'UTILITY',
      components: [
        {
          type: 'BODY',
          text: 'Hi {{1}}, your order {{2}} ships today.',
          example: { body_text: [['Asha', 'A-17']] },
        },
      ],
    });
    expect(bodyFields(positional).map((f) => f.label)).toEqual([
      '“Hi ___, your order”',
      '“your order ___ ships today.”',
    ]);
    expect(around('{{1}} is here', '1')).toBe('___ is here');
  });

  it("starts with every value the template needs, says which are empty by the server's names, and the filled ones send", () => {
    const start = emptyValues(promo);
    expect(start).toEqual({
      header: { link: '' },
      body: { first_name: '', discount: '' },
      buttons: [{ index: 0, text: '' }],
    });
    expect(Object.keys(missingValues(promo, start)).sort()).toEqual([
      'template.body.discount',
      'template.body.first_name',
      'template.buttons[0]',
      'template.header.link',
    ]);
    const filled: TemplateValues = {
      header: { link: 'https://cdn.example/a.jpg' },
      body: { first_name: 'Asha', discount: '10%' },
      buttons: [
        { index: 0, text: 's10' },
        { index: 1, payload: 'no' },
      ],
    };
    expect(missingValues(promo, filled)).toEqual({});
    expect(send(promo, filled)).toHaveLength(4);
    expect(valuesPreview(promo, filled).body).toBe('Hi Asha, 10% off everything until Sunday!');
  });

  it('asks an authentication template for the code alone, which fills its button too', () => {
    const otp = listed({
      name: 'login_code',
      language: 'en',
      category: 'AUTHENTICATION',
      components: [
        { type: 'BODY', add_security_recommendation: true },
        { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE' }] },
      ],
    });
    expect(bodyFields(otp)).toEqual([{ key: '0', label: 'One-time code' }]);
    const start = emptyValues(otp);
    expect(start).toEqual({ body: [''] });
    expect(send(otp, { body: ['123456'] })).toContainEqual({
      type: 'button',
      sub_type: 'url',
      index: '0',
      parameters: [{ type: 'text', text: '123456' }],
    });
    expect(valuesPreview(otp, { body: ['123456'] }).body).toMatch(/^\*123456\* is your verification code/);
    // As Parley keeps it when created, before a sync brings WhatsApp's preset words.
    const asCreated: Template = {
      ...otp,
      body: '',
      components: [
        { type: 'BODY', add_security_recommendation: false },
        { type: 'FOOTER', code_expiration_minutes: 5 },
        { type: 'BUTTONS', buttons: [{ type: 'OTP' }] },
      ],
    };
    expect(valuesPreview(asCreated, { body: [''] })).toEqual({
      body: '*{{1}}* is your verification code.',
      footer: 'This code expires in 5 minutes.',
      buttons: [{ type: 'OTP', text: 'Copy code' }],
    });
  });

  it('gives a text header its string and a location header its coordinates', () => {
    const place = listed({
      name: 'visit',
      language: 'en',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['A-1'] } },
        { type: 'BODY', text: 'See you soon.' },
      ],
    });
    expect(emptyValues(place)).toEqual({ header: '' });
    expect(missingValues(place, { header: '' })).toEqual({ 'template.header': 'Fill in the header.' });
    expect(send(place, { header: 'A-2' })).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: 'A-2' }] },
    ]);
    const pin = listed({
      name: 'pin',
      language: 'en',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'LOCATION' },
        { type: 'BODY', text: 'Meet here.' },
      ],
    });
    const unset = emptyValues(pin);
    expect(unset).toEqual({ header: { latitude: '', longitude: '' } });
    expect(Object.keys(missingValues(pin, unset))).toEqual(['template.header']);
    expect(send(pin, { header: { latitude: 12.97, longitude: 77.59, name: 'Shop' } })).toHaveLength(1);
  });
});
