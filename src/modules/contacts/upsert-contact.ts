import type { Db } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { normalizePhone } from '../../lib/phone.js';
import type { Principal } from '../api-keys/key-verifier.js';
import type { OutcomeWriter } from '../idempotency/outcome.js';
import { withContactLimit } from './contact-limit.js';
import type { ContactUpsertBody } from './schemas.js';
import { setConsent } from './set-consent.js';

export interface UpsertResult {
  id: string;
  created: boolean;
  /** Outbound webhook deliveries of a consent change, to queue once committed. */
  deliveries?: string[];
}

// Tags are appended in the order given, skipping those the contact has; traits merge one level deep;
// name and email change only when given. xmax = 0 tells a fresh insert from an update.
/** What an upsert does to the contact with the phone it names (an import's batches too). */
export const ON_PHONE_CONFLICT = `
ON CONFLICT (workspace_id, phone) DO UPDATE SET
  name = COALESCE(EXCLUDED.name, contacts.name),
  email = COALESCE(EXCLUDED.email, contacts.email),
  tags = contacts.tags || ARRAY(
    SELECT t FROM unnest(EXCLUDED.tags) WITH ORDINALITY AS n(t, o) WHERE t <> ALL (contacts.tags) ORDER BY o),
  traits = contacts.traits || EXCLUDED.traits,
  updated_at = now()
RETURNING id, (xmax = 0) AS created`;

/** @public The bench runs this same statement as its baseline. */
export const UPSERT_CONTACT_SQL = `
INSERT INTO contacts (workspace_id, id, phone, name, email, tags, traits)
VALUES ($1, $2, $3, $4, $5, $6::text[], $7::jsonb)${ON_PHONE_CONFLICT}`;

/** `record` writes the request's idempotent answer in the upsert's transaction. */
export async function upsertContact(
  db: Db,
  principal: Principal,
  input: ContactUpsertBody,
  record?: OutcomeWriter<UpsertResult>,
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
  const consent = input.opted_out;
  return withContactLimit(
    db,
    async (q) => {
      const result = (await q.query<UpsertResult>(UPSERT_CONTACT_SQL, params)).rows[0]!;
      if (consent !== undefined) {
        const change = await setConsent(q, principal.workspaceId, result.id, consent, { source: 'api' });
        if (change) result.deliveries = change.deliveries;
      }
      await record?.(q, { id: result.id, created: result.created });
      return result;
    },
    { transaction: record !== undefined || consent !== undefined },
  );
}
