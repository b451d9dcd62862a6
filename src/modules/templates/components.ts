import type { GraphTemplateButton, GraphTemplateComponent } from '../messaging/cloud-api/types.js';
import { countVariables, namedVariables } from './variables.js';

export type ParameterFormat = 'POSITIONAL' | 'NAMED';

/** The field of a `template.buttons[]` entry that carries a button's value at send time. */
export type ButtonValueField = 'payload' | 'text' | 'coupon_code';

export interface ButtonNeed {
  index: number;
  type: string;
  /** The Graph send's button sub_type, for a button that takes a value. */
  subType: 'quick_reply' | 'url' | 'copy_code' | null;
  takes: ButtonValueField | null;
  required: boolean;
  /** An authentication template's OTP button: its value is the one-time code, the body's value. */
  otp: boolean;
}

/** What a send of a template must give: derived from its components, the same for listing and sending. */
export interface TemplateNeeds {
  parameterFormat: ParameterFormat;
  header: { format: string; takesValue: boolean; name: string | null } | null;
  /** A NAMED template's body parameters in order of use; null for positional ones. */
  bodyNames: string[] | null;
  variableCount: number;
  buttons: ButtonNeed[];
}

const NEED_NO_VALUE = new Set(['PHONE_NUMBER', 'VOICE_CALL', 'FLOW', 'CATALOG', 'MPM', 'SPM']);

export interface StoredTemplate {
  category: string;
  body: string;
  parameter_format: string | null;
  components: GraphTemplateComponent[] | null;
}

export function templateNeeds(t: StoredTemplate): TemplateNeeds {
  const parameterFormat: ParameterFormat = t.parameter_format === 'NAMED' ? 'NAMED' : 'POSITIONAL';
  const components = t.components ?? [];
  const of = (type: string) => components.find((c) => c.type.toUpperCase() === type);
  const bodyText = of('BODY')?.text ?? t.body;
  const authentication = t.category.toUpperCase() === 'AUTHENTICATION';
  const names = parameterFormat === 'NAMED' && !authentication ? namedVariables(bodyText) : null;
  return {
    parameterFormat,
    header: headerNeed(of('HEADER'), parameterFormat),
    bodyNames: names,
    // Meta presets an authentication template's text around one variable, the code.
    variableCount: authentication ? 1 : names ? names.length : countVariables(bodyText),
    buttons: (of('BUTTONS')?.buttons ?? []).map((b, index) => buttonNeed(b, index, authentication)),
  };
}

function headerNeed(
  header: GraphTemplateComponent | undefined,
  format: ParameterFormat,
): TemplateNeeds['header'] {
  if (!header) return null;
  const kind = (header.format ?? 'TEXT').toUpperCase();
  if (kind !== 'TEXT') return { format: kind, takesValue: true, name: null };
  const text = header.text ?? '';
  const name = format === 'NAMED' ? (namedVariables(text)[0] ?? null) : null;
  return { format: kind, takesValue: name !== null || countVariables(text) > 0, name };
}

function buttonNeed(b: GraphTemplateButton, index: number, authentication: boolean): ButtonNeed {
  const type = b.type.toUpperCase();
  const base = { index, type, subType: null, takes: null, required: false, otp: false };
  // Meta lists an authentication template's one-time-password button as OTP (or URL, in older answers).
  if (authentication && (type === 'OTP' || type === 'URL'))
    return { ...base, subType: 'url', takes: 'text', otp: true };
  if (type === 'QUICK_REPLY') return { ...base, subType: 'quick_reply', takes: 'payload' };
  if (type === 'URL' && /\{\{\s*1\s*\}\}/.test(b.url ?? ''))
    return { ...base, subType: 'url', takes: 'text', required: true };
  if (type === 'COPY_CODE') return { ...base, subType: 'copy_code', takes: 'coupon_code', required: true };
  if (type === 'URL' || NEED_NO_VALUE.has(type)) return base;
  return { ...base, required: true };
}
