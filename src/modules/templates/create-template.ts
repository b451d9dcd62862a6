import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { isTemplateLanguage } from '../../lib/template-languages.js';
import { CloudApiError } from '../messaging/cloud-api/client.js';
import type { GraphTemplateComponent } from '../messaging/cloud-api/types.js';
import { clientFor, numberOfWorkspace } from '../messaging/connected-numbers.js';
import type { ParameterFormat } from './components.js';
import { saveTemplate } from './save-template.js';
import { countVariables } from './variables.js';

export interface NewTemplate {
  name: string;
  language: string;
  category: string;
  /** A body-only template's text; or give `components` (not both). */
  body?: string;
  /** Sample values for the body's variables, which Meta's review asks for; placeholders when absent. */
  examples?: string[];
  /** Every component in Meta's creation shape (header, body, footer, buttons), passed on as given. */
  components?: GraphTemplateComponent[];
  parameter_format?: ParameterFormat;
  /** AUTHENTICATION templates: Meta presets their text; these are its options. */
  add_security_recommendation?: boolean;
  code_expiration_minutes?: number;
  otp_type?: 'COPY_CODE' | 'ONE_TAP' | 'ZERO_TAP';
  /** ONE_TAP and ZERO_TAP buttons: the Android apps that take the code. */
  supported_apps?: { package_name: string; signature_hash: string }[];
}

const CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
const AUTH_OPTIONS = [
  'add_security_recommendation',
  'code_expiration_minutes',
  'otp_type',
  'supported_apps',
] as const;

/**
 * Submits a message template to the workspace's WhatsApp Business account and keeps it as the
 * network answered (PENDING until Meta reviews it). The approval reaches Parley by the network's
 * `message_template_status_update` webhook, or by the next sync.
 */
export async function createTemplate(ctx: AppContext, workspaceId: string, input: NewTemplate) {
  const number = await numberOfWorkspace(ctx, ctx.db, workspaceId);
  if (!number) throw ApiError.invalid('template', 'the workspace has no connected number');
  if (!/^[a-z0-9_]{1,512}$/.test(input.name)) {
    throw ApiError.validation('name', 'use lowercase letters, digits and underscores (at most 512)');
  }
  if (!isTemplateLanguage(input.language)) {
    throw ApiError.validation(
      'language',
      "not one of WhatsApp's template languages, such as en, en_US or pt_BR",
    );
  }
  const category = input.category.toUpperCase();
  if (!CATEGORIES.includes(category as (typeof CATEGORIES)[number])) {
    throw ApiError.validation('category', `one of ${CATEGORIES.join(', ')}`);
  }
  const parameterFormat = input.parameter_format ?? 'POSITIONAL';
  const stray = AUTH_OPTIONS.find((k) => input[k] !== undefined);
  if (stray && category !== 'AUTHENTICATION') {
    throw ApiError.validation(stray, 'only AUTHENTICATION templates take it');
  }
  const components =
    category === 'AUTHENTICATION'
      ? authenticationComponents(input)
      : input.components
        ? givenComponents(input)
        : bodyOnly(input);
  const body = components.find((c) => c.type === 'BODY')?.text ?? '';
  let created: { id: string; status: string };
  try {
    created = await clientFor(ctx, number).createTemplate(number.businessAccountId, {
      name: input.name,
      language: input.language,
      category: category as (typeof CATEGORIES)[number],
      ...(input.parameter_format ? { parameter_format: input.parameter_format } : {}),
      components,
    });
  } catch (err) {
    if (!(err instanceof CloudApiError)) throw err;
    const message = err.transient
      ? `the network did not take the template (${err.message}); try again`
      : `the network refused the template: ${err.message}`;
    throw new ApiError('validation_error', message, [{ field: 'template', message }], { cause: err });
  }
  const status = (['APPROVED', 'REJECTED'].includes(created.status) ? created.status : 'PENDING') as
    | 'APPROVED'
    | 'PENDING';
  const { id, variableCount } = await saveTemplate(ctx.db, workspaceId, {
    name: input.name,
    language: input.language,
    category,
    body,
    status,
    externalId: created.id,
    components,
    parameterFormat,
  });
  return {
    id,
    external_id: created.id,
    name: input.name,
    language: input.language,
    category,
    status,
    variable_count: variableCount,
  };
}

function bodyOnly(input: NewTemplate): GraphTemplateComponent[] {
  const body = input.body ?? '';
  if (body.length < 1 || body.length > 1024) {
    throw ApiError.validation('body', '1 to 1,024 characters');
  }
  const variables = countVariables(body);
  for (let n = 1; n <= variables; n++) {
    if (!body.includes(`{{${n}}}`)) {
      throw ApiError.validation('body', `variables must be numbered {{1}} to {{${variables}}} in turn`);
    }
  }
  const examples = input.examples ?? Array.from({ length: variables }, (_, i) => `example ${i + 1}`);
  if (examples.length !== variables) {
    throw ApiError.validation(
      'examples',
      `the body has ${variables} variables, got ${examples.length} examples`,
    );
  }
  return [{ type: 'BODY', text: body, ...(variables > 0 ? { example: { body_text: [examples] } } : {}) }];
}

/** Meta's creation shapes, with types and formats upper-cased as its template list shows them. */
function givenComponents(input: NewTemplate): GraphTemplateComponent[] {
  if (input.body !== undefined || input.examples !== undefined) {
    throw ApiError.validation('components', 'give the body inside components, not beside them');
  }
  const components = (input.components ?? []).map((c) => ({
    ...c,
    type: String(c.type).toUpperCase(),
    ...(c.format ? { format: String(c.format).toUpperCase() } : {}),
    ...(c.buttons ? { buttons: c.buttons.map((b) => ({ ...b, type: String(b.type).toUpperCase() })) } : {}),
  }));
  if (components.filter((c) => c.type === 'BODY' && c.text).length !== 1) {
    throw ApiError.validation('components', 'exactly one BODY component with text is required');
  }
  return components;
}

/**
 * Meta presets an authentication template's text ("<code> is your verification code.") and takes only
 * its options: a security recommendation, the code's expiry, and the one-time-password button.
 */
function authenticationComponents(input: NewTemplate): GraphTemplateComponent[] {
  if (input.body !== undefined || input.components !== undefined || input.examples !== undefined) {
    throw ApiError.validation(
      input.components !== undefined ? 'components' : 'body',
      'authentication templates have preset text: give add_security_recommendation, code_expiration_minutes and otp_type instead',
    );
  }
  const minutes = input.code_expiration_minutes;
  if (minutes !== undefined && (!Number.isInteger(minutes) || minutes < 1 || minutes > 90)) {
    throw ApiError.validation('code_expiration_minutes', 'whole minutes, 1 to 90');
  }
  const otpType = input.otp_type ?? 'COPY_CODE';
  if (otpType !== 'COPY_CODE' && !input.supported_apps?.length) {
    throw ApiError.validation('supported_apps', `a ${otpType} button needs the apps that take the code`);
  }
  return [
    { type: 'BODY', add_security_recommendation: input.add_security_recommendation ?? false },
    ...(minutes !== undefined ? [{ type: 'FOOTER', code_expiration_minutes: minutes }] : []),
    {
      type: 'BUTTONS',
      buttons: [
        {
          type: 'OTP',
          otp_type: otpType,
          ...(otpType !== 'COPY_CODE' ? { supported_apps: input.supported_apps } : {}),
        },
      ],
    },
  ];
}
