import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import type { GraphTemplateComponent } from '../messaging/cloud-api/types.js';
import { type ParameterFormat, templateNeeds } from './components.js';
import type { TemplateStatus } from './schemas.js';

export interface TemplateInput {
  name: string;
  language: string;
  category: string;
  body: string;
  status: Static<typeof TemplateStatus>;
  /** The network's template id, once synced. */
  externalId?: string;
  /** Every component, as the network lists them; a body-only template when absent. */
  components?: GraphTemplateComponent[];
  parameterFormat?: ParameterFormat;
  qualityScore?: string | null;
  rejectedReason?: string | null;
}

/**
 * Inserts or refreshes a template by (name, language); the variable count always follows the body.
 * Why it is not sendable (status_reason) is kept while its status stays the same.
 */
export async function saveTemplate(
  db: Queryable,
  workspaceId: string,
  t: TemplateInput,
): Promise<{ id: string; variableCount: number }> {
  const components = t.components ?? [{ type: 'BODY', text: t.body }];
  const parameterFormat = t.parameterFormat ?? 'POSITIONAL';
  const needs = templateNeeds({
    category: t.category,
    body: t.body,
    parameter_format: parameterFormat,
    components,
  });
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO templates (workspace_id, id, name, language, category, body, status, variable_count, external_id,
       components, parameter_format, quality_score, rejected_reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13)
     ON CONFLICT (workspace_id, name, language) DO UPDATE SET category = EXCLUDED.category,
       body = EXCLUDED.body, status = EXCLUDED.status, variable_count = EXCLUDED.variable_count,
       external_id = COALESCE(EXCLUDED.external_id, templates.external_id), components = EXCLUDED.components,
       parameter_format = EXCLUDED.parameter_format, quality_score = EXCLUDED.quality_score,
       rejected_reason = EXCLUDED.rejected_reason,
       status_reason = CASE WHEN EXCLUDED.status = templates.status THEN templates.status_reason END,
       updated_at = now()
     RETURNING id`,
    [
      workspaceId,
      newId('tpl'),
      t.name,
      t.language,
      t.category,
      t.body,
      t.status,
      needs.variableCount,
      t.externalId ?? null,
      JSON.stringify(components),
      parameterFormat,
      t.qualityScore ?? null,
      t.rejectedReason ?? null,
    ],
  );
  return { id: rows[0]!.id, variableCount: needs.variableCount };
}
