/** Words that opt a contact out or back in whatever the workspace adds (carriers' and Meta's usual ones). */
export const BUILT_IN_OPT_OUT = ['STOP', 'UNSUBSCRIBE'];
export const BUILT_IN_OPT_IN = ['START'];

/** The longest word a workspace may add, as compared. */
export const MAX_KEYWORD = 50;

export interface ConsentWords {
  optOut: readonly string[];
  optIn: readonly string[];
}

// Whitespace, punctuation and symbols around the word ("Stop!", " *STOP* ", "«stop»", "STOP 🛑").
const EDGES = /^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu;

/** A keyword as it is compared: the whole message, trimmed of what surrounds it, in one case. */
export function keywordForm(text: string): string {
  return text.normalize('NFKC').replace(EDGES, '').replace(/\s+/g, ' ').toUpperCase();
}

/**
 * What a message says about consent, if it is one of the words and nothing else: "please stop the
 * offers" is a conversation for a person, not an opt-out. Opt-out wins a tie between the two lists.
 */
export function consentKeyword(
  text: string | null,
  words: ConsentWords,
): { optedOut: boolean; keyword: string } | null {
  if (!text || text.length > 4 * MAX_KEYWORD) return null;
  const said = keywordForm(text);
  if (!said) return null;
  const has = (list: readonly string[]) => list.some((w) => keywordForm(w) === said);
  if (has(BUILT_IN_OPT_OUT) || has(words.optOut)) return { optedOut: true, keyword: said };
  if (has(BUILT_IN_OPT_IN) || has(words.optIn)) return { optedOut: false, keyword: said };
  return null;
}
