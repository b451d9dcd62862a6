import type { Db } from '../../db/db.js';
import { type Actor, changedFields, recordAudit } from '../audit/record-audit.js';
import { editContact } from './edit-contact.js';
import { getContact } from './get-contact.js';
import type { ContactEditBody, ContactPatchBody } from './schemas.js';
import { setConsent } from './set-consent.js';

/** REST v1's change as the app's edit: tags as `{add, remove}`, a trait given null removed. */
function asEdit({ opted_out: _, tags, traits, ...fields }: ContactPatchBody): ContactEditBody {
  const entries = Object.entries(traits ?? {});
  const kept = entries.filter(([, value]) => value !== null);
  const removed = entries.filter(([, value]) => value === null).map(([key]) => key);
  return {
    ...fields,
    ...(tags?.add ? { add_tags: tags.add } : {}),
    ...(tags?.remove ? { remove_tags: tags.remove } : {}),
    ...(kept.length > 0 ? { traits: Object.fromEntries(kept) } : {}),
    ...(removed.length > 0 ? { remove_traits: removed } : {}),
  };
}

/**
 * Changes one contact as the web app does: the fields through its edit (field by field, so a flow
 * tagging the contact at the same moment is not undone), then its consent as its opt-out switch
 * does (recorded with source `api`). Answers the webhook deliveries to queue once committed.
 */
export async function changeContact(
  db: Db,
  workspaceId: string,
  id: string,
  input: ContactPatchBody,
  actor: Actor,
): Promise<string[]> {
  const edit = asEdit(input);
  if (Object.keys(edit).length > 0) await editContact(db, workspaceId, id, edit, actor);
  else await getContact(db, workspaceId, id);
  const optedOut = input.opted_out;
  if (optedOut === undefined) return [];
  return db.transaction(async (tx) => {
    const change = await setConsent(tx, workspaceId, id, optedOut, { source: 'api' });
    if (!change) return [];
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: 'update',
      entityType: 'contact',
      entityId: id,
      changes: changedFields({ opted_out: optedOut }),
    });
    return change.deliveries;
  });
}
