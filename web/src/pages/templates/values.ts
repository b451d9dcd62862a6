import { fill } from './draft';
import { type BubbleModel, component, type HeaderValue, type Template, type TemplateValues } from './types';

/** "first_name" → "First name". */
export const humanize = (name: string) => {
  const words = name.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The server's words as a sentence: "an http(s) URL…" → "An http(s) URL….". */
export const sentence = (s: string) => {
  const plain = s.replace(/`/g, '');
  return `${plain.charAt(0).toUpperCase()}${plain.slice(1)}${/[.!?]$/.test(plain) ? '' : '.'}`;
};

/** What a button's value is, by what it takes. */
export const TAKES_LABEL = {
  payload: 'Reply payload',
  text: 'Link ending',
  coupon_code: 'Offer code',
} as const;

/** The header's text variable, named by the words around it. */
export const headerLabel = (headerText: string) =>
  `Header: “${around(headerText, headerText.match(/\{\{\s*([^}\s]+)\s*\}\}/)?.[1] ?? '1')}”`;

/**
 * A positional variable named by the words around it, as the customer reads them:
 * "Hi {{1}}, your order {{2}} ships" gives "Hi ___, your order" for {{1}}.
 */
export function around(text: string, key: string): string {
  const at = text.search(new RegExp(`\\{\\{\\s*${key}\\s*\\}\\}`));
  if (at < 0) return `{{${key}}}`;
  const strip = (s: string) => s.replace(/\{\{[^}]*\}\}/g, '…').replace(/\s+/g, ' ');
  const before = strip(text.slice(0, at)).split(' ').slice(-3).join(' ');
  const after = strip(text.slice(at).replace(/^\{\{[^}]*\}\}/, ''))
    .split(' ')
    .slice(0, 3)
    .join(' ');
  return `${before}___${after}`.trim();
}

// An authentication template kept as created has WhatsApp's options, not yet its preset words.
const bodyText = (t: Template) => {
  const body = component(t, 'BODY');
  if (body?.text || t.body || t.category !== 'AUTHENTICATION') return body?.text ?? t.body;
  const advice = body?.add_security_recommendation ? ' For your security, do not share this code.' : '';
  return `*{{1}}* is your verification code.${advice}`;
};

const footerText = (t: Template) => {
  const footer = component(t, 'FOOTER');
  if (footer?.text || !footer?.code_expiration_minutes) return footer?.text;
  return `This code expires in ${footer.code_expiration_minutes} minutes.`;
};

const BUTTON_TEXT: Record<string, string> = { COPY_CODE: 'Copy offer code', OTP: 'Copy code' };

/** Each body value a send gives: its key ('first_name' or its position), label and sample. */
export function bodyFields(t: Template): { key: string; label: string; example?: string }[] {
  if (t.category === 'AUTHENTICATION') return [{ key: '0', label: 'One-time code' }];
  const example = component(t, 'BODY')?.example;
  if (t.body_parameters.length)
    return t.body_parameters.map((name) => ({
      key: name,
      label: humanize(name),
      example: example?.body_text_named_params?.find((p) => p.param_name === name)?.example,
    }));
  const text = bodyText(t);
  return Array.from({ length: t.variable_count }, (_, i) => ({
    key: String(i),
    label: `“${around(text, String(i + 1))}”`,
    example: example?.body_text?.[0]?.[i],
  }));
}

export function bodyValue(v: TemplateValues, key: string): string {
  if (Array.isArray(v.body)) return v.body[Number(key)] ?? '';
  return v.body?.[key] ?? '';
}

/** The values a send of `t` starts with: every value it needs, empty. */
export function emptyValues(t: Template): TemplateValues {
  const v: TemplateValues = {};
  const header = t.header;
  if (header?.takes_value)
    v.header =
      header.format === 'TEXT'
        ? ''
        : header.format === 'LOCATION'
          ? { latitude: '', longitude: '' }
          : { link: '' };
  if (t.body_parameters.length) v.body = Object.fromEntries(t.body_parameters.map((n) => [n, '']));
  else if (t.variable_count) v.body = Array(t.variable_count).fill('');
  const needed = t.buttons.filter((b) => b.takes && b.required && t.category !== 'AUTHENTICATION');
  if (needed.length) v.buttons = needed.map((b) => ({ index: b.index, [b.takes!]: '' }));
  return v;
}

/** The fields a send leaves empty, by the part the server names: `template.header.link`, `template.buttons[1]`... */
export function missingValues(t: Template, v: TemplateValues): Record<string, string> {
  const e: Record<string, string> = {};
  const header = v.header;
  if (t.header?.takes_value) {
    if (typeof header === 'string' || header === undefined) {
      if (!header?.trim()) e['template.header'] = 'Fill in the header.';
    } else if (t.header.format === 'LOCATION') {
      if (!String(header.latitude ?? '').trim() || !String(header.longitude ?? '').trim())
        e['template.header'] = 'Give the latitude and longitude.';
    } else if (!header.link?.trim())
      e['template.header.link'] = `Give a link to the ${t.header.format.toLowerCase()}.`;
  }
  for (const f of bodyFields(t)) {
    if (!bodyValue(v, f.key).trim())
      e[Array.isArray(v.body) ? `template.body[${f.key}]` : `template.body.${f.key}`] = 'Fill this in.';
  }
  for (const b of t.buttons) {
    if (!b.required || !b.takes || t.category === 'AUTHENTICATION') continue;
    if (!v.buttons?.find((x) => x.index === b.index)?.[b.takes]?.trim())
      e[`template.buttons[${b.index}]`] = 'Fill this in.';
  }
  return e;
}

/** The message as the customer will see it with these values (the template's samples where empty). */
export function valuesPreview(t: Template, v: TemplateValues): BubbleModel {
  const header = component(t, 'HEADER');
  const example = header?.example;
  const headerValue = v.header;
  const link = typeof headerValue === 'object' ? (headerValue as HeaderValue).link : undefined;
  const named = t.body_parameters.length > 0;
  const bodyOf = (key: string) =>
    bodyValue(v, named ? key : String(Number(key) - 1)) ||
    bodyFields(t).find((f) => f.key === (named ? key : String(Number(key) - 1)))?.example;
  const text =
    t.category === 'AUTHENTICATION'
      ? bodyText(t).replace(/\{\{1\}\}/, bodyValue(v, '0') || '{{1}}')
      : fill(bodyText(t), bodyOf);
  return {
    ...(header
      ? {
          header: {
            format: (header.format ?? 'TEXT').toUpperCase(),
            text: fill(
              header.text ?? '',
              () =>
                (typeof headerValue === 'string' && headerValue) ||
                example?.header_text?.[0] ||
                example?.header_text_named_params?.[0]?.example,
            ),
            media: link || example?.header_handle?.[0],
          },
        }
      : {}),
    body: text,
    ...(footerText(t) ? { footer: footerText(t) } : {}),
    buttons: (component(t, 'BUTTONS')?.buttons ?? []).map((b) => ({
      type: b.type.toUpperCase(),
      text: b.text ?? BUTTON_TEXT[b.type.toUpperCase()] ?? 'Button',
    })),
  };
}

/** The base of a URL button's address, shown before the suffix a send gives. */
export function urlBase(t: Template, index: number): string {
  const url = component(t, 'BUTTONS')?.buttons?.[index]?.url ?? '';
  return url.replace(/\{\{\s*1\s*\}\}$/, '');
}

export const buttonLabel = (t: Template, index: number) =>
  component(t, 'BUTTONS')?.buttons?.[index]?.text ?? `button ${index + 1}`;
