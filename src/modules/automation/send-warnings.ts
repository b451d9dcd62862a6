/**
 * What the builder warns about before publishing (plain data in, sentences out; the web app runs it
 * on the draft as it is edited). A sequence starts when a lead arrives, and the person behind it has
 * usually not written on WhatsApp in the last 24 hours, or came without a phone: a free-text or media
 * step then sends nothing and is skipped.
 */
interface DraftStep {
  id: string;
  type: string;
  not_sent?: string | null;
}

interface SendWarning {
  step: string;
  message: string;
}

const WINDOWED = new Set(['send_text', 'send_message']);

// A flow's event comes from the business's own system, and a bot starts from the customer's own
// message, inside the window: neither is warned about.
const NOT_WARNED = new Set(['event', 'message_received']);

export function sendWarnings(draft: { trigger: { type: string }; steps: DraftStep[] }): SendWarning[] {
  if (NOT_WARNED.has(draft.trigger.type)) return [];
  return draft.steps
    .filter((s) => WINDOWED.has(s.type))
    .map((s) => ({
      step: s.id,
      message:
        'This sequence starts when a lead arrives, usually outside the 24-hour window (or without a phone), ' +
        `so this message will most likely not be sent and the step will be skipped${
          s.not_sent ? ', going to its "not sent" step' : ': the run ends there'
        }. Send an approved template instead, or set where to go when it is not sent.`,
    }));
}
