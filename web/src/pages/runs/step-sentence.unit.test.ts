import { describe, expect, it } from 'vitest';
import type { RunStep } from '../../server-types';
import { stepSentence } from './step-sentence';

const step = (over: Partial<RunStep>): RunStep => ({
  step_id: 's',
  visit: 1,
  type: 'add_tag',
  status: 'done',
  outcome: {},
  next_step: null,
  wait_until: null,
  attempts: 1,
  error: null,
  started_at: '2026-11-23T10:00:00Z',
  finished_at: '2026-11-23T10:00:00Z',
  ...over,
});

describe('a run step in words', () => {
  it('says what each kind of step did', () => {
    expect(
      stepSentence(step({ type: 'send_template', outcome: { message_id: 'msg_1' } }), {
        id: 's',
        type: 'send_template',
        template: { name: 'welcome', language: 'en' },
      }),
    ).toBe('Sent template “welcome” (en)');
    expect(stepSentence(step({ type: 'wait' }), { id: 's', type: 'wait', duration: '2h' })).toBe(
      'Waited 2 h',
    );
    expect(stepSentence(step({ type: 'add_tag', outcome: { tag: 'vip' } }))).toBe('Tag “vip” added');
    expect(stepSentence(step({ type: 'condition', outcome: { result: true }, next_step: 'offer' }))).toBe(
      'Condition true → offer',
    );
    expect(stepSentence(step({ type: 'condition', outcome: { result: false } }))).toBe(
      'Condition false → the run ended',
    );
    expect(
      stepSentence(step({ type: 'http_request', outcome: { status_code: 200, body: '{}' } }), {
        id: 's',
        type: 'http_request',
        method: 'GET',
        url: 'https://crm.example/hook',
      }),
    ).toBe('Called GET https://crm.example/hook: HTTP 200');
    expect(stepSentence(step({ type: 'update_lead_status', outcome: { status: 'won' } }))).toBe(
      'Lead status set to “won”',
    );
  });

  it('gives the reason a step was skipped and where the run went', () => {
    const reason = 'the 24-hour window was closed: the contact has not written in the last 24 hours';
    expect(
      stepSentence(step({ type: 'send_text', status: 'skipped', outcome: { sent: false, reason } })),
    ).toBe(`Skipped because ${reason}. The run ended here.`);
    expect(
      stepSentence(
        step({ type: 'send_text', status: 'skipped', outcome: { sent: false, reason }, next_step: 'tpl' }),
      ),
    ).toBe(`Skipped because ${reason}. It went on to tpl.`);
    expect(stepSentence(step({ status: 'failed', error: 'template_not_found: No template' }))).toBe(
      'Failed: template_not_found: No template',
    );
  });
});
