import { describe, expect, it } from 'vitest';
import { sendWarnings } from './send-warnings.js';

const steps = [
  { id: 'hello', type: 'send_text' },
  { id: 'photo', type: 'send_message', not_sent: 'fallback' },
  { id: 'fallback', type: 'send_template' },
];

describe('sendWarnings', () => {
  it('warns about each free-text or media step of a sequence, saying where it goes when not sent', () => {
    const warnings = sendWarnings({ trigger: { type: 'webhook' }, steps });
    expect(warnings.map((w) => w.step)).toEqual(['hello', 'photo']);
    expect(warnings[0]!.message).toContain('the run ends there');
    expect(warnings[1]!.message).toContain('going to its "not sent" step');
  });

  it('says nothing for a flow started by an event or a bot started by the customer’s message', () => {
    expect(sendWarnings({ trigger: { type: 'event' }, steps })).toEqual([]);
    expect(sendWarnings({ trigger: { type: 'message_received' }, steps })).toEqual([]);
  });
});
