import type { Trigger } from './definition.js';
import type { ReceivedMessage } from './message-event.js';
import { durationMs } from './steps/wait.js';

export type MessageTrigger = Extract<Trigger, { type: 'message_received' }>;

/** The words of a text as keywords compare them: no case, no accents, no punctuation or symbols. */
export function keywordWords(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ');
}

function keywordMatches(trigger: MessageTrigger, text: string | null): boolean {
  if (!trigger.keywords || !text) return false;
  const said = keywordWords(text);
  if (!said) return false;
  return trigger.keywords.some((k) => {
    const word = keywordWords(k);
    if (!word) return false;
    return trigger.match === 'contains' ? ` ${said} `.includes(` ${word} `) : said === word;
  });
}

export interface Arrival {
  message: ReceivedMessage;
  at: Date;
  /** The contact's inbound message before this one; null for its first ever. */
  previousAt: Date | null;
  /** Whether `at` is inside the workspace's business hours (read only when a trigger asks, needsHours). */
  inside: boolean;
}

/**
 * How specifically a trigger claims a message, or null when it does not: a tapped payload (3), a
 * keyword (2), any message (1); a trigger limited to first messages or to messages after a silence
 * ranks above one that is not (+0.5), and one limited to inside or outside business hours above one
 * that is not (+0.25). The highest wins; among equals, the oldest automation.
 */
export function claimRank(trigger: MessageTrigger, arrival: Arrival): number | null {
  if (trigger.hours && (trigger.hours === 'inside') !== arrival.inside) return null;
  if (trigger.first_message && arrival.previousAt !== null) return null;
  if (trigger.after_silence && arrival.previousAt !== null) {
    const quiet = arrival.at.getTime() - arrival.previousAt.getTime();
    if (quiet < durationMs(trigger.after_silence)) return null;
  }
  const timed = (trigger.first_message || trigger.after_silence ? 0.5 : 0) + (trigger.hours ? 0.25 : 0);
  const payload = arrival.message.button_payload;
  if (payload !== null && trigger.payloads?.includes(payload)) return 3 + timed;
  if (keywordMatches(trigger, arrival.message.text)) return 2 + timed;
  if (trigger.keywords || trigger.payloads) return null;
  return 1 + timed;
}

/** Whether the trigger needs the contact's previous message to decide. */
export const needsHistory = (t: MessageTrigger) => Boolean(t.first_message || t.after_silence);

/** Whether the trigger needs to know if the message came inside business hours. */
export const needsHours = (t: MessageTrigger) => t.hours !== undefined;
