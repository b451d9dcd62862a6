import { ApiError } from '../../api/errors.js';
import type { Principal } from '../../api/principal.js';
import type { Db } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { normalizePhone } from '../../lib/phone.js';
import { type Actor, changedFields } from '../audit/record-audit.js';
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

// The same statement, writing its audit row (create or update) as part of it: no second round trip.
const AUDITED_UPSERT_SQL = `WITH c AS (${UPSERT_CONTACT_SQL}),
  audit AS (
    INSERT INTO audit_log (workspace_id, actor_type, actor_id, action, entity_type, entity_id, changes)
    SELECT $1, $8, $9, CASE WHEN c.created THEN 'create' ELSE 'update' END, 'contact', c.id, $10::jsonb FROM c)
SELECT id, created FROM c`;

/** The contact's phone as stored: normalised as every way in does, or a 422 naming the field. */
export function contactPhone(input: string, defaultCountryCode: string | null): string {
  const phone = normalizePhone(input, defaultCountryCode);
  if (!phone.ok) throw ApiError.validation('phone', phone.message);
  return phone.digits;
}

/** `record` writes the request's idempotent answer in the upsert's transaction. */
export async function upsertContact(
  db: Db,
  principal: Pick<Principal, 'workspaceId' | 'defaultCountryCode'>,
  input: ContactUpsertBody,
  actor: Actor,
  record?: OutcomeWriter<UpsertResult>,
): Promise<UpsertResult> {
  const phone = contactPhone(input.phone, principal.defaultCountryCode);
  const { phone: _, ...changed } = input;
  const params = [
    principal.workspaceId,
    newId('ct'),
    phone,
    input.name ?? null,
    input.email ?? null,
    [...new Set(input.tags ?? [])],
    JSON.stringify(input.traits ?? {}),
    actor.type,
    actor.type === 'system' ? null : actor.id,
    JSON.stringify(changedFields(changed)),
  ];
  const consent = input.opted_out;
  return withContactLimit(
    db,
    async (q) => {
      const result = (await q.query<UpsertResult>(AUDITED_UPSERT_SQL, params)).rows[0]!;
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
