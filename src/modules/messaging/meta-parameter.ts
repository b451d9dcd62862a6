import type { GraphSendParameter } from './cloud-api/types.js';

/** A body value in Meta's own shape: `{type: "currency", currency: {...}}`, `{type: "date_time", ...}`, `{type: "text", text}`. */
export type MetaParameter = object;

export type BodyParameter = Extract<GraphSendParameter, { type: 'text' | 'currency' | 'date_time' }>;

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const MAX_TEXT = 1024;

/** Text jsonb and the network take: no U+0000, no lone surrogate, within Meta's parameter length. */
function textProblem(v: unknown): string | null {
  if (typeof v !== 'string' || v.length === 0) return 'is required, as text';
  if (v.length > MAX_TEXT) return `use at most ${MAX_TEXT} characters`;
  // In unicode mode a lone surrogate is a code point of its own (Cs); a pair (an emoji) is not.
  if (v.includes('\u0000') || /\p{Cs}/u.test(v)) return 'contains characters that are not allowed';
  return null;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A body value given in Meta's shape, checked field by field as the Cloud API documents it
 * (currency: fallback_value, an ISO 4217 code, amount_1000 a whole number; date_time:
 * fallback_value), or the problems found, each at its field.
 */
export function metaParameter(
  field: string,
  given: MetaParameter,
  problem: (field: string, message: string) => void,
): { parameter: BodyParameter; text: string } | null {
  const value = given as Record<string, unknown>;
  const kind = value.type;
  if (kind !== 'text' && kind !== 'currency' && kind !== 'date_time') {
    problem(`${field}.type`, 'give text, or a parameter of type "text", "currency" or "date_time"');
    return null;
  }
  const stray = Object.keys(value).filter((k) => k !== 'type' && k !== kind);
  for (const k of stray) problem(`${field}.${k}`, `a ${kind} parameter has no such field`);
  if (kind === 'text') {
    const wrong = textProblem(value.text);
    if (wrong) problem(`${field}.text`, wrong);
    return wrong || stray.length
      ? null
      : { parameter: { type: 'text', text: value.text as string }, text: value.text as string };
  }
  const inner = value[kind];
  if (!isObject(inner)) {
    problem(`${field}.${kind}`, `give the ${kind} as a set of named fields`);
    return null;
  }
  const allowed = kind === 'currency' ? ['fallback_value', 'code', 'amount_1000'] : ['fallback_value'];
  let ok = stray.length === 0;
  for (const k of Object.keys(inner)) {
    if (allowed.includes(k)) continue;
    problem(`${field}.${kind}.${k}`, `a ${kind} has no such field (it takes ${allowed.join(', ')})`);
    ok = false;
  }
  const fallback = inner.fallback_value;
  const wrongFallback = textProblem(fallback);
  if (wrongFallback) {
    problem(`${field}.${kind}.fallback_value`, wrongFallback);
    ok = false;
  }
  if (kind === 'date_time') {
    return ok
      ? {
          parameter: { type: 'date_time', date_time: { fallback_value: fallback as string } },
          text: fallback as string,
        }
      : null;
  }
  const { code, amount_1000: amount } = inner;
  if (typeof code !== 'string' || !CURRENCIES.has(code)) {
    problem(`${field}.currency.code`, 'give an ISO 4217 currency code in capitals, such as USD');
    ok = false;
  }
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) {
    problem(
      `${field}.currency.amount_1000`,
      'give the amount times 1000 as a whole number (100990 for 100.99)',
    );
    ok = false;
  }
  if (!ok) return null;
  return {
    parameter: {
      type: 'currency',
      currency: { fallback_value: fallback as string, code: code as string, amount_1000: amount as number },
    },
    text: fallback as string,
  };
}
