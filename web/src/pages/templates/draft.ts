import { isTemplateLanguage } from '../../../../src/lib/template-languages';
import type { BubbleModel, TemplateButton, TemplateComponent } from './types';

export type Category = 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
export type HeaderFormat = 'NONE' | 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT' | 'LOCATION';
export type ButtonType = 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER' | 'COPY_CODE';

export interface DraftButton {
  key: number;
  type: ButtonType;
  text: string;
  /** URL: the address, ending in {{1}} for a dynamic suffix; PHONE_NUMBER: the number. */
  target: string;
  /** URL with {{1}}: a sample suffix; COPY_CODE: a sample code. */
  example: string;
}

/** The editor's state; `toRequest` turns it into Meta's creation shape. */
export interface Draft {
  name: string;
  language: string;
  category: Category;
  parameterFormat: 'POSITIONAL' | 'NAMED';
  /** media: the sample's upload handle; fileName and preview (an object URL): the file chosen. */
  header: {
    format: HeaderFormat;
    text: string;
    example: string;
    media: string;
    fileName: string;
    preview: string;
  };
  body: string;
  /** Sample values by variable: '1', '2' or 'first_name'. */
  examples: Record<string, string>;
  footer: string;
  buttons: DraftButton[];
  security: boolean;
  expiry: string;
}

/** What each section of the editor is given. */
export interface SectionProps {
  draft: Draft;
  errors: Record<string, string>;
  onChange: (d: Draft) => void;
}

export const blankDraft = (): Draft => ({
  name: '',
  language: 'en_US',
  category: 'MARKETING',
  parameterFormat: 'POSITIONAL',
  header: { format: 'NONE', text: '', example: '', media: '', fileName: '', preview: '' },
  body: '',
  examples: {},
  footer: '',
  buttons: [],
  security: true,
  expiry: '10',
});

// Meta's limits for a template and its buttons.
export const LIMITS = {
  header: 60,
  body: 1024,
  footer: 60,
  buttonText: 25,
  url: 2000,
  code: 15,
  buttons: 10,
  perType: { QUICK_REPLY: 10, URL: 3, PHONE_NUMBER: 1, COPY_CODE: 1 } as Record<ButtonType, number>,
};

const ANY_VARIABLE = /\{\{([^}]*)\}\}/g;
const NAMED = /^[a-z_][a-z0-9_]*$/;
const DYNAMIC = /\{\{\s*1\s*\}\}/;

/** A text's variables in order of first use: '1', '2' or 'first_name'. */
export function variablesOf(text: string): string[] {
  return [...new Set([...text.matchAll(ANY_VARIABLE)].map((m) => m[1]!.trim()))];
}

/** Fills each {{variable}} with its value; one without a value stays as written. */
export function fill(text: string, value: (key: string) => string | undefined): string {
  return text.replace(ANY_VARIABLE, (all, key: string) => value(key.trim()) || all);
}

const authentication = (d: Draft) => d.category === 'AUTHENTICATION';

/** What is wrong with the draft, in words, by field: 'name', 'body', 'examples.first_name', 'buttons.2.text'... */
export function draftErrors(d: Draft): Record<string, string> {
  const e: Record<string, string> = {};
  if (!d.name) e.name = 'Give the template a name.';
  else if (!/^[a-z0-9_]+$/.test(d.name)) e.name = 'Use only lowercase letters, digits and underscores.';
  if (!isTemplateLanguage(d.language)) e.language = 'Choose a language from the list.';
  if (authentication(d)) {
    const minutes = Number(d.expiry);
    if (d.expiry && (!Number.isInteger(minutes) || minutes < 1 || minutes > 90))
      e.expiry = 'Give whole minutes from 1 to 90, or leave it empty.';
    return e;
  }
  checkVariables(d, d.body, 'body', e);
  if (!d.body.trim()) e.body = 'Write the message text.';
  else if (d.body.length > LIMITS.body) e.body = `Keep the text to ${LIMITS.body} characters.`;
  const { header } = d;
  if (header.format === 'TEXT') {
    if (!header.text.trim()) e['header.text'] = 'Write the header text, or choose no header.';
    else if (header.text.length > LIMITS.header)
      e['header.text'] = `Keep the header to ${LIMITS.header} characters.`;
    else if (variablesOf(header.text).length > 1) e['header.text'] = 'A header takes at most one variable.';
    else checkVariables(d, header.text, 'header.text', e);
  }
  if (['IMAGE', 'VIDEO', 'DOCUMENT'].includes(header.format) && !header.media.trim())
    e['header.media'] =
      `WhatsApp reviews the template with a sample ${header.format.toLowerCase()}: upload one.`;
  if (d.footer.length > LIMITS.footer) e.footer = `Keep the footer to ${LIMITS.footer} characters.`;
  else if (d.footer.includes('{{')) e.footer = 'A footer cannot have variables.';
  checkButtons(d, e);
  return e;
}

function checkVariables(d: Draft, text: string, field: string, e: Record<string, string>) {
  const vars = variablesOf(text);
  if (d.parameterFormat === 'NAMED') {
    const bad = vars.find((v) => !NAMED.test(v));
    if (bad !== undefined)
      e[field] =
        `Name variables with lowercase letters, digits and underscores, like {{first_name}} (not {{${bad}}}).`;
  } else {
    const numbers = vars.map(Number).sort((a, b) => a - b);
    if (numbers.some((n) => !Number.isInteger(n)))
      e[field] = 'Number the variables {{1}}, {{2}}, … or switch to named variables.';
    else if (numbers.some((n, i) => n !== i + 1))
      e[field] = `Number the variables in turn, from {{1}} to {{${numbers.length}}}.`;
  }
  if (e[field]) return;
  for (const v of vars)
    if (!d.examples[v]?.trim()) e[`examples.${v}`] = 'Give a sample value for the review.';
}

function checkButtons(d: Draft, e: Record<string, string>) {
  const firstQuickReply = d.buttons.findIndex((b) => b.type === 'QUICK_REPLY');
  const lastQuickReply = d.buttons.findLastIndex((b) => b.type === 'QUICK_REPLY');
  if (
    firstQuickReply >= 0 &&
    d.buttons.slice(firstQuickReply, lastQuickReply + 1).some((b) => b.type !== 'QUICK_REPLY')
  )
    e.buttons = 'Keep the quick replies together, before or after the other buttons.';
  for (const [i, b] of d.buttons.entries()) {
    const at = `buttons.${i}`;
    if (b.type !== 'COPY_CODE') {
      if (!b.text.trim()) e[`${at}.text`] = 'Give the button a label.';
      else if (b.text.length > LIMITS.buttonText)
        e[`${at}.text`] = `Keep the label to ${LIMITS.buttonText} characters.`;
    }
    if (b.type === 'URL') {
      const dynamic = DYNAMIC.test(b.target);
      if (!/^https?:\/\/[^\s{}]+/.test(b.target))
        e[`${at}.target`] = 'Give a web address starting with https://.';
      else if (b.target.length > LIMITS.url)
        e[`${at}.target`] = `Keep the address to ${LIMITS.url} characters.`;
      else if (dynamic && !/\{\{1\}\}$/.test(b.target))
        e[`${at}.target`] = 'Put {{1}} at the very end of the address.';
      else if (!dynamic && b.target.includes('{{'))
        e[`${at}.target`] = 'The only variable an address takes is {{1}}.';
      if (dynamic && !b.example.trim()) e[`${at}.example`] = 'Give a sample ending for the review.';
    }
    if (b.type === 'PHONE_NUMBER' && !/^\+\d{6,20}$/.test(b.target.replace(/[\s-]/g, '')))
      e[`${at}.target`] = 'Give the number with its country code, like +14155550123.';
    if (b.type === 'COPY_CODE') {
      if (d.category !== 'MARKETING') e[`${at}.example`] = 'Copy-code buttons are for marketing templates.';
      else if (!b.example.trim() || b.example.length > LIMITS.code)
        e[`${at}.example`] = `Give a sample code of up to ${LIMITS.code} characters.`;
    }
  }
}

/** The POST /api/app/templates body: Meta's creation shape. */
export function toRequest(d: Draft): Record<string, unknown> {
  const base = { name: d.name, language: d.language, category: d.category };
  if (authentication(d))
    return {
      ...base,
      add_security_recommendation: d.security,
      ...(d.expiry ? { code_expiration_minutes: Number(d.expiry) } : {}),
      otp_type: 'COPY_CODE',
    };
  const named = d.parameterFormat === 'NAMED';
  const samples = (text: string) =>
    variablesOf(text).map((v) => ({ param_name: v, example: d.examples[v] ?? '' }));
  const components: TemplateComponent[] = [];
  const { header } = d;
  if (header.format === 'TEXT') {
    const vars = samples(header.text);
    components.push({
      type: 'HEADER',
      format: 'TEXT',
      text: header.text,
      ...(vars.length
        ? {
            example: named ? { header_text_named_params: vars } : { header_text: vars.map((v) => v.example) },
          }
        : {}),
    });
  } else if (header.format === 'LOCATION') components.push({ type: 'HEADER', format: 'LOCATION' });
  else if (header.format !== 'NONE')
    components.push({
      type: 'HEADER',
      format: header.format,
      example: { header_handle: [header.media.trim()] },
    });
  const inUse = samples(d.body);
  const vars = named ? inUse : inUse.sort((a, b) => Number(a.param_name) - Number(b.param_name));
  components.push({
    type: 'BODY',
    text: d.body,
    ...(vars.length
      ? { example: named ? { body_text_named_params: vars } : { body_text: [vars.map((v) => v.example)] } }
      : {}),
  });
  if (d.footer.trim()) components.push({ type: 'FOOTER', text: d.footer });
  if (d.buttons.length) components.push({ type: 'BUTTONS', buttons: d.buttons.map(buttonShape) });
  return { ...base, parameter_format: d.parameterFormat, components };
}

function buttonShape(b: DraftButton): TemplateButton {
  switch (b.type) {
    case 'QUICK_REPLY':
      return { type: b.type, text: b.text };
    case 'PHONE_NUMBER':
      return { type: b.type, text: b.text, phone_number: b.target.replace(/[\s-]/g, '') };
    case 'COPY_CODE':
      return { type: b.type, example: b.example };
    case 'URL':
      return {
        type: b.type,
        text: b.text,
        url: b.target,
        ...(DYNAMIC.test(b.target) ? { example: [b.target.replace(DYNAMIC, b.example)] } : {}),
      };
  }
}

/** The message as the customer would see it with the sample values filled in. */
export function previewOf(d: Draft): BubbleModel {
  if (authentication(d)) {
    const minutes = Number(d.expiry);
    return {
      body: `*123456* is your verification code.${d.security ? ' For your security, do not share this code.' : ''}`,
      ...(d.expiry && minutes > 0 ? { footer: `This code expires in ${minutes} minutes.` } : {}),
      buttons: [{ type: 'OTP', text: 'Copy code' }],
    };
  }
  const sample = (key: string) => d.examples[key];
  const { header } = d;
  return {
    ...(header.format === 'NONE'
      ? {}
      : { header: { format: header.format, text: fill(header.text, sample), media: header.preview } }),
    body: fill(d.body, sample),
    ...(d.footer ? { footer: d.footer } : {}),
    buttons: d.buttons.map((b) => ({
      type: b.type,
      text: b.type === 'COPY_CODE' ? 'Copy offer code' : b.text,
    })),
  };
}

/**
 * Where the server's 422 belongs in the form, and what to say there. Its own checks name the field;
 * the network's review names the component at the start of its words ("header: …", "buttons[1]: …").
 */
export function placeProblem(field: string, message: string): [string, string] {
  if (field === 'code_expiration_minutes') return ['expiry', message];
  if (field !== 'template' && field !== 'components') return [field, message];
  if (/already exists/i.test(message))
    return ['name', 'A template with this name and language exists already: choose another name.'];
  const part = /\b(header|body|footer|buttons)(?:\[(\d+)\])?:\s*(.*)$/.exec(message);
  if (!part) return ['form', message];
  const words = `WhatsApp refused this: ${part[3]}`;
  if (part[1] === 'buttons') return [part[2] ? `buttons.${part[2]}.text` : 'buttons', words];
  return [part[1]!, words];
}
