import type { FormField } from './form-fields.js';
import { FIELD_VALUE_MAX_LENGTH, HONEYPOT_FIELD } from './form-fields.js';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:#1f2328;background:#f6f8fa}main{max-width:34rem;margin:0 auto;padding:1.5rem 1rem}
.card{background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:1.5rem}
h1{font-size:1.4rem;margin:0 0 1rem}label{display:block;font-weight:600;margin:0 0 .25rem}
.field{margin:0 0 1rem}input,select,textarea{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #8c959f;
border-radius:8px;background:#fff}textarea{min-height:6rem}input[type=checkbox]{width:auto}
button{width:100%;font:inherit;font-weight:600;padding:.75rem;border:0;border-radius:8px;background:#1a7f37;
color:#fff;cursor:pointer}.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.req{color:#cf222e}p.note{color:#57606a}.error{color:#cf222e;margin:.25rem 0 0}
[aria-invalid=true]{border-color:#cf222e}`;

/** A small, mobile-friendly page around `body` (already escaped). */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><div class="card">${body}</div></main></body></html>
`;
}

/** The page's security headers: nothing but its own inline style, no scripts, no framing by others. */
export const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cache-control': 'no-store',
};

/** What a person typed and what was wrong with it, when the page is shown again after a refusal. */
export interface FormState {
  values: Record<string, unknown>;
  /** A plain sentence per field name. */
  errors: Record<string, string>;
}

const textOf = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) ? String(v[0] ?? '') : '');

function input(field: FormField, state?: FormState): string {
  const name = escapeHtml(field.name);
  const id = `pf_${name}`;
  const value = textOf(state?.values[field.name]);
  const error = state?.errors[field.name];
  const errorId = `${id}_error`;
  const attrs = `${field.required ? ' required' : ''}${error ? ` aria-invalid="true" aria-describedby="${errorId}"` : ''}`;
  const label = `<label for="${id}">${escapeHtml(field.label)}${field.required ? ' <span class="req">*</span>' : ''}</label>`;
  const note = error ? `<p class="error" id="${errorId}">${escapeHtml(error)}</p>` : '';
  switch (field.type) {
    case 'textarea':
      return `${label}<textarea id="${id}" name="${name}" maxlength="${FIELD_VALUE_MAX_LENGTH}"${attrs}>${escapeHtml(value)}</textarea>${note}`;
    case 'select':
      return `${label}<select id="${id}" name="${name}"${attrs}><option value=""></option>${(
        field.options ?? []
      )
        .map((o) => `<option${o === value ? ' selected' : ''}>${escapeHtml(o)}</option>`)
        .join('')}</select>${note}`;
    case 'checkbox':
      return `<label><input type="checkbox" id="${id}" name="${name}" value="yes"${value ? ' checked' : ''}${attrs}> ${escapeHtml(field.label)}</label>${note}`;
    default: {
      const auto = { name: 'name', email: 'email', phone: 'tel' }[field.name];
      return `${label}<input id="${id}" type="${field.type}" name="${name}" maxlength="${FIELD_VALUE_MAX_LENGTH}"${value ? ` value="${escapeHtml(value)}"` : ''}${auto ? ` autocomplete="${auto}"` : ''}${attrs}>${note}`;
    }
  }
}

/**
 * The form as plain HTML: posts application/x-www-form-urlencoded to `action`, works without
 * JavaScript, and carries the token and the honeypot (an off-screen field people never fill). Given
 * a state, it shows the values typed and each error beside its field; errors of no field lead.
 */
export function formHtml(
  form: { token: string; fields: FormField[] },
  action: string,
  state?: FormState,
): string {
  const names = new Set(form.fields.map((f) => f.name));
  const others = Object.entries(state?.errors ?? {}).filter(([field]) => !names.has(field));
  const summary = state
    ? `<div class="error" role="alert"><p>Please correct the fields marked below.</p>${others
        .map(([, message]) => `<p>${escapeHtml(message)}</p>`)
        .join('')}</div>\n`
    : '';
  return `${summary}<form method="post" action="${escapeHtml(action)}" accept-charset="utf-8">
<input type="hidden" name="token" value="${escapeHtml(form.token)}">
${form.fields.map((f) => `<div class="field">${input(f, state)}</div>`).join('\n')}
<div class="hp" aria-hidden="true"><label for="pf_hp">Leave this empty</label><input id="pf_hp" type="text" name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off"></div>
<button type="submit">Send</button>
</form>`;
}

export function formPage(
  form: { name: string; token: string; fields: FormField[] },
  action: string,
  state?: FormState,
): string {
  return page(form.name, `<h1>${escapeHtml(form.name)}</h1>\n${formHtml(form, action, state)}`);
}

export function thankYouPage(message: string | null): string {
  return page(
    'Thank you',
    `<h1>Thank you</h1><p>${escapeHtml(message ?? 'We received your details and will be in touch.')}</p>`,
  );
}

export function errorPage(status: number, message: string): string {
  const title =
    status === 429
      ? 'Please wait a moment'
      : status === 410
        ? 'This form is closed'
        : status === 404
          ? 'Form not available'
          : 'Please check the form';
  // A closed form will not take the answer however often it is tried.
  const retry =
    status === 410 ? '' : `<p class="note">Go back with your browser's back button to try again.</p>`;
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${retry}`);
}
