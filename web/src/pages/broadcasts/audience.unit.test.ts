import { describe, expect, it } from 'vitest';
import { blankAudience, toAudience } from './audience';

describe("the audience builder's inputs as the API's audience", () => {
  it('sorts tags by rule, reads trait values, and takes whole days in the workspace zone', () => {
    const audience = toAudience(
      {
        ...blankAudience,
        tags: { vip: 'all', new: 'any', lapsed: 'none', promo: 'any' },
        traits: [
          { key: ' city ', op: 'equals', value: 'Pune' },
          { key: 'orders', op: 'equals', value: '3' },
          { key: 'zip', op: 'equals', value: '01234' },
          { key: 'beta', op: 'equals', value: 'true' },
          { key: 'email_ok', op: 'exists', value: '' },
          { key: 'banned', op: 'missing', value: 'ignored' },
          { key: '  ', op: 'exists', value: '' },
        ],
        created: { from: '2026-11-01', to: '2026-11-30' },
        lastInbound: { from: '', to: '2026-11-20' },
      },
      'Asia/Kolkata',
    );
    expect(audience).toEqual({
      tags_all: ['vip'],
      tags_any: ['new', 'promo'],
      tags_none: ['lapsed'],
      traits: [
        { key: 'city', equals: 'Pune' },
        { key: 'orders', equals: 3 },
        { key: 'zip', equals: '01234' },
        { key: 'beta', equals: true },
        { key: 'email_ok', exists: true },
        { key: 'banned', exists: false },
      ],
      created: { from: '2026-11-01T00:00:00+05:30', to: '2026-11-30T23:59:59+05:30' },
      last_inbound: { to: '2026-11-20T23:59:59+05:30' },
    });
  });

  it('is every contact when nothing is chosen, and only the import when a CSV is the source', () => {
    expect(toAudience(blankAudience, 'UTC')).toEqual({});
    expect(
      toAudience({ ...blankAudience, tags: { vip: 'all' }, source: 'import', importId: 'imp_1' }, 'UTC'),
    ).toEqual({
      import_id: 'imp_1',
    });
  });
});
