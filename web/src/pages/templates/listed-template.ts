import { sendNeeds } from '../../../../src/modules/templates/send-needs.js';
import { type CreateTemplateBody, reviewTemplate } from '../../../../src/simulator/template-review.js';
import type { Template } from './types';

/** For the unit tests: a template as the app's GET /templates lists it, from Meta's creation request as reviewed. */
export function listed(request: CreateTemplateBody & { name: string; language: string; category: string }) {
  const review = reviewTemplate(request, request.category);
  if (!review.ok) throw new Error(review.details);
  const stored = {
    category: request.category,
    body: review.components.find((c) => c.type === 'BODY')?.text ?? '',
    parameter_format: review.parameterFormat,
    components: review.components,
  };
  return {
    id: 'tp_1',
    name: request.name,
    language: request.language,
    status: 'APPROVED',
    rejected_reason: null,
    status_reason: null,
    updated_at: '',
    ...stored,
    ...sendNeeds(stored),
  } as Template;
}
