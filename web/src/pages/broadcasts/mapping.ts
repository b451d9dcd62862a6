import { component, type Template } from '../templates/types';
import { bodyFields, buttonLabel, headerLabel, TAKES_LABEL } from '../templates/values';
import type { ValueSource, Values } from './types';

/** One part of a template a broadcast fills per contact, labelled as the customer reads it. */
export interface Part {
  /** 'header', 'body:<name or position>', 'button:<index>'. */
  key: string;
  label: string;
  /** A media header takes one link for everyone, not a value per contact. */
  kind: 'value' | 'link';
  /** Where the server names this part in a 422's details (`values.body.first_name`, `values.buttons[0]`). */
  fields: string[];
}

/** A part's mapping as the form holds it: a source, and for a link header just the link. */
export type Mapping = ValueSource | { from: 'link'; link: string };

/** The parts of `t` a broadcast fills: its header's, its body's variables, its buttons' that take one. */
export function partsOf(t: Template): Part[] {
  const parts: Part[] = [];
  const format = t.header?.format ?? '';
  if (t.header?.takes_value && format === 'TEXT')
    parts.push({
      key: 'header',
      label: headerLabel(component(t, 'HEADER')?.text ?? ''),
      kind: 'value',
      fields: ['values.header'],
    });
  if (t.header?.takes_value && ['IMAGE', 'VIDEO', 'DOCUMENT'].includes(format))
    parts.push({
      key: 'header',
      label: `Header ${format.toLowerCase()} link`,
      kind: 'link',
      fields: ['values.header'],
    });
  const named = t.body_parameters.length > 0;
  for (const f of bodyFields(t))
    parts.push({
      key: `body:${f.key}`,
      label: f.label,
      kind: 'value',
      fields: named ? [`values.body.${f.key}`] : [`values.body[${f.key}]`, `values.body.${f.key}`],
    });
  if (t.category !== 'AUTHENTICATION')
    for (const b of t.buttons.filter((x) => x.takes))
      parts.push({
        key: `button:${b.index}`,
        label: `${TAKES_LABEL[b.takes!]} for “${buttonLabel(t, b.index)}”${b.required ? '' : ' (optional)'}`,
        kind: 'value',
        fields: [`values.buttons[${b.index}]`],
      });
  return parts;
}

/** A location header takes coordinates no contact field holds: such a template cannot be broadcast here. */
export const unsupported = (t: Template) => Boolean(t.header?.takes_value && t.header.format === 'LOCATION');

export function blankMapping(part: Part): Mapping {
  return part.kind === 'link' ? { from: 'link', link: '' } : { from: 'text', text: '' };
}

const filled = (m: Mapping) =>
  !(m.from === 'text' && !m.text.trim()) &&
  !(m.from === 'trait' && !m.key.trim()) &&
  !(m.from === 'link' && !m.link.trim());

/** What the form must say before sending, by part key: an empty text, an unnamed trait, no link. */
export function mappingProblems(
  parts: Part[],
  mappings: Record<string, Mapping>,
  t: Template,
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const p of parts) {
    const m = mappings[p.key] ?? blankMapping(p);
    const optional =
      p.key.startsWith('button:') && !t.buttons.find((b) => `button:${b.index}` === p.key)?.required;
    if (filled(m) || (optional && m.from === 'text' && !m.text.trim())) continue;
    problems[p.key] =
      m.from === 'trait'
        ? 'Name the trait.'
        : m.from === 'link'
          ? 'Give a link to the file.'
          : 'Fill this in.';
  }
  return problems;
}

/** A source as the API takes it: an empty fallback left out. */
function source(m: ValueSource): ValueSource {
  if (m.from === 'text') return m;
  const { fallback, ...rest } = m;
  return fallback?.trim() ? { ...rest, fallback } : rest;
}

/** The broadcast's `values` from the form's mappings (optional buttons left empty are left out). */
export function toValues(t: Template, parts: Part[], mappings: Record<string, Mapping>): Values {
  const values: Values = {};
  const named = t.body_parameters.length > 0;
  const body: ValueSource[] = [];
  const byName: Record<string, ValueSource> = {};
  const buttons: NonNullable<Values['buttons']> = [];
  for (const p of parts) {
    const m = mappings[p.key] ?? blankMapping(p);
    if (m.from === 'link') {
      values.header = { link: m.link.trim() };
      continue;
    }
    const [where, key = ''] = p.key.split(':');
    if (where === 'header') values.header = source(m);
    else if (where === 'body' && named) byName[key] = source(m);
    else if (where === 'body') body[Number(key)] = source(m);
    else if (!(m.from === 'text' && !m.text.trim())) buttons.push({ index: Number(key), value: source(m) });
  }
  if (named && Object.keys(byName).length) values.body = byName;
  if (!named && body.length) values.body = body;
  if (buttons.length) values.buttons = buttons;
  return values;
}

/** The server's problem with a part, if it named one of the part's fields or something inside it. */
export function problemAt(errors: Record<string, string>, fields: string[]): string | undefined {
  for (const [k, v] of Object.entries(errors))
    if (fields.some((f) => k === f || k.startsWith(`${f}.`) || k.startsWith(`${f}[`))) return v;
  return undefined;
}

/**
 * The server names a button's value by its place in `values.buttons` (`values.buttons.0.value.text`):
 * each such problem renamed by the button's own index (`values.buttons[2].value.text`), as parts name them.
 */
export function byButtonIndex(errors: Record<string, string>, values: Values): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([k, v]) => {
      const m = /^values\.buttons\.(\d+)(.*)$/.exec(k);
      const index = m && values.buttons?.[Number(m[1])]?.index;
      return [index === undefined || index === null ? k : `values.buttons[${index}]${m![2]}`, v];
    }),
  );
}
