import { describe, expect, it } from 'vitest';
import { safeCell } from './safe-cell.js';

describe('safeCell', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1'])(
    'quotes %j, which a spreadsheet would run',
    (text) => {
      expect(safeCell(text)).toBe(`'${text}`);
    },
  );

  it.each(['\uFF1DHYPERLINK("http://x")', '\uFF0B1', '\uFF0D1', '\uFF20SUM(A1)'])(
    'quotes the full-width form %j too',
    (text) => {
      expect(safeCell(text)).toBe(`'${text}`);
    },
  );

  it('leaves other text, a sign inside a cell and empty values as they are', () => {
    expect(safeCell('Ana = Bo')).toBe('Ana = Bo');
    expect(safeCell('a\uFF1Db')).toBe('a\uFF1Db');
    expect(safeCell(null)).toBe('');
    expect(safeCell(undefined)).toBe('');
    expect(safeCell(12)).toBe('12');
  });
});
