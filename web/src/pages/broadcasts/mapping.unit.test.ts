import { describe, expect, it } from 'vitest';
import { PROMO } from '../../../../test/support/rich-template.js';
import { listed } from '../templates/listed-template';
import { byButtonIndex, type Mapping, mappingProblems, partsOf, toValues } from './mapping';

const promo = listed(PROMO);
const positional = listed({
  name: 'winter_sale',
  language: 'en',
  category: 'MARKETING',
  components: [
    {
      type: 'BODY',
      text: 'Hi {{1}}, our winter sale starts today. Use code {{2}} at checkout.',
      example: { body_text: [['Ravi', 'WINTER10']] },
    },
  ],
});

describe("a broadcast's value mapping", () => {
  it('names each part by its variable or the words around it, never {{1}}', () => {
    expect(partsOf(promo).map((p) => [p.key, p.label, p.kind])).toEqual([
      ['header', 'Header image link', 'link'],
      ['body:first_name', 'First name', 'value'],
      ['body:discount', 'Discount', 'value'],
      ['button:0', 'Link ending for “Shop”', 'value'],
      ['button:1', 'Reply payload for “Not interested” (optional)', 'value'],
    ]);
    expect(partsOf(positional).map((p) => p.label)).toEqual([
      '“Hi ___, our winter”',
      '“Use code ___ at checkout.”',
    ]);
  });

  it('builds the API values: named or positional body, fallbacks only when given, empty optional buttons left out', () => {
    const mappings: Record<string, Mapping> = {
      header: { from: 'link', link: ' https://cdn.example/a.jpg ' },
      'body:first_name': { from: 'contact', field: 'name', fallback: 'there' },
      'body:discount': { from: 'trait', key: 'discount', fallback: '' },
      'button:0': { from: 'text', text: 's25' },
      'button:1': { from: 'text', text: '' },
    };
    expect(toValues(promo, partsOf(promo), mappings)).toEqual({
      header: { link: 'https://cdn.example/a.jpg' },
      body: {
        first_name: { from: 'contact', field: 'name', fallback: 'there' },
        discount: { from: 'trait', key: 'discount' },
      },
      buttons: [{ index: 0, value: { from: 'text', text: 's25' } }],
    });
    expect(
      toValues(positional, partsOf(positional), {
        'body:0': { from: 'contact', field: 'name', fallback: 'there' },
        'body:1': { from: 'text', text: 'WINTER10' },
      }),
    ).toEqual({
      body: [
        { from: 'contact', field: 'name', fallback: 'there' },
        { from: 'text', text: 'WINTER10' },
      ],
    });
  });

  it('says what is missing before sending, the optional button excepted', () => {
    expect(mappingProblems(partsOf(promo), { 'body:discount': { from: 'trait', key: ' ' } }, promo)).toEqual({
      header: 'Give a link to the file.',
      'body:first_name': 'Fill this in.',
      'body:discount': 'Name the trait.',
      'button:0': 'Fill this in.',
    });
  });

  it("renames the server's problems of a button by the button's own index", () => {
    const values = { buttons: [{ index: 1, value: { from: 'text' as const, text: 'x' } }] };
    expect(
      byButtonIndex({ 'values.buttons.0.value.text': 'Too long.', name: 'Fill this in.' }, values),
    ).toEqual({
      'values.buttons[1].value.text': 'Too long.',
      name: 'Fill this in.',
    });
  });
});
