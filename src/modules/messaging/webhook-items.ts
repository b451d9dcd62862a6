import { networkError, storableText } from './cloud-api/error-code.js';
import type { TemplateStatusUpdate } from './cloud-api/types.js';
import { contentOf, readableText, surroundingsOf } from './inbound-content.js';
import { type MessageStatus, STATUS_RANK } from './status.js';

/** An inbound message as Parley stores it, read from one item of a `messages` change. */
export interface InboundMessage {
  wamid: string;
  from: string;
  at: Date;
  type: string;
  /** For list views: the text, or what a button, list reply, caption or location says (inbound-content.ts). */
  text: string | null;
  name: string | null;
  /** The type's content as the network sent it: a button's payload, a media id, a location... */
  content: Record<string, unknown> | null;
  /** The network's id of the message this one replies or reacts to. */
  contextWamid: string | null;
  /** Meta's `context` as sent (forwarded, frequently_forwarded, referred_product, the replied-to id). */
  context: Record<string, unknown> | null;
  /** The click-to-WhatsApp ad or post the customer came from. */
  referral: Record<string, unknown> | null;
}

/** A status for a message Parley sent, read from one item of a `statuses` array. */
export interface StatusUpdate {
  wamid: string;
  status: MessageStatus;
  callbackData: string | null;
  error?: { code: number; reason: string };
}

/** What was wrong with an item, for the log: never its content. */
export type Read<T> = { ok: true; value: T } | { ok: false; problem: string; wamid?: string };

const WAMID = /^[\x21-\x7e]{1,256}$/;
const WA_ID = /^\d{4,20}$/;
const UNIX_SECONDS = /^\d{1,11}$/;
const MAX_TEXT = 65_536;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One item of a `messages` array, checked against Meta's messages webhook reference. A sender given
 * only as a business-scoped user id (`from_user_id`, WhatsApp usernames) is stored under the phone
 * number the change's `contacts` array gives for that user id, if any: contacts are kept by phone.
 */
export function readInbound(m: unknown, contacts: unknown): Read<InboundMessage> {
  if (!isObject(m)) return { ok: false, problem: 'message is not an object' };
  const wamid = typeof m.id === 'string' && WAMID.test(m.id) ? m.id : undefined;
  if (!wamid) return { ok: false, problem: 'message id is missing or not a message id' };
  const bad = (problem: string) => ({ ok: false as const, problem, wamid });
  const ts = typeof m.timestamp === 'number' ? String(m.timestamp) : m.timestamp;
  if (typeof ts !== 'string' || !UNIX_SECONDS.test(ts))
    return bad('timestamp is missing or not Unix seconds');
  if (typeof m.type !== 'string' || m.type.length === 0 || m.type.length > 64)
    return bad('type is missing or not text');
  const people = Array.isArray(contacts) ? contacts.filter(isObject) : [];
  let from: string | undefined;
  if (m.from !== undefined) {
    if (typeof m.from !== 'string' || !WA_ID.test(m.from)) return bad('from is not a WhatsApp phone number');
    from = m.from;
  } else if (typeof m.from_user_id === 'string') {
    const waId = people.find((c) => c.user_id === m.from_user_id)?.wa_id;
    if (typeof waId !== 'string' || !WA_ID.test(waId))
      return bad('sender given only as a business-scoped user id, with no phone number to keep it under');
    from = waId;
  } else {
    return bad('message has no sender (neither from nor from_user_id)');
  }
  let text: string | null = null;
  if (m.text !== undefined) {
    const body = isObject(m.text) ? m.text.body : undefined;
    if (typeof body !== 'string') return bad('text.body is not text');
    text = storableText(body, MAX_TEXT);
  }
  const content = contentOf(m, m.type);
  text ??= readableText(m.type, content);
  const context = isObject(m.context) ? m.context.id : undefined;
  const reactedTo = m.type === 'reaction' && content ? content.message_id : undefined;
  const replyTo = context ?? reactedTo;
  const contextWamid = typeof replyTo === 'string' && WAMID.test(replyTo) ? replyTo : null;
  const sender =
    people.find((c) => c.wa_id === from) ??
    (typeof m.from_user_id === 'string' ? people.find((c) => c.user_id === m.from_user_id) : undefined);
  const profile = sender?.profile;
  const name = isObject(profile) && typeof profile.name === 'string' ? storableText(profile.name, 256) : null;
  return {
    ok: true,
    value: {
      wamid,
      from,
      at: new Date(Number(ts) * 1000),
      type: m.type,
      text,
      name,
      content,
      contextWamid,
      ...surroundingsOf(m),
    },
  };
}

/**
 * One item of a `statuses` array. A status Parley does not track (Meta adds some) is left alone
 * (`null`); an error's code is normalised, never written to the integer column as the network sent it.
 */
export function readStatus(s: unknown): Read<StatusUpdate | null> {
  if (!isObject(s)) return { ok: false, problem: 'status is not an object' };
  const wamid = typeof s.id === 'string' && WAMID.test(s.id) ? s.id : undefined;
  if (!wamid) return { ok: false, problem: 'status id is missing or not a message id' };
  if (typeof s.status !== 'string') return { ok: false, problem: 'status is not text', wamid };
  if (!Object.hasOwn(STATUS_RANK, s.status)) return { ok: true, value: null };
  const status = s.status as MessageStatus;
  const callbackData =
    typeof s.biz_opaque_callback_data === 'string' && s.biz_opaque_callback_data.length <= 512
      ? s.biz_opaque_callback_data
      : null;
  const first = Array.isArray(s.errors) && isObject(s.errors[0]) ? s.errors[0] : undefined;
  const details = first && isObject(first.error_data) ? first.error_data.details : undefined;
  const error =
    status === 'failed' && first
      ? networkError(first.code, typeof details === 'string' ? details : (first.message ?? first.title))
      : undefined;
  return { ok: true, value: { wamid, status, callbackData, ...(error ? { error } : {}) } };
}

/** A `message_template_status_update` change's value: its names must be text to find the template. */
export function readTemplateStatus(v: Record<string, unknown>): Read<Partial<TemplateStatusUpdate>> {
  const {
    event,
    message_template_id: id,
    message_template_name: name,
    message_template_language: language,
    reason,
  } = v;
  if (typeof event !== 'string' || typeof name !== 'string' || typeof language !== 'string')
    return { ok: false, problem: 'template status update without event, name and language as text' };
  if (id !== undefined && typeof id !== 'string' && typeof id !== 'number')
    return { ok: false, problem: 'template id is neither a number nor text' };
  return {
    ok: true,
    value: {
      event,
      message_template_name: name,
      message_template_language: language,
      message_template_id: id,
      ...(typeof reason === 'string' ? { reason } : {}),
    },
  };
}
