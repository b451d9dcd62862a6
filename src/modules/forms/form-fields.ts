import { ApiError } from '../../api/errors.js';

/** A field of a form, as the hosted page, the embed script and the HTML snippet render it. */
export interface FormField {
  /** The key it is submitted under: name, email and phone fill the lead; any other lands in its fields. */
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  /** For `select`. */
  options?: string[];
}

export const FIELD_TYPES = [
  'text',
  'email',
  'tel',
  'textarea',
  'number',
  'url',
  'date',
  'select',
  'checkbox',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Posted empty by every rendering of a form, hidden from people; a value means a bot filled it. */
export const HONEYPOT_FIELD = '_hp_website';

/** The longest text one form field takes: the intake schema's limit, and each input's maxlength. */
export const FIELD_VALUE_MAX_LENGTH = 10_000;

/** Field names a form cannot use for custom fields. */
export const RESERVED_FIELDS = new Set(['token', HONEYPOT_FIELD]);

export const DEFAULT_FIELDS: FormField[] = [
  { name: 'name', label: 'Name', type: 'text', required: false },
  { name: 'email', label: 'E-mail', type: 'email', required: false },
  { name: 'phone', label: 'Phone (with country code)', type: 'tel', required: false },
];

const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const BUILT_IN_TYPES: Record<string, FieldType> = { name: 'text', email: 'email', phone: 'tel' };

/** Checks a form's field list, returning it in the stored shape; throws a validation error naming the field. */
export function checkFields(fields: FormField[]): FormField[] {
  if (fields.length === 0 || fields.length > 50)
    throw ApiError.invalid('fields', 'Give a form 1 to 50 fields.');
  const seen = new Set<string>();
  const checked = fields.map((f, i) => {
    // Shown beside the field in the web app; the message alone also says which field.
    const refuse = (key: string, sentence: string) =>
      new ApiError('validation_error', `Field ${i + 1}: ${sentence}`, [
        { field: `fields.${i}.${key}`, message: sentence },
      ]);
    if (typeof f.name !== 'string' || !FIELD_NAME.test(f.name))
      throw refuse('name', 'Use lower-case letters, digits and _ (1 to 64, a letter first).');
    if (RESERVED_FIELDS.has(f.name))
      throw refuse('name', `The name "${f.name}" is kept for the form itself: choose another.`);
    if (seen.has(f.name)) throw refuse('name', `Two fields are named "${f.name}": rename one.`);
    seen.add(f.name);
    if (typeof f.label !== 'string' || !f.label.trim() || f.label.length > 200)
      throw refuse('label', 'Give a label of 1 to 200 characters.');
    if (!FIELD_TYPES.includes(f.type)) throw refuse('type', `Choose one of ${FIELD_TYPES.join(', ')}.`);
    const builtIn = BUILT_IN_TYPES[f.name];
    if (builtIn && f.type !== builtIn)
      throw refuse('type', `The ${f.name} field is always of type ${builtIn}.`);
    const field: FormField = {
      name: f.name,
      label: f.label.trim(),
      type: f.type,
      required: f.required === true,
    };
    if (f.type === 'select') {
      const options = f.options ?? [];
      if (
        options.length === 0 ||
        options.length > 100 ||
        options.some((o) => typeof o !== 'string' || !o || o.length > 200)
      )
        throw refuse('options', 'Give a choice list 1 to 100 options of 1 to 200 characters each.');
      field.options = options;
    }
    return field;
  });
  if (!seen.has('email') && !seen.has('phone'))
    throw ApiError.invalid('fields', 'Add an email or a phone field: a lead needs one of them.');
  return checked;
}
