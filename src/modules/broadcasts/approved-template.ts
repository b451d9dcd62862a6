import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { type StoredTemplate, type TemplateNeeds, templateNeeds } from '../templates/components.js';
import { findApprovedTemplate } from '../templates/find-approved.js';

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
  const found = await findApprovedTemplate(db, workspaceId, ref);
  if (!found)
    throw new ApiError(
      'template_not_found',
      `No approved template "${ref.name}" in language "${ref.language}"`,
    );
  return { ...found, name: ref.name, language: ref.language, needs: templateNeeds(found) };
}
