import { randomBytes } from 'node:crypto';
import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { isOneLine, ONE_LINE_WORDS } from '../../lib/one-line.js';
import { checkFields, DEFAULT_FIELDS, type FormField } from './form-fields.js';

export interface NewForm {
  name?: string;
  fields?: FormField[];
  active?: boolean;
  thankYouMessage?: string | null;
  redirectUrl?: string | null;
}

/** A public form token: 24 random bytes, base64url (192 bits), so it cannot be guessed or enumerated. */
function newFormToken(): string {
  return `ft_${randomBytes(24).toString('base64url')}`;
}

/** Creates a form (name, e-mail and phone fields unless others are given); the token is public. */
export async function createForm(
  db: Queryable,
  workspaceId: string,
  input: NewForm = {},
): Promise<{ id: string; token: string }> {
  const name = (input.name ?? 'Contact form').trim();
  if (!name || name.length > 200) throw ApiError.invalid('name', 'Enter a name of 1 to 200 characters.');
  if (!isOneLine(name)) throw ApiError.invalid('name', ONE_LINE_WORDS);
  const fields = checkFields(input.fields ?? DEFAULT_FIELDS);
  const thankYou = input.thankYouMessage?.trim() || null;
  if (thankYou && thankYou.length > 1000)
    throw ApiError.invalid('thank_you_message', 'Use at most 1,000 characters.');
  const redirectUrl = input.redirectUrl ? checkRedirectUrl(input.redirectUrl) : null;
  const { rows } = await db.query('SELECT 1 FROM workspaces WHERE id = $1', [workspaceId]);
  if (rows.length === 0) throw new ApiError('not_found', `workspace ${workspaceId} does not exist`);
  const form = { id: newId('fm'), token: newFormToken() };
  await db.query(
    `INSERT INTO forms (workspace_id, id, name, token, active, fields, thank_you_message, redirect_url)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)`,
    [
      workspaceId,
      form.id,
      name,
      form.token,
      input.active ?? true,
      JSON.stringify(fields),
      thankYou,
      redirectUrl,
    ],
  );
  return form;
}

/** Only absolute http(s) URLs: a javascript: or data: URL here would run in the visitor's browser. */
export function checkRedirectUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw ApiError.invalid('redirect_url', 'Enter a full web address, such as https://example.com/thanks.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw ApiError.invalid('redirect_url', 'Use an address starting with https:// or http://.');
  if (raw.length > 2000) throw ApiError.invalid('redirect_url', 'Use at most 2,000 characters.');
  return url.toString();
}
