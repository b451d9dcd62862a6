import type { AppContext } from '../context.js';
import { createAutomation } from '../modules/automation/save-automation.js';

const welcomeSteps = [
  {
    id: 'welcome',
    type: 'send_template',
    template: { name: 'welcome', language: 'en', body: ['{{contact.name | "there"}}', 'Parley'] },
  },
  { id: 'pause', type: 'wait', duration: '10s' },
  { id: 'tag', type: 'add_tag', tag: 'welcomed' },
];

/** The demo's flows and sequences: what `parley demo` prints under flow, sequence and their siblings. */
export async function seedDemoAutomations(ctx: AppContext, workspaceId: string, formId: string) {
  const flow = await createAutomation(
    ctx,
    workspaceId,
    { name: 'Welcome new sign-ups', trigger: { type: 'event', event: 'signup' }, steps: welcomeSteps },
    { publish: true },
  );
  const draft = await createAutomation(ctx, workspaceId, {
    name: 'Sign-up survey (draft)',
    trigger: { type: 'event', event: 'signup' },
    steps: [{ id: 'tag', type: 'add_tag', tag: 'surveyed' }],
  });
  const sequence = await createAutomation(
    ctx,
    workspaceId,
    {
      name: 'New lead from the CRM',
      trigger: { type: 'webhook' },
      steps: [
        {
          id: 'has-phone',
          type: 'condition',
          if: { field: 'contact.phone', op: 'exists' },
          if_true: 'greet',
          if_false: 'contacted',
        },
        {
          id: 'greet',
          type: 'send_template',
          template: { name: 'welcome', language: 'en', body: ['{{lead.name | "there"}}', 'Parley'] },
        },
        { id: 'contacted', type: 'update_lead_status', status: 'contacted' },
      ],
    },
    { publish: true },
  );
  const other = await createAutomation(
    ctx,
    workspaceId,
    {
      name: 'Form lead follow-up',
      trigger: { type: 'form_submitted', form_id: formId },
      steps: [{ id: 'tag', type: 'add_tag', tag: 'form-lead' }],
    },
    { publish: true },
  );
  return {
    flow: { id: flow.id, event: 'signup' },
    unpublished_flow: { id: draft.id, event: 'signup' },
    sequence: { id: sequence.id, secret: sequence.secret! },
    other_sequence: { id: other.id },
  };
}
