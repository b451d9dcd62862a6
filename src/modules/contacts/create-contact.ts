import { ApiError } from '../../api/errors.js';
import type { Db } from '../../db/db.js';
import type { Actor } from '../audit/record-audit.js';
import type { ContactUpsertBody } from './schemas.js';
import { contactPhone, type UpsertResult, upsertContact } from './upsert-contact.js';

/**
 * A contact added in the web app: the REST upsert's rules and phone normalisation, except that a
 * phone already in the workspace is refused at the phone field (422) rather than merged into it.
 */
export async function createContact(
  db: Db,
  workspace: { workspaceId: string; defaultCountryCode: string | null },
  input: ContactUpsertBody,
  actor: Actor,
): Promise<UpsertResult> {
  const phone = contactPhone(input.phone, workspace.defaultCountryCode);
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM contacts WHERE workspace_id = $1 AND phone = $2',
    [workspace.workspaceId, phone],
  );
  if (rows[0]) throw ApiError.invalid('phone', `+${phone} is already a contact; open it to edit it.`);
  return upsertContact(db, workspace, input, actor);
}
