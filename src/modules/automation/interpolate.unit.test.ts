import { describe, expect, it } from 'vitest';
import { evaluate, usesHours } from './conditions.js';
import { interpolate } from './interpolate.js';

const scope = {
  contact: { name: 'Asha', phone: '919876543210', tags: ['vip', 'beta'], traits: { plan: 'pro', seats: 12 } },
  event: { name: 'signup', properties: { plan: 'growth', source: '' } },
  lead: { fields: { city: 'Pune' } },
};

describe('interpolate', () => {
  it('fills contact, event and lead paths', () => {
    expect(
      interpolate(
        '{{contact.name}} on {{ event.properties.plan }} from {{lead.fields.city}} ({{contact.traits.seats}})',
        scope,
      ),
    ).toBe('Asha on growth from Pune (12)');
  });

  it('uses the fallback for missing or empty values and reports paths with neither', () => {
    const missing: string[] = [];
    expect(
      interpolate(
        '{{contact.email | "friend"}}/{{event.properties.source|web}}/{{lead.fields.zip}}',
        scope,
        missing,
      ),
    ).toBe('friend/web/');
    expect(missing).toEqual(['lead.fields.zip']);
  });

  it('never reads inherited properties', () => {
    expect(interpolate('{{contact.constructor}}{{contact.__proto__}}{{contact.name.length}}', scope)).toBe(
      '',
    );
  });
});

describe('conditions', () => {
  it('compares tags, text and numbers', () => {
    expect(evaluate({ field: 'contact.tags', op: 'contains', value: 'vip' }, scope)).toBe(true);
    expect(evaluate({ field: 'contact.tags', op: 'not_contains', value: 'vip' }, scope)).toBe(false);
    expect(evaluate({ field: 'event.properties.plan', op: 'equals', value: 'growth' }, scope)).toBe(true);
    expect(evaluate({ field: 'contact.traits.seats', op: 'greater_than', value: '9' }, scope)).toBe(true);
    expect(evaluate({ field: 'contact.traits.seats', op: 'less_than', value: '9' }, scope)).toBe(false);
    expect(evaluate({ field: 'event.properties.source', op: 'exists' }, scope)).toBe(false);
    expect(evaluate({ field: 'lead.fields.city', op: 'not_exists' }, scope)).toBe(false);
  });

  it('combines checks with all and any', () => {
    const vip = { field: 'contact.tags', op: 'contains' as const, value: 'vip' };
    const free = { field: 'contact.traits.plan', op: 'equals' as const, value: 'free' };
    expect(evaluate({ all: [vip, free] }, scope)).toBe(false);
    expect(evaluate({ any: [vip, free] }, scope)).toBe(true);
  });

  it('checks business hours alone and among others, as given when the step runs', () => {
    const vip = { field: 'contact.tags', op: 'contains' as const, value: 'vip' };
    expect(evaluate({ inside_business_hours: true }, scope, true)).toBe(true);
    expect(evaluate({ inside_business_hours: true }, scope, false)).toBe(false);
    expect(evaluate({ inside_business_hours: false }, scope, false)).toBe(true);
    expect(evaluate({ all: [vip, { inside_business_hours: false }] }, scope, true)).toBe(false);
    expect(evaluate({ all: [vip, { inside_business_hours: false }] }, scope, false)).toBe(true);
    expect(evaluate({ any: [{ inside_business_hours: true }, vip] }, scope, false)).toBe(true);
    expect(usesHours({ any: [vip, { inside_business_hours: true }] })).toBe(true);
    expect(usesHours({ all: [vip] })).toBe(false);
    expect(usesHours(vip)).toBe(false);
  });
});
