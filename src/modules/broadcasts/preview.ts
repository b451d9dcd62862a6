import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { CONTACT_COLUMNS } from '../contacts/list-contacts.js';
import type { Contact } from '../contacts/schemas.js';
import { approvedTemplate } from './approved-template.js';
import { fillValues } from './fill-values.js';
import type { Values } from './schemas.js';

const VARIABLE = /\{\{\s*([\w.]+)\s*\}\}/g;

/** A component's text with its variables filled: positional by number, named by name. */
function render(text: string, values: string[] | Record<string, string> | string | undefined): string {
  return text.replace(VARIABLE, (whole, name: string) => {
    if (typeof values === 'string') return values;
    const value = Array.isArray(values) ? values[Number(name) - 1] : values?.[name];
    return value ?? whole;
  });
}

/**
 * POST /broadcasts/preview: the template as one contact would read it (the given one, else the
 * workspace's newest), and the parts that fell back or are empty for them.
 */
export async function previewBroadcast(
  db: Queryable,
  workspaceId: string,
  input: { template: { name: string; language: string }; values: Values; contact_id?: string },
) {
  const template = await approvedTemplate(db, workspaceId, input.template);
  const { rows } = await db.query<Contact>(
    `SELECT ${CONTACT_COLUMNS} FROM contacts
     WHERE workspace_id = $1 AND ($2::text IS NULL OR id = $2) ORDER BY created_at DESC, id DESC LIMIT 1`,
    [workspaceId, input.contact_id ?? null],
  );
  const contact = rows[0] ?? null;
  if (input.contact_id && !contact) throw ApiError.invalid('contact_id', 'There is no contact with that id.');
  const filled = fillValues(template.needs, input.values, contact);
  const of = (type: string) => (template.components ?? []).find((c) => c.type.toUpperCase() === type);
  const header = of('HEADER');
  const headerValue = filled.template.header;
  const rendered: { header?: string; body: string; footer?: string; buttons?: string[] } = {
    body: render(of('BODY')?.text ?? template.body, filled.template.body),
  };
  if (header) {
    const format = (header.format ?? 'TEXT').toUpperCase();
    rendered.header =
      format === 'TEXT'
        ? render(header.text ?? '', typeof headerValue === 'string' ? headerValue : undefined)
        : `[${format.toLowerCase()}${typeof headerValue === 'object' && headerValue.link ? `: ${headerValue.link}` : ''}]`;
  }
  const footer = of('FOOTER')?.text;
  if (footer) rendered.footer = footer;
  const buttons = of('BUTTONS')?.buttons;
  if (buttons?.length) rendered.buttons = buttons.map((b) => b.text ?? b.type);
  return { contact, rendered, missing: filled.missing };
}
