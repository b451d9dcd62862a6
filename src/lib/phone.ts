import {
  type CountryCallingCode,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';

export type PhoneResult = { ok: true; digits: string } | { ok: false; message: string };

const SEPARATORS = /[\s\-.()]/g;
const CALLING_CODES = new Set<string>(getCountries().map((c) => getCountryCallingCode(c)));

export function isCallingCode(code: string): boolean {
  return CALLING_CODES.has(code);
}

/**
 * Normalises a phone number to E.164 digits (no "+"). A leading "+" or "00" means the number
 * carries its country code; otherwise the workspace's default country code is tried first, then the
 * digits are read as an international number.
 */
export function normalizePhone(raw: string, defaultCountryCode: string | null): PhoneResult {
  const stripped = raw.trim().replace(SEPARATORS, '');
  const international = stripped.startsWith('+') || stripped.startsWith('00');
  const digits = stripped.startsWith('+')
    ? stripped.slice(1)
    : stripped.startsWith('00')
      ? stripped.slice(2)
      : stripped;
  if (!/^\d{1,20}$/.test(digits)) {
    return {
      ok: false,
      message: 'Use digits only, optionally with +, spaces, dashes, dots or parentheses.',
    };
  }
  if (international) {
    return validInternational(digits) ?? { ok: false, message: `+${digits} is not a valid phone number` };
  }
  if (defaultCountryCode) {
    const national = parsePhoneNumberFromString(digits, {
      defaultCallingCode: defaultCountryCode as CountryCallingCode,
    });
    if (national?.isValid()) return { ok: true, digits: national.number.slice(1) };
  }
  return (
    validInternational(digits) ?? {
      ok: false,
      message: defaultCountryCode
        ? `${digits} is not a valid number for country code ${defaultCountryCode} nor with a country code of its own; check the number`
        : `${digits} is not a valid international number: add the country code, or set a default country code in Settings`,
    }
  );
}

function validInternational(digits: string): PhoneResult | null {
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  return parsed?.isValid() ? { ok: true, digits: parsed.number.slice(1) } : null;
}
