import { normalizePhone } from '../../lib/phone.js';

// What an HTML form's type=email accepts, roughly: something@something.tld, no spaces.
const EMAIL = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:"]+$/;

export type Read = { ok: true; value: string | null } | { ok: false; message: string };

/** A submitted value as text: trimmed, and empty means absent (a blank field of an HTML form). */
export function text(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

export function readEmail(value: unknown): Read {
  const email = text(value);
  if (email === null) return { ok: true, value: null };
  if (email.length > 254 || !EMAIL.test(email))
    return { ok: false, message: 'Enter an e-mail address, such as name@example.com.' };
  return { ok: true, value: email };
}

export function readPhone(value: unknown, defaultCountryCode: string | null): Read {
  const phone = text(value);
  if (phone === null) return { ok: true, value: null };
  const normalized = normalizePhone(phone.slice(0, 40), defaultCountryCode);
  return normalized.ok ? { ok: true, value: normalized.digits } : { ok: false, message: normalized.message };
}

/** Names longer than a column should hold are cut, not refused: the rest of the lead matters more. */
export function readName(value: unknown): string | null {
  return text(value)?.slice(0, 200) ?? null;
}

export const NO_CONTACT_DETAILS = 'Enter an e-mail address or a phone number: a lead needs one of them.';
