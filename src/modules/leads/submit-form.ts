import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { newId } from '../../lib/ids.js';
import { activeFormByToken, FORM_CLOSED, formClosed, type PublicForm } from '../forms/find-form.js';
import { HONEYPOT_FIELD } from '../forms/form-fields.js';
import { createLead } from './create-lead.js';
import { NO_CONTACT_DETAILS, readEmail, readName, readPhone } from './lead-identity.js';
import type { FormSubmitBody } from './schemas.js';
import { storableJson } from './storable-json.js';

export interface Submitted {
  leadId: string;
  form: PublicForm;
}

/**
 * POST /api/forms/submit, after the per-address limit: 400 without a token, 404 for an unknown or
 * inactive form, 422 when a required field, or both e-mail and phone, are missing or a value is not
 * valid, 402 over the plan's monthly leads. A filled honeypot is answered as a success, storing nothing.
 */
export async function submitForm(ctx: AppContext, body: FormSubmitBody): Promise<Submitted> {
  const token = typeof body.token === 'string' ? body.token.trim() : '';
  if (!token) throw new ApiError('bad_request', "token is required: the form's public token");
  const form = await activeFormByToken(ctx.db, token);
  // The spec answers an inactive form 404; an archived one too, saying it is closed.
  if (!form && (await formClosed(ctx.db, token))) throw new ApiError('not_found', FORM_CLOSED);
  if (!form)
    throw new ApiError('not_found', 'No active form with this token: the form does not exist or is inactive');

  // A bot filled the field people never see: answer as if it worked, keep nothing.
  const trap = body[HONEYPOT_FIELD];
  if (trap !== undefined && trap !== null && trap !== '') return { leadId: newId('ld'), form };

  // The schema refused U+0000 and nesting already; this only mends lone surrogates.
  const storable = storableJson(body);
  const values = clean((storable.ok ? storable.value : body) as FormSubmitBody);
  for (const field of form.fields) {
    if (field.required && values[field.name] === undefined)
      throw invalid(field.name, `"${field.label}" is required`);
  }
  const email = readEmail(values.email);
  if (!email.ok) throw invalid('email', email.message);
  const phone = readPhone(values.phone, form.defaultCountryCode);
  if (!phone.ok) throw invalid('phone', phone.message);
  if (!email.value && !phone.value) throw invalid('email', NO_CONTACT_DETAILS);

  const { name: _name, email: _email, phone: _phone, ...fields } = values;
  const lead = {
    workspaceId: form.workspaceId,
    source: 'form' as const,
    sourceId: form.id,
    name: readName(values.name),
    email: email.value,
    phone: phone.value,
    fields,
  };
  const created = await createLead(ctx, lead, { formId: form.id, payload: { ...values, form_id: form.id } });
  return { leadId: created.id, form };
}

function invalid(field: string, message: string): ApiError {
  return new ApiError('validation_error', message, [{ field, message }]);
}

/** The submitted values worth keeping: trimmed, blanks dropped, without the token and the honeypot. */
function clean(body: FormSubmitBody): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'token' || key === HONEYPOT_FIELD || value === null) continue;
    if (typeof value === 'string') {
      if (value.trim()) out[key] = value.trim();
    } else if (Array.isArray(value)) {
      const list = value.map((v) => v.trim()).filter(Boolean);
      if (list.length) out[key] = list;
    } else out[key] = value;
  }
  return out;
}
