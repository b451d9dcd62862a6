import { ApiError } from '../../api/errors.js';
import type { Principal } from '../../api/principal.js';
import type { AppContext } from '../../context.js';
import { newId } from '../../lib/ids.js';
import { normalizePhone } from '../../lib/phone.js';
import { withContactLimit } from '../contacts/contact-limit.js';
import type { OutcomeWriter } from '../idempotency/outcome.js';
import type { TrackEventBody } from './schemas.js';

export interface TrackedEvent {
  id: string;
  flows_started: number;
}

/**
 * POST /events: finds or creates the contact (402 at the plan's contact limit) and stores the event
 * with the published flows it matches now, marked for the workers to start their runs (the outbox,
 * event-outbox.ts), in one statement (one transaction with the request's idempotent answer,
 * `record`); so the request costs the same whether it starts one flow or fifty, or none.
 */
export async function trackEvent(
  ctx: AppContext,
  principal: Pick<Principal, 'workspaceId' | 'defaultCountryCode'>,
  input: TrackEventBody,
  record?: OutcomeWriter<TrackedEvent>,
): Promise<TrackedEvent> {
  const phone = normalizePhone(input.phone, principal.defaultCountryCode);
  if (!phone.ok) throw ApiError.validation('phone', phone.message);
  const id = newId('ev');
  const started = await withContactLimit(
    ctx.db,
    async (tx) => {
      const { rows } = await tx.query<{ flows: number }>(
        `WITH contact AS (
           INSERT INTO contacts (workspace_id, id, phone) VALUES ($1, $2, $3)
           ON CONFLICT (workspace_id, phone) DO UPDATE SET updated_at = contacts.updated_at
           RETURNING id),
         flows AS (
           SELECT coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'version', a.published_version)), '[]') AS list
           FROM automations a
           WHERE a.workspace_id = $1 AND a.trigger_type = 'event' AND a.trigger_event = $5
             AND a.published_version IS NOT NULL)
         INSERT INTO events (workspace_id, id, contact_id, name, properties, flows, runs_pending)
         SELECT $1, $4, contact.id, $5, $6::jsonb, flows.list, jsonb_array_length(flows.list) > 0
         FROM contact, flows
         RETURNING jsonb_array_length(flows) AS flows`,
        [
          principal.workspaceId,
          newId('ct'),
          phone.digits,
          id,
          input.event,
          JSON.stringify(input.properties ?? {}),
        ],
      );
      const flows = rows[0]!.flows;
      await record?.(tx, { id, flows_started: flows });
      return flows;
    },
    { transaction: record !== undefined },
  );
  if (started > 0) ctx.queue?.wake('automation.start');
  return { id, flows_started: started };
}
