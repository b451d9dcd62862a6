// OWASP's CSV injection advice: a cell a spreadsheet would read as a formula starts with a quote.
// Spreadsheets with East Asian input read the full-width ＝＋－＠ as their ASCII forms.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A value as an exported cell: text, never a formula when the file is opened in a spreadsheet. */
export function safeCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}
