import { describe, expect, it } from 'vitest';
import { attachmentHeader, safeFileName } from './file-name.js';

describe('safeFileName', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\x\\..\\invoice.pdf', 'invoice.pdf'],
    ['a"b\r\nSet-Cookie: x=1.pdf', 'a_b__Set-Cookie_ x_1.pdf'],
    ['..hidden', 'hidden'],
    ['Rechnung März.pdf', 'Rechnung März.pdf'],
    ['<script>.html', '_script_.html'],
    ['', 'document'],
    ['/', 'document'],
  ])('%j becomes %j', (given, expected) => {
    expect(safeFileName(given, 'document')).toBe(expected);
  });

  it('keeps at most 120 characters', () => {
    expect(safeFileName('a'.repeat(500), 'x')).toHaveLength(120);
  });
});

it('writes Content-Disposition with an ASCII name and the UTF-8 one', () => {
  expect(attachmentHeader('Rechnung März.pdf')).toBe(
    `attachment; filename="Rechnung M_rz.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf`,
  );
});
