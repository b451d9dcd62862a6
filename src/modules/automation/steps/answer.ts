import { normalizePhone } from '../../../lib/phone.js';
import { type AskStep, options } from '../definition.js';
import type { ReceivedMessage } from '../message-event.js';

/** A valid answer: the text kept (an option's title for an option), the value saved, the option chosen. */
export type Answer =
  | { valid: true; answer: string; value: string; option: { id: string; next?: string | null } | null }
  | { valid: false; answer: string | null };

// Messages whose text is the contact's own words (or a tapped option's title); a photo's caption is not an answer.
const WORDS = new Set(['text', 'button', 'interactive']);

/** Lower case, without accents, spaces or punctuation: "Track order!" and "track  ordér" match. */
function folded(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/**
 * A date as ISO (2026-12-01) or day first with /, - or . between (1/12/2026, 01.12.26): the
 * calendar date it names, as YYYY-MM-DD, or null when it names none (31/02/2026).
 */
export function readDate(text: string): string | null {
  let y: number;
  let m: number;
  let d: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  const dayFirst = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(text);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (dayFirst) {
    [d, m, y] = [Number(dayFirst[1]), Number(dayFirst[2]), Number(dayFirst[3])];
    if (dayFirst[3]!.length === 2) y += 2000;
  } else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** A number as people type it: 42, -3.5, 3,5, 1 000. Returns its text in JS form, or null. */
function readNumber(text: string): string | null {
  const compact = text.replace(/[\s\u00a0]/g, '').replace(/^(-?\d+),(\d+)$/, '$1.$2');
  if (!/^[+-]?\d+(\.\d+)?$/.test(compact)) return null;
  return String(Number(compact));
}

/**
 * Whether a message answers an ask step. With buttons or a list: a tapped option whose id matches,
 * or text equal to an option's title or its 1-based number (case, accents, spaces and punctuation
 * ignored). Otherwise the message's text read as `expect` says; a message without text (a photo, a
 * voice note) answers nothing.
 */
export function checkAnswer(
  step: AskStep,
  message: Pick<ReceivedMessage, 'type' | 'text' | 'button_payload'>,
  defaultCountryCode: string | null,
): Answer {
  const text = WORDS.has(message.type) ? (message.text ?? '').trim() : '';
  const choices = options(step).map(([, o]) => o);
  if (choices.length > 0) {
    const tapped = message.button_payload ? choices.find((o) => o.id === message.button_payload) : undefined;
    const typed = folded(text);
    const chosen =
      tapped ??
      (typed === '' ? undefined : choices.find((o) => folded(o.title) === typed)) ??
      (/^\d{1,2}$/.test(typed) ? choices[Number(typed) - 1] : undefined);
    if (!chosen) return { valid: false, answer: text || null };
    return { valid: true, answer: chosen.title, value: chosen.title, option: chosen };
  }
  if (text === '') return { valid: false, answer: null };
  const value = readAs(step.expect ?? 'text', text, defaultCountryCode);
  if (value === null) return { valid: false, answer: text };
  return { valid: true, answer: text, value, option: null };
}

function readAs(expect: NonNullable<AskStep['expect']>, text: string, country: string | null): string | null {
  switch (expect) {
    case 'text':
      return text;
    case 'number':
      return readNumber(text);
    case 'email':
      return EMAIL.test(text) ? text.toLowerCase() : null;
    case 'phone': {
      const phone = normalizePhone(text, country);
      return phone.ok ? `+${phone.digits}` : null;
    }
    case 'date':
      return readDate(text);
  }
}
