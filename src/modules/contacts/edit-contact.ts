import { ApiError } from '../../api/errors.js';
import type { Db } from '../../db/db.js';
import { type Actor, audited, changedFields } from '../audit/record-audit.js';
import type { ContactEditBody } from './schemas.js';

/**
 * The web app's edit of one contact, field by field: a tag or trait added or removed inline changes
 * only itself, so a flow tagging the contact at the same moment is not undone.
 */
export async function editContact(
  db: Db,
  workspaceId: string,
  id: string,
  input: ContactEditBody,
  actor: Actor,
): Promise<void> {
  await audited(
    db,
    async (tx) => {
      const { rows } = await tx.query(
        `UPDATE contacts SET
           name = CASE WHEN $3 THEN $4 ELSE name END,
           email = CASE WHEN $5 THEN $6 ELSE email END,
           tags = ARRAY(SELECT t FROM unnest(tags || $7::text[]) WITH ORDINALITY AS n(t, o)
                        WHERE t <> ALL ($8::text[]) GROUP BY t ORDER BY min(o)),
           traits = (traits || $9::jsonb) - $10::text[],
           updated_at = now()
         WHERE workspace_id = $1 AND id = $2 RETURNING id`,
        [
          workspaceId,
          id,
          input.name !== undefined,
          input.name ?? null,
          input.email !== undefined,
          input.email ?? null,
          input.add_tags ?? [],
          input.remove_tags ?? [],
          JSON.stringify(input.traits ?? {}),
          input.remove_traits ?? [],
        ],
      );
      if (!rows[0]) throw new ApiError('not_found', 'No contact with that id');
    },
    () => ({
      workspaceId,
      actor,
      action: 'update',
      entityType: 'contact',
      entityId: id,
      changes: changedFields(input),
    }),
  );
}
