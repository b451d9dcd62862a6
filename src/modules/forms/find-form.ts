import type { Queryable } from '../../db/db.js';
import type { FormField } from './form-fields.js';

export interface PublicForm {
  workspaceId: string;
  id: string;
  name: string;
  token: string;
  fields: FormField[];
  thankYouMessage: string | null;
  redirectUrl: string | null;
  /** The workspace's, for phones given without a country code. */
  defaultCountryCode: string | null;
}

// Tokens are base64url with a prefix; anything else cannot be one, so it is not looked up.
const TOKEN_SHAPE = /^ft_[\w-]{32}$/;

/** The active form with this public token, in whichever workspace owns it; inactive and archived forms are not found. */
export async function activeFormByToken(db: Queryable, token: string): Promise<PublicForm | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const { rows } = await db.query<{
    workspace_id: string;
    id: string;
    name: string;
    fields: FormField[];
    thank_you_message: string | null;
    redirect_url: string | null;
    default_country_code: string | null;
  }>(
    `SELECT f.workspace_id, f.id, f.name, f.fields, f.thank_you_message, f.redirect_url, w.default_country_code
     FROM forms f JOIN workspaces w ON w.id = f.workspace_id
     WHERE f.token = $1 AND f.active AND f.archived_at IS NULL`,
    [token],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    workspaceId: r.workspace_id,
    id: r.id,
    name: r.name,
    token,
    fields: r.fields,
    thankYouMessage: r.thank_you_message,
    redirectUrl: r.redirect_url,
    defaultCountryCode: r.default_country_code,
  };
}

/** Whether the token is an archived form's: its pages and submissions answer "this form is closed". */
export async function formClosed(db: Queryable, token: string): Promise<boolean> {
  if (!TOKEN_SHAPE.test(token)) return false;
  const { rows } = await db.query('SELECT 1 FROM forms WHERE token = $1 AND archived_at IS NOT NULL', [
    token,
  ]);
  return rows.length > 0;
}

export const FORM_CLOSED = 'This form is closed: it no longer takes submissions.';
