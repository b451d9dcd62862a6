import { ONE_LINE_WORDS } from '../lib/one-line.js';
import { NAME_PATTERN } from './schema.js';

/** A field at fault and the sentence shown beside it (errors.ts's ErrorDetail; not imported, errors.ts imports this). */
interface FieldSentence {
  field: string;
  message: string;
}

/** One schema validation failure as Ajv reports it (with `verbose`, so `data` is the value refused). */
export interface AjvError {
  instancePath: string;
  schemaPath?: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  data?: unknown;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'Use text here.',
  number: 'Use a number here.',
  integer: 'Use a whole number here.',
  boolean: 'Use true or false here.',
  array: 'Use a list here.',
  object: 'Use a set of named fields here.',
  null: 'Leave this empty.',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'Enter an e-mail address, such as name@example.com.',
  uri: 'Enter a full web address, such as https://example.com/hook.',
  'date-time': 'Enter a date and time, such as 2026-01-31T09:00:00Z.',
};

const plural = (n: unknown, one: string, many: string) =>
  `${Number(n).toLocaleString('en-US')} ${Number(n) === 1 ? one : many}`;

const quoted = (v: unknown) => JSON.stringify(v);

/**
 * The sentence a person reads for one failure, from its keyword and params only: the validator's
 * own `message` ("must NOT have more than 200 characters") never reaches anyone.
 */
function sentence(e: AjvError): string {
  const p = e.params;
  if (typeof e.data === 'number' && !Number.isFinite(e.data)) return 'Use a smaller number.';
  switch (e.keyword) {
    case 'required':
      return 'Fill this in.';
    case 'additionalProperties':
      return 'Remove this field: it is not one this accepts.';
    case 'type':
      return TYPE_WORDS[String(p.type).split(',')[0]!] ?? 'Use a value of the right kind here.';
    case 'minLength':
      return Number(p.limit) === 1
        ? 'Fill this in.'
        : `Use at least ${plural(p.limit, 'character', 'characters')}.`;
    case 'maxLength':
      return `Use at most ${plural(p.limit, 'character', 'characters')}.`;
    case 'minItems':
      return `Give at least ${plural(p.limit, 'item', 'items')}.`;
    case 'maxItems':
      return `Give at most ${plural(p.limit, 'item', 'items')}.`;
    case 'minProperties':
      return `Give at least ${plural(p.limit, 'entry', 'entries')}.`;
    case 'maxProperties':
      return `Give at most ${plural(p.limit, 'entry', 'entries')}.`;
    case 'uniqueItems':
      return 'Remove the repeated items: give each once.';
    case 'minimum':
      return `Use ${p.limit} or more.`;
    case 'exclusiveMinimum':
      return `Use more than ${p.limit}.`;
    case 'maximum':
      return `Use ${p.limit} or less.`;
    case 'exclusiveMaximum':
      return `Use less than ${p.limit}.`;
    case 'multipleOf':
      return `Use a multiple of ${p.multipleOf}.`;
    case 'format':
      return FORMAT_WORDS[String(p.format)] ?? 'This is not in the expected form.';
    case 'pattern':
      return p.pattern === NAME_PATTERN
        ? ONE_LINE_WORDS
        : 'This contains characters that are not allowed here.';
    case 'enum':
      return `Choose one of ${(p.allowedValues as unknown[]).map(quoted).join(', ')}.`;
    case 'const':
      return `Use ${quoted(p.allowedValue)}.`;
    default:
      return 'This value is not accepted here.';
  }
}

function fieldOf(e: AjvError, context: string): string {
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const extra = e.params.missingProperty ?? e.params.additionalProperty;
  const named = [...(context === 'body' ? [] : [context]), ...path, ...(extra ? [String(extra)] : [])];
  return named.join('.') || context;
}

/**
 * The failures of one request as a plain sentence per field. A union (`anyOf`) reports a failure
 * per branch and then its own: branches that are each one allowed value become a single
 * "Choose one of ..."; otherwise the first branch's reason stands for the union.
 */
export function plainValidationDetails(errors: AjvError[], context: string): FieldSentence[] {
  const unionPaths = new Set(
    errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath),
  );
  const details: FieldSentence[] = [];
  const seen = new Set<string>();
  const add = (field: string, message: string) => {
    const key = `${field}\n${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    details.push({ field, message });
  };
  for (const path of unionPaths) {
    const branches = errors.filter(
      (e) => e.instancePath === path && e.keyword !== 'anyOf' && e.keyword !== 'oneOf',
    );
    const first = branches.find((e) => e.keyword !== 'const' && e.keyword !== 'type') ?? branches[0];
    const union = errors.find((e) => e.instancePath === path)!;
    if (branches.length > 0 && branches.every((e) => e.keyword === 'const')) {
      add(
        fieldOf(union, context),
        `Choose one of ${branches.map((e) => quoted(e.params.allowedValue)).join(', ')}.`,
      );
    } else {
      add(fieldOf(first ?? union, context), first ? sentence(first) : sentence(union));
    }
  }
  for (const e of errors) {
    if (unionPaths.has(e.instancePath)) continue;
    add(fieldOf(e, context), sentence(e));
  }
  return details.slice(0, 20);
}
