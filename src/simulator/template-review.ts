import type { GraphTemplateButton, GraphTemplateComponent } from '../modules/messaging/cloud-api/types.js';

/** What POST /{waba-id}/message_templates takes: Meta's creation shapes, in either letter case. */
export interface CreateTemplateBody {
  name?: string;
  language?: string;
  category?: string;
  parameter_format?: string;
  components?: GraphTemplateComponent[];
}

export type Review =
  | { ok: true; components: GraphTemplateComponent[]; parameterFormat: 'POSITIONAL' | 'NAMED' }
  | { ok: false; details: string };

const HEADER_FORMATS = new Set(['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION']);
const POSITIONAL = /\{\{\s*(\d+)\s*\}\}/g;
const NAMED = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g;
const ANY_VARIABLE = /\{\{([^}]*)\}\}/g;

/**
 * Meta's checks on a submitted template, as its documentation states them: one BODY (none with text
 * in an AUTHENTICATION template, whose text is preset), at most one HEADER of a known format, examples
 * for every variable, variables all positional {{1}}..{{n}} or all named as `parameter_format` says,
 * and buttons of known types with what each needs. Answers the components as the template list will
 * show them (types and formats upper-cased; an authentication template's preset text filled in).
 */
export function reviewTemplate(body: CreateTemplateBody, category: string): Review {
  const format = (body.parameter_format ?? 'POSITIONAL').toUpperCase();
  if (format !== 'POSITIONAL' && format !== 'NAMED')
    return { ok: false, details: 'parameter_format: POSITIONAL or NAMED' };
  const parameterFormat = format;
  const components = (body.components ?? []).map(upperCased);
  const count = (type: string) => components.filter((c) => c.type === type).length;
  const unknown = components.find((c) => !['HEADER', 'BODY', 'FOOTER', 'BUTTONS'].includes(c.type));
  if (unknown) return { ok: false, details: `components: unknown type ${unknown.type}` };
  if (count('BODY') !== 1)
    return { ok: false, details: 'components: exactly one BODY component is required' };
  for (const type of ['HEADER', 'FOOTER', 'BUTTONS']) {
    if (count(type) > 1) return { ok: false, details: `components: at most one ${type} component` };
  }
  if (category === 'AUTHENTICATION') return authentication(components, parameterFormat);
  for (const c of components) {
    const problem =
      c.type === 'HEADER'
        ? header(c, parameterFormat)
        : c.type === 'BODY'
          ? textWithExamples(c, parameterFormat, 'body', 1024)
          : c.type === 'FOOTER'
            ? footer(c)
            : buttons(c.buttons ?? [], category);
    if (problem) return { ok: false, details: problem };
  }
  return { ok: true, components, parameterFormat };
}

function upperCased(c: GraphTemplateComponent): GraphTemplateComponent {
  return {
    ...c,
    type: String(c.type ?? '').toUpperCase(),
    ...(c.format ? { format: c.format.toUpperCase() } : {}),
    ...(c.buttons
      ? {
          buttons: c.buttons.map((b) => ({
            ...b,
            type: String(b.type ?? '').toUpperCase(),
            ...(b.otp_type ? { otp_type: b.otp_type.toUpperCase() } : {}),
          })),
        }
      : {}),
  };
}

function header(c: GraphTemplateComponent, format: string): string | null {
  const kind = c.format ?? '';
  if (!HEADER_FORMATS.has(kind))
    return `header: format ${kind || '(none)'} is not one of ${[...HEADER_FORMATS]}`;
  if (kind === 'TEXT') {
    const problem = textWithExamples(c, format, 'header', 60);
    if (problem) return problem;
    if ([...(c.text ?? '').matchAll(ANY_VARIABLE)].length > 1)
      return 'header: a TEXT header takes at most one variable';
    return null;
  }
  const handle = (c.example as { header_handle?: unknown } | undefined)?.header_handle;
  if (kind !== 'LOCATION' && (!Array.isArray(handle) || handle.length !== 1))
    return `header: a ${kind} header needs example.header_handle with one uploaded media handle`;
  return null;
}

function textWithExamples(
  c: GraphTemplateComponent,
  format: string,
  part: 'header' | 'body',
  max: number,
): string | null {
  const text = c.text ?? '';
  if (!text || text.length > max) return `${part}: text of 1 to ${max} characters is required`;
  const all = [...text.matchAll(ANY_VARIABLE)].length;
  const example = (c.example ?? {}) as Record<string, unknown>;
  if (format === 'NAMED') {
    const names = [...new Set([...text.matchAll(NAMED)].map((m) => m[1]!))];
    if ([...text.matchAll(NAMED)].length !== all)
      return `${part}: named parameters are lowercase letters, digits and underscores, such as {{first_name}}`;
    if (names.length === 0) return null;
    const given = example[`${part}_text_named_params`];
    const ok =
      Array.isArray(given) &&
      given.length === names.length &&
      names.every((n) =>
        given.some((g: { param_name?: string; example?: string }) => g.param_name === n && g.example),
      );
    return ok
      ? null
      : `${part}: example.${part}_text_named_params needs an example for each of ${names.join(', ')}`;
  }
  const numbers = [...new Set([...text.matchAll(POSITIONAL)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  if ([...text.matchAll(POSITIONAL)].length !== all)
    return `${part}: positional parameters are numbered, such as {{1}}; set parameter_format NAMED for names`;
  if (numbers.some((n, i) => n !== i + 1))
    return `${part}: parameters must be {{1}} to {{${numbers.length}}} in turn`;
  if (numbers.length === 0) return null;
  const given = part === 'body' ? (example.body_text as unknown[][] | undefined)?.[0] : example.header_text;
  return Array.isArray(given) && given.length === numbers.length
    ? null
    : `${part}: example.${part}_text needs ${numbers.length} example values`;
}

function footer(c: GraphTemplateComponent): string | null {
  const text = c.text ?? '';
  if (!text || text.length > 60) return 'footer: text of 1 to 60 characters is required';
  return text.includes('{{') ? 'footer: a footer takes no variables' : null;
}

function buttons(list: GraphTemplateButton[], category: string): string | null {
  if (list.length < 1 || list.length > 10) return 'buttons: 1 to 10 buttons';
  for (const [i, b] of list.entries()) {
    const at = `buttons[${i}]`;
    const label = typeof b.text === 'string' && b.text.length >= 1 && b.text.length <= 25;
    if (b.type === 'QUICK_REPLY' || b.type === 'PHONE_NUMBER' || b.type === 'URL' || b.type === 'FLOW') {
      if (!label) return `${at}: text of 1 to 25 characters is required`;
    }
    if (b.type === 'PHONE_NUMBER' && !/^\+?\d{6,20}$/.test(String(b.phone_number ?? '')))
      return `${at}: phone_number is required`;
    if (b.type === 'URL') {
      const url = String(b.url ?? '');
      if (!/^https?:\/\/\S+$/.test(url)) return `${at}: url is required`;
      const dynamic = /\{\{\s*1\s*\}\}/.test(url);
      if (dynamic && !url.endsWith('{{1}}')) return `${at}: the URL variable {{1}} goes at the end`;
      if (dynamic && (!Array.isArray(b.example) || b.example.length !== 1))
        return `${at}: a URL with {{1}} needs an example`;
    }
    if (b.type === 'COPY_CODE') {
      if (category !== 'MARKETING') return `${at}: COPY_CODE buttons are for MARKETING templates`;
      if (typeof b.example !== 'string' || b.example.length > 15)
        return `${at}: example code of up to 15 characters`;
    }
    if (b.type === 'FLOW' && !b.flow_id && !b.flow_name && !b.flow_json) return `${at}: flow_id is required`;
    if (!['QUICK_REPLY', 'PHONE_NUMBER', 'URL', 'COPY_CODE', 'FLOW'].includes(b.type))
      return `${at}: type ${b.type} is not supported here`;
  }
  return null;
}

/** Meta's authentication shape: preset body, optional expiry footer, one OTP button. */
function authentication(
  components: GraphTemplateComponent[],
  parameterFormat: 'POSITIONAL' | 'NAMED',
): Review {
  const body = components.find((c) => c.type === 'BODY')!;
  if (body.text !== undefined)
    return {
      ok: false,
      details: 'body: authentication templates have preset text; give add_security_recommendation',
    };
  if (components.some((c) => c.type === 'HEADER'))
    return { ok: false, details: 'header: authentication templates take no header' };
  const footer = components.find((c) => c.type === 'FOOTER');
  const minutes = footer?.code_expiration_minutes;
  if (footer && (footer.text !== undefined || !Number.isInteger(minutes) || minutes! < 1 || minutes! > 90))
    return { ok: false, details: 'footer: only code_expiration_minutes, 1 to 90' };
  const otp = components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
  const button = otp[0];
  if (otp.length !== 1 || button?.type !== 'OTP')
    return { ok: false, details: 'buttons: authentication templates take exactly one OTP button' };
  const otpType = button.otp_type ?? '';
  if (!['COPY_CODE', 'ONE_TAP', 'ZERO_TAP'].includes(otpType))
    return { ok: false, details: 'buttons[0]: otp_type COPY_CODE, ONE_TAP or ZERO_TAP' };
  if (otpType !== 'COPY_CODE' && !button.supported_apps && !button.package_name)
    return { ok: false, details: `buttons[0]: a ${otpType} button needs supported_apps` };
  const security = body.add_security_recommendation === true;
  return {
    ok: true,
    parameterFormat,
    components: [
      {
        type: 'BODY',
        text: `*{{1}}* is your verification code.${security ? ' For your security, do not share this code.' : ''}`,
        add_security_recommendation: security,
      },
      ...(minutes
        ? [
            {
              type: 'FOOTER',
              text: `This code expires in ${minutes} minutes.`,
              code_expiration_minutes: minutes,
            },
          ]
        : []),
      {
        type: 'BUTTONS',
        buttons: [{ ...button, text: button.text ?? (otpType === 'COPY_CODE' ? 'Copy code' : 'Autofill') }],
      },
    ],
  };
}
