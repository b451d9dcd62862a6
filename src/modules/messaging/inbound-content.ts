import { storableText } from './cloud-api/error-code.js';

const MAX_TEXT = 65_536;
const MAX_DEPTH = 8;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The types Meta's messages webhook reference documents, each with the field that holds its content.
 * `unsupported` (and any type Meta adds) keeps the item's `errors`, which say why it came without one.
 */
const CONTENT_FIELD: Record<string, string> = {
  text: 'text',
  reaction: 'reaction',
  image: 'image',
  video: 'video',
  audio: 'audio',
  document: 'document',
  sticker: 'sticker',
  location: 'location',
  contacts: 'contacts',
  interactive: 'interactive',
  button: 'button',
  order: 'order',
  system: 'system',
};

/** A JSON value as PostgreSQL's jsonb can keep it: no NUL characters or lone surrogates in strings. */
function storable(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return storableText(value, MAX_TEXT);
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => storable(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [storableText(k, 256), storable(v, depth + 1)]),
  );
}

/** The structured content of one inbound message, as the network sent it, or null when it has none. */
export function contentOf(m: Record<string, unknown>, type: string): Record<string, unknown> | null {
  const field = CONTENT_FIELD[type];
  const value = field ? m[field] : undefined;
  if (field === 'contacts') return Array.isArray(value) ? { contacts: storable(value) } : null;
  if (isObject(value)) return storable(value) as Record<string, unknown>;
  if (Array.isArray(m.errors)) return { errors: storable(m.errors) };
  return null;
}

/**
 * What Meta sends beside the content: `context` (the replied-to id, `forwarded`, `frequently_forwarded`,
 * `referred_product` for a question about a catalog item) and `referral` (the click-to-WhatsApp ad or
 * post the customer came from). Kept as sent, or null when absent.
 */
export function surroundingsOf(m: Record<string, unknown>): {
  context: Record<string, unknown> | null;
  referral: Record<string, unknown> | null;
} {
  const keep = (v: unknown) => (isObject(v) ? (storable(v) as Record<string, unknown>) : null);
  return { context: keep(m.context), referral: keep(m.referral) };
}

const textOf = (v: unknown) => (typeof v === 'string' && v !== '' ? storableText(v, MAX_TEXT) : null);

/**
 * What a list of messages shows for one: a text's body, a button's or a list row's title, a media
 * caption (a document's file name), a location's name (or address), a reaction's emoji, a shared
 * contact's name. Null for what has nothing to read (audio, a sticker, a removed reaction).
 */
export function readableText(type: string, c: Record<string, unknown> | null): string | null {
  if (!c) return null;
  switch (type) {
    case 'text':
      return textOf(c.body);
    case 'button':
      return textOf(c.text) ?? textOf(c.payload);
    case 'interactive': {
      const reply = isObject(c.button_reply)
        ? c.button_reply
        : isObject(c.list_reply)
          ? c.list_reply
          : undefined;
      return reply ? textOf(reply.title) : null;
    }
    case 'image':
    case 'video':
      return textOf(c.caption);
    case 'document':
      return textOf(c.caption) ?? textOf(c.filename);
    case 'location':
      return textOf(c.name) ?? textOf(c.address);
    case 'reaction':
      return textOf(c.emoji);
    case 'contacts': {
      const first = Array.isArray(c.contacts) && isObject(c.contacts[0]) ? c.contacts[0] : undefined;
      return first && isObject(first.name) ? textOf(first.name.formatted_name) : null;
    }
    default:
      return null;
  }
}

/** The payload of a tapped quick-reply button, or the id of the interactive button or list row tapped. */
export function buttonPayload(c: Record<string, unknown> | null): string | null {
  if (!c) return null;
  if (typeof c.payload === 'string') return c.payload;
  const reply = isObject(c.button_reply) ? c.button_reply : isObject(c.list_reply) ? c.list_reply : undefined;
  return reply && typeof reply.id === 'string' ? reply.id : null;
}
