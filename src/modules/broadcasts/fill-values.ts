import { ApiError } from '../../api/errors.js';
import type { TemplateValues } from '../messaging/template-parameters.js';
import { templateComponents } from '../messaging/template-parameters.js';
import type { TemplateNeeds } from '../templates/components.js';
import type { ValueSource, Values } from './schemas.js';

/** What a value source reads of a contact. */
export interface ValueContact {
  phone: string;
  name: string | null;
  email: string | null;
  traits: object;
}

export interface Filled {
  /** The `template` parts POST /messages takes (name and language added by the caller). */
  template: TemplateValues;
  /** Parts that fell back (or are empty): `values.body[0]`, `values.header`... */
  missing: string[];
  /** Parts with no value at all once filled: the network refuses an empty parameter. */
  empty: string[];
}

function read(source: ValueSource, contact: ValueContact | null): string {
  if (source.from === 'text') return source.text;
  if (!contact) return '';
  const raw =
    source.from === 'contact'
      ? source.field === 'phone'
        ? `+${contact.phone}`
        : contact[source.field]
      : (contact.traits as Record<string, unknown>)[source.key];
  if (raw === null || raw === undefined) return '';
  return (typeof raw === 'object' ? JSON.stringify(raw) : String(raw)).trim();
}

/**
 * The values a broadcast gives one contact: each source read from the contact, its fallback when
 * that is empty. `probe` stands a sample word in for every contact value, to check the mapping
 * against the template before any contact is known.
 */
export function fillValues(
  needs: TemplateNeeds,
  values: Values,
  contact: ValueContact | null,
  probe = false,
): Filled {
  const missing: string[] = [];
  const empty: string[] = [];
  const fill = (source: ValueSource, part: string) => {
    const own = probe && source.from !== 'text' ? 'sample' : read(source, contact);
    if (own) return own;
    const fallback = source.from === 'text' ? '' : (source.fallback?.trim() ?? '');
    missing.push(part);
    if (!fallback) empty.push(part);
    return fallback;
  };
  const template: TemplateValues = {};
  if (Array.isArray(values.body)) template.body = values.body.map((s, i) => fill(s, `values.body[${i}]`));
  else if (values.body)
    template.body = Object.fromEntries(
      Object.entries(values.body).map(([name, s]) => [name, fill(s, `values.body.${name}`)]),
    );
  if (values.header)
    template.header =
      'link' in values.header ? { link: values.header.link } : fill(values.header, 'values.header');
  if (values.buttons?.length) {
    template.buttons = values.buttons.map((b) => ({
      index: b.index,
      [needs.buttons.find((n) => n.index === b.index)?.takes ?? 'text']: fill(
        b.value,
        `values.buttons[${b.index}]`,
      ),
    }));
  }
  return { template, missing, empty };
}

/**
 * The mapping checked against the template's components as a send would be (a variable without a
 * source, a value for a part the template lacks): a 422 whose details name the `values` field.
 */
export function checkValues(needs: TemplateNeeds, values: Values): void {
  try {
    templateComponents(needs, fillValues(needs, values, null, true).template);
  } catch (err) {
    if (!(err instanceof ApiError) || !err.details) throw err;
    const details = err.details.map((d) => ({
      field: d.field.replace(/^template\b/, 'values'),
      message: d.message.replace(
        /^needs (\d+) values, got (\d+)$/,
        'the template has $1 variables; give a source for each ($2 given)',
      ),
    }));
    throw new ApiError(
      'validation_error',
      details.map((d) => `${d.field}: ${d.message}`).join('; '),
      details,
    );
  }
}
