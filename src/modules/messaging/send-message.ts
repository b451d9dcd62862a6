import { ApiError } from '../../api/errors.js';
import type { Principal } from '../../api/principal.js';
import type { AppContext } from '../../context.js';
import { untilRecorded } from '../../db/outage.js';
import { newId } from '../../lib/ids.js';
import { normalizePhone } from '../../lib/phone.js';
import { withContactLimit } from '../contacts/contact-limit.js';
import type { OutcomeWriter } from '../idempotency/outcome.js';
import { templateNeeds } from '../templates/components.js';
import { findApprovedTemplate } from '../templates/find-approved.js';
import { CloudApiError } from './cloud-api/client.js';
import type { OutboundMessage } from './cloud-api/send-body.js';
import { type ConnectedNumber, clientFor, sendingNumber } from './connected-numbers.js';
import { type AfterCommit, publish, runAfterCommit } from './events.js';
import { numberProblem } from './number-problems.js';
import {
  failIfOptedOut,
  OPTED_OUT_CODE,
  OPTED_OUT_REASON,
  refuseMarketingToOptedOut,
} from './opt-out-check.js';
import { releaseSend, type SendSlot } from './pacing.js';
import { pauseNumber } from './pause-number.js';
import { recordAccepted } from './record-accepted.js';
import { richContent } from './rich-message.js';
import type { SendMessageBody } from './schemas.js';
import { giveBack, reserveSend, slotNow } from './send-reservation.js';
import {
  JOB_SLOT_WAIT_MS,
  leaseSeconds,
  NETWORK_ALLOWANCE_MS,
  SEND_TIMEOUT_MS,
  scheduleSend,
} from './send-schedule.js';
import { failMessage, type MessageStatus } from './status.js';
import { templateComponents } from './template-parameters.js';
import { followTemplateRefusal, templateRefusal } from './template-refusal.js';

export interface SendResult {
  id: string;
  wamid: string | null;
  status: MessageStatus;
}

const WINDOW = "interval '24 hours'";
// A deferred send's job starts this long before its slot is due, and waits for it.
const JOB_SLOT_HEADSTART_MS = JOB_SLOT_WAIT_MS / 2;

/**
 * POST /messages: checks in the order the spec's statuses imply (no number 409, no such approved
 * template 404, values that do not fit the template's components 422, text outside the window 409, plan 402), stores the
 * message as queued, then tries the network within the request so the answer carries the wamid.
 * A slow or failing network answers `queued`; the `messages.send` job takes it from there.
 * `record` writes the message's id for the request's Idempotency-Key in the transaction storing it;
 * `sentBy` is the teammate who sent it from the app (none for the REST API and flows): stored, it is
 * published as `teammate.replied` (events.ts).
 */
export async function sendMessage(
  ctx: AppContext,
  principal: Pick<Principal, 'workspaceId' | 'defaultCountryCode'>,
  input: SendMessageBody,
  options: { sourceKey?: string; record?: OutcomeWriter<string>; sentBy?: string } = {},
): Promise<SendResult> {
  if (options.sourceKey) {
    const sent = await storedMessage(ctx, principal.workspaceId, 'source_key', options.sourceKey);
    if (sent) return sent;
  }
  const number = await sendingNumber(ctx, principal.workspaceId);
  if (!number) {
    throw new ApiError(
      'no_connected_number',
      'The workspace has no connected WhatsApp number; connect one in Settings',
    );
  }
  if (number.paused) throw pausedNumberError(number.paused);
  const phone = normalizePhone(input.to, principal.defaultCountryCode);
  if (!phone.ok) throw ApiError.validation('to', phone.message);
  const type = input.type ?? 'template';
  let message: OutboundMessage;
  let templateValues: string[] = [];
  if (type === 'template') {
    if (!input.template) throw ApiError.validation('template', 'is required for a template message');
    const { name, language } = input.template;
    const template = await ctx.sending.template(principal.workspaceId, `${name}\u0000${language}`, () =>
      findApprovedTemplate(ctx.db, principal.workspaceId, { name, language }),
    );
    if (!template) {
      throw new ApiError(
        'template_not_found',
        `No approved template "${input.template.name}" in language "${input.template.language}"`,
      );
    }
    const { components, bodyValues } = templateComponents(templateNeeds(template), input.template);
    await refuseMarketingToOptedOut(ctx.db, principal.workspaceId, phone.digits, template.category);
    message = {
      type,
      to: phone.digits,
      name: input.template.name,
      language: input.template.language,
      components,
    };
    templateValues = bodyValues;
  } else {
    const content = type === 'text' ? null : richContent(type, input);
    if (type === 'text' && input.text === undefined)
      throw ApiError.validation('text', 'is required for a text message');
    const { rows } = await ctx.db.query(
      `SELECT 1 FROM contacts WHERE workspace_id = $1 AND phone = $2 AND last_inbound_at > now() - ${WINDOW}`,
      [principal.workspaceId, phone.digits],
    );
    if (!rows[0]) {
      throw new ApiError(
        'outside_window',
        `The recipient has not written in the last 24 hours: ${type === 'text' ? 'free text' : `a ${type} message`} cannot be sent; send a template instead`,
      );
    }
    if (type === 'reaction') {
      const { rows: found } = await ctx.db.query(
        'SELECT 1 FROM messages WHERE workspace_id = $1 AND phone = $2 AND wamid = $3',
        [principal.workspaceId, phone.digits, input.reaction!.message_id],
      );
      if (!found[0])
        throw ApiError.validation('reaction.message_id', 'no message with this wamid in the conversation');
    }
    message =
      type === 'text'
        ? { type, to: phone.digits, text: input.text! }
        : { type, to: phone.digits, content: content! };
  }
  const id = newId('msg');
  const reserved = await reserveSend(ctx, number, sendDeadlineWaitMs(ctx));
  let after: AfterCommit[] = [];
  // One statement: the contact and the message, counted and given its slot just before.
  const stored = await withContactLimit(
    ctx.db,
    async (q) => {
      const { rows } = await q.query<{ contact_id: string }>(
        `WITH contact AS (
         INSERT INTO contacts (workspace_id, id, phone) VALUES ($1, $2, $3)
         ON CONFLICT (workspace_id, phone) DO UPDATE SET updated_at = contacts.updated_at
         RETURNING id)
       INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, template_name, template_language,
         template_values, text, callback_data, status, status_rank, sending_until, unconfirmed_since, source_key,
         template_components, content, sent_by)
       SELECT $1, $4, 'outbound', contact.id, $3, $5, $6, $7, $8::jsonb, $9, $10, 'queued', 0,
         now() + make_interval(secs => $11), now(), $12, $13::jsonb, $14::jsonb, $15
       FROM contact RETURNING contact_id`,
        [
          principal.workspaceId,
          newId('ct'),
          phone.digits,
          id,
          type,
          message.type === 'template' ? message.name : null,
          message.type === 'template' ? message.language : null,
          message.type === 'template' ? JSON.stringify(templateValues) : null,
          message.type === 'text' ? message.text : null,
          input.callback_data ?? null,
          leaseSeconds(ctx.config.sendDeadlineMs),
          options.sourceKey ?? null,
          message.type === 'template' ? JSON.stringify(message.components) : null,
          'content' in message ? JSON.stringify(message.content) : null,
          options.sentBy ?? null,
        ],
      );
      await options.record?.(q, id);
      if (options.sentBy) {
        after = await publish(ctx, q, 'teammate.replied', {
          workspaceId: principal.workspaceId,
          contactId: rows[0]!.contact_id,
          userId: options.sentBy,
          messageId: id,
        });
      }
      return true;
    },
    // The Idempotency-Key's outcome is written with the message, or neither is; so is what a
    // teammate's reply sets off (`teammate.replied`).
    { transaction: options.record !== undefined || options.sentBy !== undefined },
  ).catch(async (err: unknown) => {
    await giveBack(ctx.db, principal.workspaceId, reserved).catch((e: unknown) =>
      ctx.log.error({ err: e }, "giving back an unstored send's place in the month failed"),
    );
    // The same run step sending at once on two workers: the other one stored the message first.
    if ((err as { constraint?: string }).constraint === 'messages_source_key' && options.sourceKey)
      return false;
    throw err;
  });
  if (!stored) return (await storedMessage(ctx, principal.workspaceId, 'source_key', options.sourceKey!))!;
  await runAfterCommit(after);
  return attemptWithin(ctx, number, id, message, slotNow(reserved));
}

/**
 * Tries the send in the number's send slot (taken as the message was stored); answers within the deadline either way,
 * while the attempt itself runs to its end. A burst past the number's throughput gets no slot within
 * the deadline: the message stays queued for the messages.send job, which sends it when a slot frees.
 */
async function attemptWithin(
  ctx: AppContext,
  number: ConnectedNumber,
  id: string,
  message: OutboundMessage,
  slot: SendSlot,
) {
  const started = Date.now();
  const job = { workspaceId: number.workspaceId, messageId: id };
  if (!slot.granted) {
    await deferSend(ctx, job, slot.retryInMs);
    return { id, wamid: null, status: 'queued' as const };
  }
  const attempt = attemptInSlot(ctx, number, id, message, slot.waitMs);
  const deadline = new Promise<null>((resolve) =>
    setTimeout(resolve, Math.max(0, ctx.config.sendDeadlineMs - (Date.now() - started)), null).unref(),
  );
  const outcome = await Promise.race([attempt, deadline]);
  if (!outcome) {
    // Answered before the attempt ended: should this process die before the attempt records its
    // outcome, nothing else would ever send the message. The messages.send job takes it up once its
    // lease has run out, and does nothing when the attempt finished (the message is no longer queued).
    await ctx.queue?.send('messages.send', job, {
      startAfter: new Date(Date.now() + leaseSeconds(ctx.config.sendDeadlineMs) * 1000),
    });
  }
  const refused = outcome && refusal(outcome.status, outcome.code, outcome.reason, message.type, id);
  if (refused) throw refused;
  return { id, wamid: outcome?.wamid ?? null, status: outcome?.status ?? 'queued' };
}

/** A send refused before it is stored: Meta refuses every send from the number until its owner acts. */
export function pausedNumberError(paused: { code: number; reason: string }): ApiError {
  const why = paused.reason || `error ${paused.code}`;
  return new ApiError(
    'number_paused',
    `The connected number is paused: Meta refuses to send from it (${why}). ${numberProblem(paused.code) ?? 'See Settings › Connected number.'}`,
  );
}

/** The longest a send waits for its slot: the request's deadline less the network's allowance. */
export const sendDeadlineWaitMs = (ctx: AppContext) =>
  Math.max(0, ctx.config.sendDeadlineMs - NETWORK_ALLOWANCE_MS);

/** No slot within the wait: the messages.send job sends the message when one frees up. */
export const deferSend = (
  ctx: AppContext,
  job: { workspaceId: string; messageId: string },
  retryInMs: number,
) => scheduleSend(ctx, job, retryInMs - JOB_SLOT_HEADSTART_MS, false);

/**
 * The attempt in a granted slot, `waitMs` from now; a transient failure hands the message to the
 * messages.send job. Settles with the outcome once recorded; its failures are logged here.
 */
export function attemptInSlot(
  ctx: AppContext,
  number: ConnectedNumber,
  id: string,
  message: OutboundMessage,
  waitMs: number,
): Promise<Outcome> {
  const attempt = releaseSend(number, waitMs, () => deliverMessage(ctx, number, id, message)).then(
    async (outcome) => {
      if (outcome.status === 'queued')
        await scheduleSend(ctx, { workspaceId: number.workspaceId, messageId: id }, 2_000, true);
      return outcome;
    },
  );
  attempt.catch((err) => ctx.log.error({ err, messageId: id }, 'send attempt failed'));
  return attempt;
}

export type Outcome = {
  status: MessageStatus;
  wamid: string | null;
  code?: number;
  reason?: string;
  unconfirmed?: boolean;
  /** Kept queued while the number is paused: its send job comes when the number resumes. */
  held?: boolean;
};

/**
 * One attempt at the network, recorded on the message: accepted with its wamid (or without one, when
 * a 2xx answer did not name it: the status webhook confirms it by its callback data), failed once
 * for a refusal, or left queued (its lease released) for a transient error, for the caller to retry.
 * An attempt that got no answer stays unconfirmed: a retry waits for the network's status webhook.
 * A number paused meanwhile (another send met a refusal that concerns the number) is not called: the
 * message is held queued, as it is when its own refusal concerns the number (pause-number.ts).
 * None is made for a MARKETING template to a contact who opted out since it was stored: it is failed.
 */
export async function deliverMessage(
  ctx: AppContext,
  number: ConnectedNumber,
  id: string,
  message: OutboundMessage,
): Promise<Outcome> {
  if ((await sendingNumber(ctx, number.workspaceId))?.paused) return hold(ctx, number, id);
  if (await failIfOptedOut(ctx, number.workspaceId, id, message))
    return { status: 'failed', wamid: null, code: OPTED_OUT_CODE, reason: OPTED_OUT_REASON };
  try {
    // The network echoes the message id in its status webhooks: what confirms a send whose answer was lost.
    const { wamid, waId } = await clientFor(ctx, number, SEND_TIMEOUT_MS).send(number.phoneNumberId, {
      ...message,
      callbackData: id,
    });
    // The status webhook may have confirmed the message first; the contact's wa_id is stored either way.
    // The network has the message now: a database too busy or away to record it is waited out (a
    // failed attempt would be sent again).
    await untilRecorded(
      () => recordAccepted(ctx, { workspaceId: number.workspaceId, id, wamid, waId }),
      RECORD_ACCEPTED_FOR_MS,
    );
    if (!wamid) {
      ctx.log.warn(
        { messageId: id, numberId: number.id },
        'the network took the message without naming it; its status webhook will bring the wamid',
      );
    }
    return { status: 'accepted', wamid };
  } catch (err) {
    if (!(err instanceof CloudApiError)) throw err;
    if (!err.transient && numberProblem(err.code)) {
      // Held before the pause commits: a resume right after it finds the message among those it sends.
      const held = await hold(ctx, number, id, err.code, err.message);
      await pauseNumber(ctx, number, { code: err.code, reason: err.message });
      return held;
    }
    if (err.transient) {
      await ctx.db.query(
        `UPDATE messages SET sending_until = NULL,
           unconfirmed_since = CASE WHEN $3 THEN coalesce(unconfirmed_since, now()) END
         WHERE workspace_id = $1 AND id = $2 AND status_rank = 0`,
        [number.workspaceId, id, err.unconfirmed],
      );
      return { status: 'queued', wamid: null, code: err.code, unconfirmed: err.unconfirmed };
    }
    await failMessage(ctx, number.workspaceId, id, { code: err.code, reason: err.message }, true);
    if (message.type === 'template') await followTemplateRefusal(ctx, number, message, err.code, err.message);
    return { status: 'failed', wamid: null, code: err.code, reason: err.message };
  }
}

/** The message stays queued with its lease given up: resumeNumber gives it its send job. */
async function hold(ctx: AppContext, number: ConnectedNumber, id: string, code?: number, reason?: string) {
  await ctx.db.query(
    `UPDATE messages SET sending_until = NULL, unconfirmed_since = NULL
     WHERE workspace_id = $1 AND id = $2 AND status_rank = 0`,
    [number.workspaceId, id],
  );
  return { status: 'queued' as const, wamid: null, code, reason, held: true };
}

// How long a send the network took keeps trying to record it through a database outage or overload.
const RECORD_ACCEPTED_FOR_MS = 60_000;

/**
 * The network's refusals that the spec answers with its own statuses; the message is kept as failed
 * and its id goes with the answer (`error.message_id`).
 */
function refusal(
  status: MessageStatus,
  code: number | null | undefined,
  reason: string | null | undefined,
  type: string,
  messageId: string,
): ApiError | null {
  if (status !== 'failed') return null;
  if (code === 131047) {
    const message =
      type === 'template'
        ? `The network refused this template message as a re-engagement message (131047: more than 24 hours since the customer last replied), although a template may open a conversation: ${reason || 'no details given'}`
        : `The network refused ${type === 'text' ? 'free text' : `a ${type} message`}: the 24-hour window is closed; send a template instead`;
    return new ApiError('outside_window', message, undefined, { messageId });
  }
  if (code === OPTED_OUT_CODE)
    return new ApiError('contact_opted_out', reason || OPTED_OUT_REASON, undefined, { messageId });
  return templateRefusal(code ?? 0, reason ?? '', messageId);
}

/**
 * POST /messages answered again for a message it stored (a retry with the Idempotency-Key of a request
 * that died before answering): the message as it stands now, or the refusal it met.
 */
export async function answerOfMessage(ctx: AppContext, workspaceId: string, id: string): Promise<SendResult> {
  const found = await storedMessage(ctx, workspaceId, 'id', id);
  if (!found) throw new ApiError('not_found', `No message ${id}`);
  const refused = refusal(found.status, found.error_code, found.error_reason, found.type, found.id);
  if (refused) throw refused;
  return { id: found.id, wamid: found.wamid, status: found.status };
}

/**
 * A message already stored (an automation step run again, a request retried after a crash): answered
 * as it stands, and its send queued again in case the process that stored it died before trying (the
 * send job takes the message's lease, so this never makes two attempts at once).
 */
async function storedMessage(ctx: AppContext, workspaceId: string, by: 'id' | 'source_key', value: string) {
  const { rows } = await ctx.db.query<
    SendResult & { error_code: number | null; error_reason: string | null; type: string }
  >(
    `SELECT id, wamid, status, error_code, error_reason, type FROM messages WHERE workspace_id = $1 AND ${by} = $2`,
    [workspaceId, value],
  );
  const found = rows[0];
  if (found?.status === 'queued')
    await ctx.queue?.send('messages.send', { workspaceId, messageId: found.id });
  return found;
}
