import { ApiError, type ErrorDetail } from '../../api/errors.js';
import type { TemplateNeeds } from '../templates/components.js';
import type { GraphMedia, GraphSendComponent, GraphSendParameter } from './cloud-api/types.js';
import { type BodyParameter, type MetaParameter, metaParameter } from './meta-parameter.js';

export interface HeaderValue {
  link?: string;
  id?: string;
  filename?: string;
  latitude?: number;
  longitude?: number;
  name?: string;
  address?: string;
}

export interface ButtonValue {
  index: number;
  payload?: string;
  text?: string;
  coupon_code?: string;
}

/** A body value: text, or (extension) a parameter in Meta's shape such as currency or date_time. */
export type BodyValue = string | MetaParameter;

/** The values a send gives a template: the spec's `body`, and the extensions for the other components. */
export interface TemplateValues {
  header?: string | HeaderValue;
  body?: string[] | Record<string, string>;
  buttons?: ButtonValue[];
}

/** What POST /messages may give: body values also as parameters in Meta's shape. */
export type GivenTemplateValues = Omit<TemplateValues, 'body'> & {
  body?: BodyValue[] | Record<string, BodyValue>;
};

const MEDIA = { IMAGE: 'image', VIDEO: 'video', DOCUMENT: 'document' } as const;

/**
 * Checks a send's values against what the template needs, and builds the Graph request's components
 * as Meta documents them (header, body, one `button` component per button given a value). Every
 * mismatch is a 422 naming its part (`template.header`, `template.body.first_name`,
 * `template.buttons[1]`), found before anything reaches the network.
 */
export function templateComponents(
  needs: TemplateNeeds,
  values: GivenTemplateValues,
): { components: GraphSendComponent[]; bodyValues: string[] } {
  const problems: ErrorDetail[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  const components: GraphSendComponent[] = [];

  const header = headerParameter(needs, values.header, problem);
  if (header) components.push({ type: 'header', parameters: [header] });

  const body = bodyParameters(needs, values.body, problem);
  // What the message shows in Parley: a currency's or date's fallback text.
  const bodyValues = body.map((b) => b.text);
  if (body.length) {
    components.push({
      type: 'body',
      parameters: body.map(({ parameter }, i) => ({
        ...parameter,
        ...(needs.bodyNames ? { parameter_name: needs.bodyNames[i]! } : {}),
      })),
    });
  }

  const given = new Map<number, ButtonValue>();
  const refused = new Set<number>();
  for (const b of values.buttons ?? []) {
    const field = `template.buttons[${b.index}]`;
    const need = needs.buttons.find((n) => n.index === b.index);
    const fields = (['payload', 'text', 'coupon_code'] as const).filter((f) => b[f] !== undefined);
    const wrong = given.has(b.index)
      ? 'is given twice'
      : !need
        ? `the template has no button at index ${b.index}`
        : !need.takes
          ? `a ${need.type} button takes no value`
          : fields.length !== 1 || fields[0] !== need.takes
            ? `a ${need.type} button takes exactly one value, \`${need.takes}\``
            : null;
    if (wrong && !refused.has(b.index)) problem(field, wrong);
    if (wrong) refused.add(b.index);
    given.set(b.index, b);
  }
  for (const need of needs.buttons) {
    if (refused.has(need.index)) continue;
    const field = `template.buttons[${need.index}]`;
    const value = given.get(need.index)?.[need.takes ?? 'text'] ?? (need.otp ? bodyValues[0] : undefined);
    if (need.otp && value !== undefined && value !== bodyValues[0])
      problem(field, 'an authentication button carries the same code as the body');
    if (value === undefined) {
      if (need.required && !need.takes) problem(field, `Parley cannot send ${need.type} buttons yet`);
      else if (need.required) problem(field, `the ${need.type} button needs \`${need.takes}\``);
      continue;
    }
    if (!need.subType || !need.takes) continue;
    components.push({
      type: 'button',
      sub_type: need.subType,
      index: String(need.index),
      parameters: [buttonParameter(need.takes, value)],
    });
  }

  if (problems.length) {
    throw new ApiError(
      'validation_error',
      problems.map((p) => `${p.field}: ${p.message}`).join('; '),
      problems,
    );
  }
  return { components, bodyValues };
}

type Problem = (field: string, message: string) => void;

function headerParameter(
  needs: TemplateNeeds,
  value: GivenTemplateValues['header'],
  problem: Problem,
): GraphSendParameter | null {
  const field = 'template.header';
  const need = needs.header;
  if (!need?.takesValue) {
    if (value !== undefined)
      problem(field, need ? 'the template header takes no value' : 'the template has no header');
    return null;
  }
  if (value === undefined) {
    problem(field, `the template's ${need.format} header needs a value`);
    return null;
  }
  if (need.format === 'TEXT') {
    if (typeof value !== 'string') {
      problem(field, 'a TEXT header takes a string');
      return null;
    }
    return { type: 'text', ...(need.name ? { parameter_name: need.name } : {}), text: value };
  }
  if (typeof value === 'string') {
    problem(field, `a ${need.format} header takes an object, not a string`);
    return null;
  }
  if (need.format === 'LOCATION') {
    const { latitude, longitude, name, address, ...rest } = value;
    if (latitude === undefined || longitude === undefined || Object.keys(rest).length) {
      problem(field, 'a LOCATION header takes {latitude, longitude, name?, address?}');
      return null;
    }
    return {
      type: 'location',
      location: {
        latitude: String(latitude),
        longitude: String(longitude),
        ...(name !== undefined ? { name } : {}),
        ...(address !== undefined ? { address } : {}),
      },
    };
  }
  const type = MEDIA[need.format as keyof typeof MEDIA];
  if (!type) {
    problem(field, `Parley cannot send ${need.format} headers yet`);
    return null;
  }
  const { link, id, filename, ...rest } = value;
  if ((link === undefined) === (id === undefined) || Object.keys(rest).length) {
    problem(
      field,
      `a ${need.format} header takes {link} or {id}${type === 'document' ? ', and filename' : ''}`,
    );
    return null;
  }
  if (filename !== undefined && type !== 'document') {
    problem(`${field}.filename`, 'only a DOCUMENT header takes a filename');
    return null;
  }
  if (link !== undefined && !/^https?:\/\/\S+$/i.test(link)) {
    problem(`${field}.link`, 'an http(s) URL the network can fetch');
    return null;
  }
  const media: GraphMedia = {
    ...(link !== undefined ? { link } : { id: id! }),
    ...(filename !== undefined ? { filename } : {}),
  };
  if (type === 'image') return { type, image: media };
  if (type === 'video') return { type, video: media };
  return { type, document: media };
}

type Body = { parameter: BodyParameter; text: string };

function bodyParameters(needs: TemplateNeeds, value: GivenTemplateValues['body'], problem: Problem): Body[] {
  const names = needs.bodyNames;
  const one = (field: string, v: BodyValue): Body | null =>
    typeof v === 'string'
      ? { parameter: { type: 'text', text: v }, text: v }
      : metaParameter(field, v, problem);
  if (value === undefined || Array.isArray(value)) {
    const values = value ?? [];
    if (values.length !== needs.variableCount)
      problem('template.body', `needs ${needs.variableCount} values, got ${values.length}`);
    return values.flatMap((v, i) => one(`template.body[${i}]`, v) ?? []);
  }
  if (!names) {
    problem('template.body', 'the template has positional variables: give an array of values in order');
    return [];
  }
  for (const key of Object.keys(value)) {
    if (!names.includes(key)) problem(`template.body.${key}`, 'the template has no such variable');
  }
  const values: Body[] = [];
  for (const name of names) {
    const v = value[name];
    if (v === undefined) problem(`template.body.${name}`, 'is required');
    else {
      const checked = one(`template.body.${name}`, v);
      if (checked) values.push(checked);
    }
  }
  return values;
}

function buttonParameter(takes: 'payload' | 'text' | 'coupon_code', value: string): GraphSendParameter {
  if (takes === 'payload') return { type: 'payload', payload: value };
  if (takes === 'coupon_code') return { type: 'coupon_code', coupon_code: value };
  return { type: 'text', text: value };
}
