import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { checkRedirectUrl } from './create-form.js';
import { checkFields, type FormField } from './form-fields.js';

/** What changes; a field left undefined (or a null name, fields or active) stays as it is. */
export interface FormChanges {
  name: string | null;
  fields: FormField[] | null;
  active: boolean | null;
  thankYouMessage?: string | null;
  redirectUrl?: string | null;
}

/** Saves checked changes to a form (the caller checks fields and redirect URL first). */
export async function updateForm(db: Queryable, workspaceId: string, id: string, changes: FormChanges) {
  const { rows } = await db.query(
    `UPDATE forms SET name = COALESCE($3, name), fields = COALESCE($4::jsonb, fields), active = COALESCE($5, active),
       thank_you_message = CASE WHEN $6 THEN $7 ELSE thank_you_message END,
       redirect_url = CASE WHEN $8 THEN $9 ELSE redirect_url END, updated_at = now()
     WHERE workspace_id = $1 AND id = $2 RETURNING id`,
    [
      workspaceId,
      id,
      changes.name,
      changes.fields ? JSON.stringify(changes.fields) : null,
      changes.active,
      changes.thankYouMessage !== undefined,
      changes.thankYouMessage ?? null,
      changes.redirectUrl !== undefined,
      changes.redirectUrl ?? null,
    ],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No form with that id');
}

/** A form edit as the app and REST v1 take it (fields of the form's JSON; null clears a message or redirect). */
export interface FormEdit {
  name?: string | undefined;
  fields?: FormField[] | undefined;
  active?: boolean | undefined;
  thank_you_message?: string | null | undefined;
  redirect_url?: string | null | undefined;
}

/** Checks an edit (fields, name, redirect URL; 422 at the field) and gives the changes to save. */
export function formChanges(b: FormEdit): FormChanges {
  const fields = b.fields === undefined ? null : checkFields(b.fields);
  const name = b.name?.trim();
  if (name === '') throw ApiError.invalid('name', 'Enter a name.');
  const redirect =
    b.redirect_url === undefined ? undefined : b.redirect_url ? checkRedirectUrl(b.redirect_url) : null;
  const thankYou = b.thank_you_message === undefined ? undefined : b.thank_you_message?.trim() || null;
  return {
    name: name ?? null,
    fields,
    active: b.active ?? null,
    thankYouMessage: thankYou,
    redirectUrl: redirect,
  };
}
