import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import type { TemplateStatus } from './schemas.js';
import { countVariables } from './variables.js';

export interface TemplateInput {
  name: string;
  language: string;
  category: string;
  body: string;
  status: Static<typeof TemplateStatus>;
  /** The network's template id, once synced. */
  externalId?: string;
}

/** Inserts or refreshes a template by (name, language); the variable count always follows the body. */
export async function saveTemplate(
  db: Queryable,
  workspaceId: string,
  t: TemplateInput,
): Promise<{ id: string }> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO templates (workspace_id, id, name, language, category, body, status, variable_count, external_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (workspace_id, name, language) DO UPDATE SET category = EXCLUDED.category,
       body = EXCLUDED.body, status = EXCLUDED.status, variable_count = EXCLUDED.variable_count,
       external_id = COALESCE(EXCLUDED.external_id, templates.external_id), updated_at = now()
     RETURNING id`,
    [
      workspaceId,
      newId('tpl'),
      t.name,
      t.language,
      t.category,
      t.body,
      t.status,
      countVariables(t.body),
      t.externalId ?? null,
    ],
  );
  return { id: rows[0]!.id };
}
