import type { Db } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { normalizePhone } from '../../lib/phone.js';
import type { Principal } from '../api-keys/key-verifier.js';
import type { ContactUpsertBody } from './schemas.js';

export interface UpsertResult {
  id: string;
  created: boolean;
}

// Tags are appended in the order given, skipping those the contact has; traits merge one level deep;
// name and email change only when given. xmax = 0 tells a fresh insert from an update.
const UPSERT = `
INSERT INTO contacts (workspace_id, id, phone, name, email, tags, traits)
VALUES ($1, $2, $3, $4, $5, $6::text[], $7::jsonb)
ON CONFLICT (workspace_id, phone) DO UPDATE SET
  name = COALESCE(EXCLUDED.name, contacts.name),
  email = COALESCE(EXCLUDED.email, contacts.email),
  tags = contacts.tags || ARRAY(
    SELECT t FROM unnest(EXCLUDED.tags) WITH ORDINALITY AS n(t, o) WHERE t <> ALL (contacts.tags) ORDER BY o),
  traits = contacts.traits || EXCLUDED.traits,
  updated_at = now()
RETURNING id, (xmax = 0) AS created`;

// Counted in the same transaction as the insert, under the workspace row's lock, so two racing
// creations can never both take the last slot.
const TAKE_CONTACT_SLOT = `
UPDATE workspaces w SET contact_count = w.contact_count + 1
FROM plans p
WHERE w.id = $1 AND p.name = w.plan AND w.contact_count < p.contacts_limit
RETURNING w.contact_count`;

export async function upsertContact(
  db: Db,
  principal: Principal,
  input: ContactUpsertBody,
): Promise<UpsertResult> {
  const phone = normalizePhone(input.phone, principal.defaultCountryCode);
  if (!phone.ok) throw ApiError.validation('phone', phone.message);
  const params = [
    principal.workspaceId,
    newId('ct'),
    phone.digits,
    input.name ?? null,
    input.email ?? null,
    [...new Set(input.tags ?? [])],
    JSON.stringify(input.traits ?? {}),
  ];
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<UpsertResult>(UPSERT, params);
    const row = rows[0]!;
    if (row.created) {
      const slot = await tx.query(TAKE_CONTACT_SLOT, [principal.workspaceId]);
      if (slot.rows.length === 0) {
        throw new ApiError(
          'plan_limit_reached',
          "The plan's contact limit is reached; upgrade the plan to add contacts",
        );
      }
    }
    return { id: row.id, created: row.created };
  });
}
