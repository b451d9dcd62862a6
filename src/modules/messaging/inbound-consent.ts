import type { Queryable } from '../../db/db.js';
import { consentKeyword, keywordForm, MAX_KEYWORD } from '../contacts/consent-keywords.js';
import { type ConsentChange, setConsent } from '../contacts/set-consent.js';
import { buttonPayload } from './inbound-content.js';
import type { InboundMessage } from './webhook-items.js';

interface ConsentSettings {
  opt_out_keywords: string[];
  opt_in_keywords: string[];
  opt_out_confirmation: string | null;
  opt_in_confirmation: string | null;
}

// Only what could be a keyword costs a read of the workspace's words: a conversation does not.
const couldBeKeyword = (t: unknown): t is string =>
  typeof t === 'string' &&
  t.length <= 4 * MAX_KEYWORD &&
  keywordForm(t).length > 0 &&
  keywordForm(t).length <= MAX_KEYWORD;

/** What an inbound message could be read as: its text, or a tapped button's payload and title. */
function candidates(m: InboundMessage): { text: string; source: 'keyword' | 'payload' }[] {
  if (m.type === 'text') return couldBeKeyword(m.text) ? [{ text: m.text, source: 'keyword' }] : [];
  if (m.type !== 'button' && m.type !== 'interactive') return [];
  return [buttonPayload(m.content), m.text]
    .filter(couldBeKeyword)
    .map((text) => ({ text, source: 'payload' as const }));
}

/** A consent keyword's meaning, and the change it made (none when the contact already stood so). */
export interface InboundConsent {
  optedOut: boolean;
  change: ConsentChange | null;
  reply: string | null;
}

/**
 * An inbound STOP, UNSUBSCRIBE or START (or one of the workspace's own words, as text or a tapped
 * button) changes the contact's consent, in the transaction storing the message. Answers the change
 * and the confirmation the workspace asked to send back, if any; a keyword that changes nothing is
 * still a keyword (no bot answers a second STOP).
 */
export async function applyInboundConsent(
  tx: Queryable,
  workspaceId: string,
  contactId: string,
  messageId: string,
  m: InboundMessage,
): Promise<InboundConsent | null> {
  const said = candidates(m);
  if (said.length === 0) return null;
  const { rows } = await tx.query<ConsentSettings>(
    `SELECT opt_out_keywords, opt_in_keywords, opt_out_confirmation, opt_in_confirmation
     FROM workspaces WHERE id = $1`,
    [workspaceId],
  );
  const settings = rows[0];
  if (!settings) return null;
  const words = { optOut: settings.opt_out_keywords, optIn: settings.opt_in_keywords };
  for (const { text, source } of said) {
    const found = consentKeyword(text, words);
    if (!found) continue;
    const change = await setConsent(tx, workspaceId, contactId, found.optedOut, {
      source,
      messageId,
      keyword: found.keyword,
    });
    if (!change) return { optedOut: found.optedOut, change: null, reply: null };
    const reply = found.optedOut ? settings.opt_out_confirmation : settings.opt_in_confirmation;
    return { optedOut: found.optedOut, change, reply: reply?.trim() ? reply : null };
  }
  return null;
}
