import { mentionToken } from '../../../../src/modules/inbox/mention-token';

/** A teammate picked after `@` in the note box, as the box shows them. */
export interface Picked {
  id: string;
  shown: string;
}

/**
 * The note's text as sent: each picked teammate's `@Name` becomes their `<@usr_…>` token (longest
 * names first, so "@Tara Singh" is not taken for "@Tara").
 */
export function withMentionTokens(text: string, picked: Picked[]): string {
  let out = text;
  for (const p of [...picked].sort((a, b) => b.shown.length - a.shown.length))
    out = out.split(`@${p.shown}`).join(mentionToken(p.id));
  return out;
}
