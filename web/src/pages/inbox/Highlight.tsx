import type { ReactNode } from 'react';

/**
 * `text` with each case-insensitive occurrence of `term` marked, as the inbox's search matched it
 * (ILIKE: letters without regard to case, every other character as typed).
 */
export function Highlight({ text, term }: { text: string; term: string }): ReactNode {
  const t = term.trim().toLowerCase();
  if (!t) return text;
  const lower = text.toLowerCase();
  const parts: ReactNode[] = [];
  let from = 0;
  for (let at = lower.indexOf(t); at >= 0 && t.length > 0; at = lower.indexOf(t, from)) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(<mark key={at}>{text.slice(at, at + t.length)}</mark>);
    from = at + t.length;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(from));
  return parts;
}

/** The digits of a search that reads as a phone number (digits and phone punctuation), as the server takes it. */
export const phoneDigits = (term: string) =>
  /^[\d\s()+.-]+$/.test(term.trim()) ? term.replace(/\D/g, '') : '';

/** A phone (digits) with the searched digits marked, when the search was a phone number. */
export function HighlightPhone({ phone, term }: { phone: string; term: string }): ReactNode {
  return <Highlight text={phone} term={phoneDigits(term)} />;
}
