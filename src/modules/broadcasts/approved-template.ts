import type { Queryable } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';
import type { GraphTemplateComponent } from '../messaging/cloud-api/types.js';
import { type StoredTemplate, type TemplateNeeds, templateNeeds } from '../templates/components.js';

export interface ApprovedTemplate extends StoredTemplate {
  name: string;
  language: string;
  needs: TemplateNeeds;
}

export const isMarketing = (category: string) => category.toUpperCase() === 'MARKETING';

/** The workspace's approved template of that name and language, or 404 template_not_found. */
export async function approvedTemplate(
  db: Queryable,
  workspaceId: string,
  ref: { name: string; language: string },
): Promise<ApprovedTemplate> {
  const { rows } = await db.query<StoredTemplate & { components: GraphTemplateComponent[] | null }>(
    `SELECT category, body, parameter_format, components FROM templates
     WHERE workspace_id = $1 AND name = $2 AND language = $3 AND status = 'APPROVED' AND archived_at IS NULL`,
    [workspaceId, ref.name, ref.language],
  );
  const found = rows[0];
  if (!found)
    throw new ApiError(
      'template_not_found',
      `No approved template "${ref.name}" in language "${ref.language}"`,
    );
  return { ...found, name: ref.name, language: ref.language, needs: templateNeeds(found) };
}
