import { oneLine } from '../../../lib/one-line.js';
import { normalizePhone } from '../../../lib/phone.js';
import type { Mapping } from './column-mapping.js';

/** A row's cells for the mapped fields, as staged for the import job (empty cells left out). */
export interface StagedRow {
  p: string;
  n?: string;
  e?: string;
  t?: string;
  r?: Record<string, string>;
}

export interface ContactRow {
  phone: string;
  name: string | null;
  email: string | null;
  tags: string[];
  traits: Record<string, string>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The row's mapped cells, or why the row is refused before it is staged. */
export function stageRow(cells: string[], width: number, m: Mapping): StagedRow | string {
  if (cells.length !== width)
    return `it has ${cells.length} cells where the header has ${width}; check for a stray comma or quote`;
  const cell = (i: number | null) => (i === null ? '' : (cells[i] ?? '').trim());
  const row: StagedRow = { p: cell(m.phone) };
  const name = cell(m.name);
  const email = cell(m.email);
  const tags = cell(m.tags);
  if (name) row.n = name;
  if (email) row.e = email;
  if (tags) row.t = tags;
  const traits = Object.fromEntries(m.traits.map((t) => [t.key, cell(t.index)]).filter(([, v]) => v));
  if (Object.keys(traits).length) row.r = traits;
  return row;
}

/** A staged row as a contact, its phone normalised with the workspace's default country code, or why it is refused. */
export function contactOfRow(row: StagedRow, defaultCountryCode: string | null): ContactRow | string {
  if (!row.p) return 'it has no phone number';
  const phone = normalizePhone(row.p, defaultCountryCode);
  if (!phone.ok) return phone.message.replace(/^phone /, 'the phone number ');
  // A spreadsheet cell may hold line breaks: a name or tag is kept on one line.
  const name = row.n ? oneLine(row.n) : null;
  if (name && name.length > 200) return 'the name is longer than 200 characters';
  if (row.e && (row.e.length > 254 || !EMAIL.test(row.e)))
    return `"${row.e.slice(0, 80)}" is not an e-mail address`;
  const tags = [...new Set((row.t ?? '').split(/[,;|]/).map(oneLine).filter(Boolean))];
  if (tags.length > 100) return 'it has more than 100 tags';
  const long = tags.find((t) => t.length > 64);
  if (long) return `the tag "${long.slice(0, 64)}…" is longer than 64 characters`;
  const traits = row.r ?? {};
  const big = Object.entries(traits).find(([, v]) => v.length > 1024);
  if (big) return `the value of trait "${big[0]}" is longer than 1024 characters`;
  return { phone: phone.digits, name: name || null, email: row.e ?? null, tags, traits };
}
