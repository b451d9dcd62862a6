import type { AppContext } from '../../context.js';
import { ApiError } from '../../http/errors.js';
import { CloudApiError } from '../messaging/cloud-api/client.js';
import { clientFor, numberOfWorkspace } from '../messaging/connected-numbers.js';
import { saveTemplate } from './save-template.js';
import { countVariables } from './variables.js';

export interface NewTemplate {
  name: string;
  language: string;
  category: string;
  body: string;
  /** Sample values for the body's variables, which Meta's review asks for; placeholders when absent. */
  examples?: string[];
}

const CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;

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
  if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(input.language)) {
    throw ApiError.validation('language', 'a code such as en, en_US or pt_BR');
  }
  const category = input.category.toUpperCase();
  if (!CATEGORIES.includes(category as (typeof CATEGORIES)[number])) {
    throw ApiError.validation('category', `one of ${CATEGORIES.join(', ')}`);
  }
  if (input.body.length < 1 || input.body.length > 1024) {
    throw ApiError.validation('body', '1 to 1,024 characters');
  }
  const variables = countVariables(input.body);
  for (let n = 1; n <= variables; n++) {
    if (!input.body.includes(`{{${n}}}`)) {
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
  let created: { id: string; status: string };
  try {
    created = await clientFor(ctx, number).createTemplate(number.businessAccountId, {
      name: input.name,
      language: input.language,
      category: category as (typeof CATEGORIES)[number],
      components: [
        {
          type: 'BODY',
          text: input.body,
          ...(variables > 0 ? { example: { body_text: [examples] } } : {}),
        },
      ],
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
  const { id } = await saveTemplate(ctx.db, workspaceId, {
    name: input.name,
    language: input.language,
    category,
    body: input.body,
    status,
    externalId: created.id,
  });
  return {
    id,
    external_id: created.id,
    name: input.name,
    language: input.language,
    category,
    status,
    variable_count: variables,
  };
}
