import type { GraphTemplateComponent } from '../modules/messaging/cloud-api/types.js';

interface SentParameter {
  type?: string;
  parameter_name?: string;
  [field: string]: unknown;
}

export interface SentComponent {
  type?: string;
  sub_type?: string;
  index?: string | number;
  parameters?: SentParameter[];
}

export interface SendRefusal {
  code: 132000 | 132012;
  details: string;
}

/**
 * The network's check of a template message's parameters against the template, component by
 * component: the header's (one, of the header's format, when it takes one), the body's (as many as
 * its variables; by `parameter_name` for a NAMED template), and one for each button that needs one.
 * Meta answers a mismatch with 132000 (or 132012 for a parameter of the wrong format).
 */
export function checkTemplateSend(
  template: { category: string; parameterFormat: string; components: GraphTemplateComponent[] },
  sent: SentComponent[],
): SendRefusal | null {
  const mismatch = (details: string): SendRefusal => ({ code: 132000, details });
  const of = (type: string) => template.components.find((c) => c.type === type);
  const sentOf = (type: string) => sent.filter((c) => String(c.type).toLowerCase() === type);
  const named = template.parameterFormat === 'NAMED';

  const header = of('HEADER');
  const headerFormat = header?.format ?? 'TEXT';
  const headerParams = sentOf('header').flatMap((c) => c.parameters ?? []);
  const headerWants = !header
    ? 0
    : headerFormat !== 'TEXT'
      ? 1
      : variablesIn(header.text ?? '', named).length;
  if (headerParams.length !== headerWants) return mismatch(count('header', headerParams.length, headerWants));
  const headerParam = headerParams[0];
  if (headerParam && headerParam.type !== headerFormat.toLowerCase()) {
    return {
      code: 132012,
      details: `header: Format mismatch, expected ${headerFormat}, received ${String(headerParam.type).toUpperCase()}`,
    };
  }

  const bodyVariables = variablesIn(of('BODY')?.text ?? '', named);
  const bodyParams = sentOf('body').flatMap((c) => c.parameters ?? []);
  if (bodyParams.length !== bodyVariables.length)
    return mismatch(count('body', bodyParams.length, bodyVariables.length));
  if (named) {
    const given = bodyParams.map((p) => p.parameter_name ?? '');
    const missing = bodyVariables.find((v) => !given.includes(v));
    if (missing) return mismatch(`body: parameter ${missing} is missing`);
  }

  const buttons = of('BUTTONS')?.buttons ?? [];
  const authentication = template.category === 'AUTHENTICATION';
  const sentButtons = sentOf('button');
  for (const [i, b] of buttons.entries()) {
    const wants =
      authentication && (b.type === 'OTP' || b.type === 'URL')
        ? 'url'
        : b.type === 'URL' && (b.url ?? '').includes('{{1}}')
          ? 'url'
          : b.type === 'COPY_CODE'
            ? 'copy_code'
            : null;
    const given = sentButtons.filter((c) => Number(c.index) === i);
    if (
      b.type === 'QUICK_REPLY' &&
      given.every((c) => c.sub_type === 'quick_reply' && c.parameters?.length === 1)
    )
      continue;
    if (!wants && given.length === 0) continue;
    if (!wants) return mismatch(`button at index ${i} of type ${b.type} does not take parameters`);
    const ok =
      given.length === 1 && given[0]!.sub_type?.toLowerCase() === wants && given[0]!.parameters?.length === 1;
    if (!ok) return mismatch(`button at index ${i} of type ${b.type} requires one ${wants} parameter`);
  }
  const stray = sentButtons.find((c) => !(Number(c.index) < buttons.length));
  if (stray) return mismatch(`button at index ${String(stray.index)} does not exist`);
  return null;
}

function variablesIn(text: string, named: boolean): string[] {
  const pattern = named ? /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g : /\{\{\s*(\d+)\s*\}\}/g;
  return [...new Set([...text.matchAll(pattern)].map((m) => m[1]!))];
}

const count = (part: string, given: number, wanted: number) =>
  `${part}: number of localizable_params (${given}) does not match the expected number of params (${wanted})`;
