const INT4_MAX = 2_147_483_647;
const MAX_REASON = 1_000;

/**
 * A network error code as Parley stores it (messages.error_code is an integer): Meta documents
 * codes as numbers, yet an answer may carry one as a numeric string ("131026"), as text, or not at
 * all. A number or numeric string within range is the code; anything else is code 0 (the network
 * gave no code Parley can keep) with what it sent kept in the reason's words.
 */
export function networkError(code: unknown, text: unknown): { code: number; reason: string } {
  const words = typeof text === 'string' ? storableText(text, MAX_REASON) : '';
  const parsed =
    typeof code === 'number'
      ? code
      : typeof code === 'string' && /^\d{1,10}$/.test(code.trim())
        ? Number(code)
        : NaN;
  if (Number.isSafeInteger(parsed) && parsed >= 0 && parsed <= INT4_MAX)
    return { code: parsed, reason: words };
  if (code === undefined || code === null || code === '') return { code: 0, reason: words };
  const given = storableText(typeof code === 'string' ? code : (JSON.stringify(code) ?? String(code)), 100);
  return { code: 0, reason: words ? `${words} (network code ${given})` : `network code ${given}` };
}

// A UTF-16 surrogate without its pair: JSON allows it ("\ud800"), PostgreSQL's jsonb refuses it.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text from the network made storable: U+0000 and lone surrogates become U+FFFD, cut at `max`. */
export function storableText(value: string, max: number): string {
  return value.slice(0, max).replaceAll('\u0000', '\ufffd').replace(LONE_SURROGATE, '\ufffd');
}

/** Meta's failure of a marketing message to a user who stopped marketing messages; Parley's own for an opt-out. */
export const OPTED_OUT_CODE = 131050;
