import { describe, expect, it } from 'vitest';
import { contactOfRow } from './import-row.js';

describe('contactOfRow', () => {
  it('keeps a name and tags on one line: a cell line break or tab becomes a space', () => {
    const contact = contactOfRow(
      { p: '+14155550100', n: 'Ann\r\nO\u0085Brien\t', t: 'vip\n2026, b2b' },
      null,
    );
    expect(contact).toMatchObject({ name: 'Ann O Brien', tags: ['vip 2026', 'b2b'] });
  });

  it('leaves no name where the cell held only control characters', () => {
    expect(contactOfRow({ p: '+14155550100', n: '\r\n\u2028' }, null)).toMatchObject({ name: null });
  });
});
