import { describeMessage, emptyMessage, type RichMessage } from './RichMessageFields';

/** The builder's view of an automation definition (the server validates it: src/modules/automation/definition.ts). */
export type StepType =
  | 'send_template'
  | 'send_text'
  | 'send_message'
  | 'wait'
  | 'add_tag'
  | 'remove_tag'
  | 'set_trait'
  | 'condition'
  | 'http_request'
  | 'update_lead_status'
  | 'ask'
  | 'assign'
  | 'resolve';

export interface Check {
  field: string;
  op: string;
  value?: string;
}

/** A check of the workspace's business hours as the condition step runs. */
export interface HoursCheck {
  inside_business_hours: boolean;
}

export interface Step {
  id: string;
  type: StepType;
  next?: string | null;
  [key: string]: unknown;
}

/** A question's option: a reply button, or a row of a list; its own `next` wins over the step's. */
export interface Option {
  id: string;
  title: string;
  description?: string;
  next?: string | null;
}

export interface AskList {
  button: string;
  sections: { title?: string; rows: Option[] }[];
}

export interface MessageReceived {
  type: 'message_received';
  keywords?: string[];
  match?: 'exact' | 'contains';
  payloads?: string[];
  first_message?: boolean;
  after_silence?: string;
  hours?: 'inside' | 'outside';
  while_assigned?: boolean;
}

export type Trigger =
  | { type: 'event'; event: string }
  | { type: 'webhook' }
  | { type: 'form_submitted'; form_id?: string }
  | { type: 'lead_created' }
  | MessageReceived;

export interface Definition {
  name: string;
  trigger: Trigger;
  steps: Step[];
  on_teammate_reply?: 'stop' | 'continue';
}

export const STEP_TYPES: { type: StepType; label: string; icon: string; hint: string }[] = [
  {
    type: 'send_template',
    label: 'Send template',
    icon: '✉',
    hint: 'An approved WhatsApp template, any time',
  },
  { type: 'send_text', label: 'Send text', icon: '✎', hint: 'Free text, only inside the 24-hour window' },
  {
    type: 'send_message',
    label: 'Send media or buttons',
    icon: '▣',
    hint: 'An image, file, reply buttons or a location, only inside the 24-hour window',
  },
  { type: 'wait', label: 'Wait', icon: '◷', hint: 'Pause for minutes, hours or days' },
  { type: 'condition', label: 'Condition', icon: '◇', hint: 'Branch on a tag, trait, event or lead field' },
  { type: 'add_tag', label: 'Add tag', icon: '+', hint: 'Tag the contact' },
  { type: 'remove_tag', label: 'Remove tag', icon: '−', hint: 'Untag the contact' },
  { type: 'set_trait', label: 'Set trait', icon: '≔', hint: 'Store a value on the contact' },
  { type: 'http_request', label: 'HTTP request', icon: '⇄', hint: 'Call another system' },
  { type: 'update_lead_status', label: 'Update lead status', icon: '◉', hint: 'Move the lead along' },
  {
    type: 'ask',
    label: 'Ask a question',
    icon: '?',
    hint: 'Ask, with buttons or a list, and wait for the answer',
  },
  { type: 'assign', label: 'Hand to a teammate', icon: '☺', hint: 'Give the conversation to people' },
  { type: 'resolve', label: 'Resolve', icon: '✓', hint: 'Close the conversation' },
];

/** The kinds of answer an ask without options checks. */
export const EXPECTS = [
  ['text', 'any text'],
  ['number', 'a number'],
  ['email', 'an e-mail address'],
  ['phone', 'a phone number'],
  ['date', 'a date'],
] as const;

export const OPS = [
  ['equals', 'equals'],
  ['not_equals', 'does not equal'],
  ['contains', 'contains'],
  ['not_contains', 'does not contain'],
  ['exists', 'exists'],
  ['not_exists', 'does not exist'],
  ['greater_than', 'is greater than'],
  ['less_than', 'is less than'],
] as const;

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'won', 'lost'];

export function stepMeta(type: StepType) {
  return STEP_TYPES.find((s) => s.type === type)!;
}

/** A new step of this type with an id not used yet. */
export function newStep(type: StepType, steps: Step[]): Step {
  let n = steps.length + 1;
  while (steps.some((s) => s.id === `step_${n}`)) n++;
  const id = `step_${n}`;
  switch (type) {
    case 'send_template':
      return { id, type, template: { name: '', language: '', body: [] } };
    case 'send_text':
      return { id, type, text: '' };
    case 'send_message':
      return { id, type, message: emptyMessage('image') };
    case 'wait':
      return { id, type, duration: '1h' };
    case 'add_tag':
    case 'remove_tag':
      return { id, type, tag: '' };
    case 'set_trait':
      return { id, type, key: '', value: '' };
    case 'condition':
      return {
        id,
        type,
        if: { field: 'contact.tags', op: 'contains', value: '' },
        if_true: null,
        if_false: null,
      };
    case 'http_request':
      return { id, type, method: 'POST', url: 'https://' };
    case 'update_lead_status':
      return { id, type, status: 'contacted' };
    case 'ask':
      return { id, type, text: '' };
    case 'assign':
      return { id, type, to: null };
    case 'resolve':
      return { id, type };
  }
}

/** A question's options, buttons or list rows, each with where it sits in the step (`buttons.0`). */
export function optionsOf(step: Step): { option: Option; path: string }[] {
  if (step.type !== 'ask') return [];
  const buttons = step.buttons as Option[] | undefined;
  if (buttons) return buttons.map((option, i) => ({ option, path: `buttons.${i}` }));
  const list = step.list as AskList | undefined;
  if (!list) return [];
  return list.sections.flatMap((section, s) =>
    section.rows.map((option, r) => ({ option, path: `list.sections.${s}.rows.${r}` })),
  );
}

/** One line saying what a step does, for the graph. */
export function summarize(step: Step): string {
  const s = step as Record<string, unknown> & Step;
  switch (step.type) {
    case 'send_template': {
      const t = s.template as { name: string; language: string };
      return t.name ? `${t.name} (${t.language})` : 'Choose a template';
    }
    case 'send_text':
      return String(s.text || 'Write the text');
    case 'send_message':
      return describeMessage(s.message as RichMessage);
    case 'wait':
      return s.duration ? `for ${s.duration}` : `until ${String(s.until)}`;
    case 'add_tag':
    case 'remove_tag':
      return String(s.tag || 'Name the tag');
    case 'set_trait':
      return `${String(s.key || '…')} = ${String(s.value ?? '')}`;
    case 'condition': {
      const c = s.if as Check | HoursCheck | { all?: Check[]; any?: Check[] };
      if ('inside_business_hours' in c)
        return `if ${c.inside_business_hours ? 'inside' : 'outside'} business hours`;
      if ('field' in c)
        return `if ${c.field} ${OPS.find(([o]) => o === c.op)?.[1] ?? c.op} ${c.value ?? ''}`.trim();
      return 'if several checks hold';
    }
    case 'http_request':
      return `${String(s.method ?? 'POST')} ${String(s.url)}`;
    case 'update_lead_status':
      return `to ${String(s.status)}`;
    case 'ask': {
      const options = optionsOf(step).map((o) => o.option.title || '…');
      const question = String(s.text || 'Write the question');
      return options.length ? `${question} [${options.join(' | ')}]` : question;
    }
    case 'assign':
      return `${s.team ? 'to a team' : s.to ? 'to a teammate' : 'to the unassigned queue'}${s.then === 'wait' ? ', then wait' : ''}`;
    case 'resolve':
      return 'close the conversation';
  }
}

/** Steps sent only inside the 24-hour window, with a "not sent" link for when it is closed. */
export const hasWindow = (step: Step) =>
  step.type === 'send_text' || step.type === 'send_message' || step.type === 'ask';

/** Where a step's link leads, in words. */
export function targetLabel(steps: Step[], index: number, target: string | null | undefined): string {
  if (target === null) return 'end the run';
  if (target === undefined) return steps[index + 1] ? `continue to ${steps[index + 1]!.id}` : 'end the run';
  return `go to ${target}`;
}
