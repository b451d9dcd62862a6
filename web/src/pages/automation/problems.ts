import { TRIGGER_NODE } from './links';
import { type Definition, optionsOf, type Step } from './model';

/** A problem as the server's 422 names it: `steps.3.text`, `trigger.keywords.0`, `name`, `(definition)`. */
export interface Problem {
  field: string;
  message: string;
}

/** A problem placed: on a node (a step's id or the trigger's) and a field inside it, or on the whole bot. */
export interface PlacedProblem {
  node: string | null;
  /** The field inside the step or trigger (`buttons.0.title`); '' for the node itself. */
  field: string;
  /** The sentence shown beside the field. */
  message: string;
  /** The sentence shown on the node and in lists: the field's name, then the sentence. */
  text: string;
}

// The server prefixes some step sentences with the step's id; the node already says which step.
const withoutStepName = (message: string) => message.replace(/^step "[^"]*": /, '');

const ORDINAL = (n: string) => String(Number(n) + 1);

/** A field inside a step or trigger, in words: `buttons.1.title` → "Button 2's title". */
export function fieldName(field: string, step?: Step): string {
  const rules: [RegExp, (m: RegExpExecArray) => string][] = [
    [/^text$/, () => (step?.type === 'ask' ? 'The question' : 'The text')],
    [/^buttons\.(\d+)\.title$/, (m) => `Button ${ORDINAL(m[1]!)}'s title`],
    [/^buttons\.(\d+)\.id$/, (m) => `Button ${ORDINAL(m[1]!)}'s id`],
    [/^buttons\.(\d+)/, (m) => `Button ${ORDINAL(m[1]!)}`],
    [/^buttons$/, () => 'The buttons'],
    [/^list\.button$/, () => "The list's button"],
    [/^list\.sections\.(\d+)\.rows\.(\d+)\.title$/, (m) => `Row ${ORDINAL(m[2]!)}'s title`],
    [/^list\.sections\.(\d+)\.rows\.(\d+)\.description$/, (m) => `Row ${ORDINAL(m[2]!)}'s description`],
    [/^list/, () => 'The list'],
    [/^keywords\.(\d+)$/, (m) => `Keyword ${ORDINAL(m[1]!)}`],
    [/^keywords$/, () => 'The keywords'],
    [/^payloads\.(\d+)$/, (m) => `Payload ${ORDINAL(m[1]!)}`],
    [/^payloads$/, () => 'The payloads'],
    [/^after_silence$/, () => 'After silence'],
    [/^event$/, () => 'The event'],
    [/^save_to$/, () => 'Save the answer to'],
    [/^retry_text$/, () => 'The text sent on an invalid answer'],
    [/^attempts$/, () => 'Attempts'],
    [/^timeout$/, () => 'The timeout'],
    [/^on_timeout$/, () => 'On timeout'],
    [/^on_invalid$/, () => 'On an invalid answer'],
    [/^not_sent$/, () => 'When the window is closed'],
    [/^next$/, () => 'Then'],
    [/^to$/, () => 'The teammate'],
    [/^if\.field$/, () => 'The field checked'],
    [/^if\.value$/, () => 'The value compared'],
    [/^template/, () => 'The template'],
    [/^message/, () => 'The message'],
    [/^url$/, () => 'The URL'],
    [/^key$/, () => 'The trait'],
    [/^tag$/, () => 'The tag'],
    [/^duration$/, () => 'The wait'],
  ];
  for (const [re, name] of rules) {
    const m = re.exec(field);
    if (m) return name(m);
  }
  return field ? field.replace(/[._]/g, ' ') : '';
}

const TOP_LEVEL: Record<string, string> = {
  name: 'The name',
  steps: 'The steps',
  on_teammate_reply: 'When a teammate replies',
  '(definition)': 'The bot',
};

/** Each problem on its node and field, in words; never the joined "invalid definition: ..." sentence. */
export function placeProblems(def: Definition, problems: Problem[]): PlacedProblem[] {
  return problems.map(({ field, message }) => {
    const sentence = withoutStepName(message);
    const step = /^steps\.(\d+)(?:\.(.*))?$/.exec(field);
    if (step) {
      const s = def.steps[Number(step[1])];
      if (s) {
        const inner = step[2] ?? '';
        const name = fieldName(inner, s);
        return {
          node: s.id,
          field: inner,
          message: sentence,
          text: name ? `${name}: ${sentence}` : sentence,
        };
      }
    }
    const trigger = /^trigger(?:\.(.*))?$/.exec(field);
    if (trigger) {
      const inner = trigger[1] ?? '';
      const name = fieldName(inner);
      return {
        node: TRIGGER_NODE,
        field: inner,
        message: sentence,
        text: name ? `${name}: ${sentence}` : sentence,
      };
    }
    const name = TOP_LEVEL[field] ?? fieldName(field);
    return { node: null, field, message: sentence, text: `${name}: ${sentence}` };
  });
}

/** The problems of one node, by field inside it (for the fields' error lines). */
export function problemsOf(placed: PlacedProblem[], node: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of placed) if (p.node === node && !(p.field in out)) out[p.field] = p.message;
  return out;
}

const BUTTON_TITLE_MAX = 20;
const ROW_TITLE_MAX = 24;

/** What is plainly missing before anything is sent, in the server's shape and the same words. */
export function draftProblems(def: Definition): Problem[] {
  const problems: Problem[] = [];
  const t = def.trigger;
  if (t.type === 'message_received') {
    (t.keywords ?? []).forEach((k, i) => {
      if (!k.trim())
        problems.push({ field: `trigger.keywords.${i}`, message: 'Write the keyword, or remove it.' });
    });
    (t.payloads ?? []).forEach((p, i) => {
      if (!p.trim())
        problems.push({ field: `trigger.payloads.${i}`, message: 'Write the payload, or remove it.' });
    });
  }
  def.steps.forEach((step, i) => {
    if (step.type !== 'ask') return;
    if (!String(step.text ?? '').trim())
      problems.push({ field: `steps.${i}.text`, message: 'Write the question to ask.' });
    const titles = new Set<string>();
    for (const { option, path } of optionsOf(step)) {
      const max = path.startsWith('buttons') ? BUTTON_TITLE_MAX : ROW_TITLE_MAX;
      const title = option.title.trim();
      if (!title) problems.push({ field: `steps.${i}.${path}.title`, message: 'Give this option a title.' });
      else if (title.length > max && !title.includes('{{'))
        problems.push({ field: `steps.${i}.${path}.title`, message: `Use at most ${max} characters.` });
      else if (titles.has(title.toLowerCase()))
        problems.push({
          field: `steps.${i}.${path}.title`,
          message: 'Another option has this title: give each its own.',
        });
      titles.add(title.toLowerCase());
    }
  });
  return problems;
}
