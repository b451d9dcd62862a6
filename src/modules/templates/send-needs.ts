import type { Static } from 'typebox';
import { type StoredTemplate, templateNeeds } from './components.js';
import type { ListedTemplate } from './schemas.js';

type SendNeeds = Pick<
  Static<typeof ListedTemplate>,
  'variable_count' | 'parameter_format' | 'body_parameters' | 'header' | 'buttons'
>;

/** What a send of the template must give, as the template lists show it (derived from its components). */
export function sendNeeds(template: StoredTemplate): SendNeeds {
  const needs = templateNeeds(template);
  return {
    variable_count: needs.variableCount,
    parameter_format: needs.parameterFormat,
    body_parameters: needs.bodyNames ?? [],
    header: needs.header && { format: needs.header.format, takes_value: needs.header.takesValue },
    buttons: needs.buttons.map((b) => ({
      index: b.index,
      type: b.type,
      takes: b.takes,
      required: b.required,
    })),
  };
}
