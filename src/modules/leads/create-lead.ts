import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { newLeadSequencesSql, startNewLeadRuns } from '../automation/intake.js';
import { withContactLimit } from '../contacts/contact-limit.js';
import { queueDeliveries, recordEvent } from '../webhooks/emit.js';
import { giveBackLead, reserveLead } from './lead-reservation.js';

export interface NewLead {
  workspaceId: string;
  source: 'form' | 'webhook';
  sourceId: string;
  name: string | null;
  email: string | null;
  /** E.164 digits, already normalised. */
  phone: string | null;
  fields: Record<string, unknown>;
}

/** The runs a new lead starts: of `sequence` (the webhook's own), and of the "lead created" and "form submitted" ones. */
export interface LeadStarts {
  /** The lead's form: its "form submitted" sequences start too. */
  formId?: string;
  sequence?: { id: string; version: number };
  /** What was submitted, for the runs' trigger data. */
  payload: Record<string, unknown>;
}

export interface CreatedLead {
  id: string;
  contactId: string | null;
  /** The run of `starts.sequence`. */
  runId: string | null;
}

/**
 * Counts a lead against the plan's month (402 over it, nothing stored; lead-reservation.ts), then
 * stores it in one transaction: links it to the contact with its phone (created if absent), starts
 * its sequences' runs (`starts`) and records `lead.created` for the customer's webhooks, queued once
 * the transaction has committed. A lead that cannot be stored gives its place in the month back.
 *
 * At the plan's contact limit the lead is still stored, without a contact: refusing it would lose a
 * person who asked to be contacted, and keeping the contact limit keeps the plan's meaning.
 */
export async function createLead(ctx: AppContext, lead: NewLead, starts: LeadStarts): Promise<CreatedLead> {
  const id = newId('ld');
  const month = await reserveLead(ctx, lead.workspaceId);
  const write = (linkContact: boolean) => async (q: Queryable) => {
    const contactId = linkContact && lead.phone ? await contactFor(q, lead) : null;
    const { rows } = await q.query<{ sequences: { id: string; version: number }[] }>(
      `INSERT INTO leads (workspace_id, id, contact_id, name, email, phone, source, source_id, fields)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)
       RETURNING ${newLeadSequencesSql('$1', '$10')} AS sequences`,
      [
        lead.workspaceId,
        id,
        contactId,
        lead.name,
        lead.email,
        lead.phone,
        lead.source,
        lead.sourceId,
        JSON.stringify(lead.fields),
        starts.formId ?? null,
      ],
    );
    const runs = await startNewLeadRuns(
      ctx,
      q,
      { workspaceId: lead.workspaceId, id, contactId, payload: starts.payload },
      [...(starts.sequence ? [starts.sequence] : []), ...rows[0]!.sequences],
    );
    const deliveries = await recordEvent(q, lead.workspaceId, 'lead.created', id, {
      id,
      contact_id: contactId,
      name: lead.name,
      email: lead.email,
      phone: lead.phone,
      source: lead.source,
      source_id: lead.sourceId,
      status: 'new',
      fields: lead.fields,
    });
    return {
      contactId,
      deliveries,
      runs: runs.size,
      runId: starts.sequence ? (runs.get(starts.sequence.id) ?? null) : null,
    };
  };
  let stored: { contactId: string | null; deliveries: string[]; runs: number; runId: string | null };
  try {
    stored = await withContactLimit(ctx.db, write(true), { transaction: true }).catch(
      async (err: unknown) => {
        // The contact limit's 402 only drops the contact.
        if (!(err instanceof ApiError) || err.code !== 'plan_limit_reached') throw err;
        ctx.log.warn(
          { workspaceId: lead.workspaceId, leadId: id },
          'contact limit reached: lead stored without a contact',
        );
        return ctx.db.transaction(write(false));
      },
    );
  } catch (err) {
    await giveBackLead(ctx.db, lead.workspaceId, month).catch((e: unknown) =>
      ctx.log.error({ err: e }, "giving back an unstored lead's place in the month failed"),
    );
    throw err;
  }
  if (stored.runs > 0) ctx.queue?.wake('automation.step');
  await queueDeliveries(ctx, lead.workspaceId, stored.deliveries);
  return { id, contactId: stored.contactId, runId: stored.runId };
}

/** The contact with the lead's phone, created if absent; a known contact only gets blanks filled. */
async function contactFor(q: Queryable, lead: NewLead): Promise<string> {
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO contacts (workspace_id, id, phone, name, email) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (workspace_id, phone) DO UPDATE SET
       name = COALESCE(contacts.name, EXCLUDED.name), email = COALESCE(contacts.email, EXCLUDED.email),
       updated_at = now()
     RETURNING id`,
    [lead.workspaceId, newId('ct'), lead.phone, lead.name, lead.email],
  );
  return rows[0]!.id;
}
