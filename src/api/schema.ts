import { type TSchema, Type } from 'typebox';
import { CONTROL_CHARACTERS } from '../lib/one-line.js';

// PostgreSQL cannot store U+0000 in text or jsonb, nor a lone UTF-16 surrogate in jsonb (JSON.stringify
// writes it as \udc00, which jsonb refuses): refuse both at the door instead of failing deep inside.
// Ajv matches patterns in unicode mode, so paired surrogates (emoji) pass.
const NO_NUL = '^[^\\u0000]*$';
const NO_NUL_OR_LONE_SURROGATE = '^[^\\u0000\\uD800-\\uDFFF]*$';

/**
 * Text that may hold lone surrogates, for callers that repair them before storing (lead intake turns
 * them into U+FFFD rather than refuse a visitor's form); U+0000 is still refused.
 */
export function LenientText(options: { minLength?: number; maxLength: number }) {
  return Type.String({ pattern: NO_NUL, ...options });
}

// Names and labels people give things show in e-mails, CSV files and one-line places (a subject, a
// list): besides the above, no control characters and no line or paragraph separator.
export const NAME_PATTERN = `^[^${CONTROL_CHARACTERS}\\uD800-\\uDFFF]*$`;

/** A name or label stored for people to read: one line of printable text. */
export function NameText(options: { minLength?: number; maxLength: number; description?: string }) {
  return Type.String({ pattern: NAME_PATTERN, ...options });
}

export function Text(options: {
  minLength?: number;
  maxLength: number;
  description?: string;
  format?: string;
}) {
  return Type.String({ pattern: NO_NUL_OR_LONE_SURROGATE, ...options });
}

/**
 * The key of a `Type.Record`. TypeBox's `Type.String()` key becomes the pattern `^.*$`, which no key
 * holding a line break matches, and such a key's value then escaped validation (a form field named
 * "\n" carrying objects answered 500).
 */
export const AnyKey = Type.String({ pattern: '^[\\s\\S]*$' });

export const ErrorResponse = Type.Object(
  {
    result: Type.Literal(false),
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      request_id: Type.String(),
      details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
      message_id: Type.Optional(
        Type.String({
          description: 'A send the network refused: the failed message stored (GET /messages/{id})',
        }),
      ),
    }),
  },
  {
    $id: 'ErrorResponse',
    description: 'Every REST error; details only on 422, message_id only on a refused send',
  },
);

/** The error statuses a route can answer with, for its OpenAPI entry. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, Type.Ref('ErrorResponse')]));
}

/** A moment in ISO 8601: the response serializer writes the database's Date as one. */
export const Timestamp = Type.String({ format: 'date-time' });
export const MaybeTimestamp = Type.Union([Timestamp, Type.Null()]);
export const MaybeText = Type.Union([Type.String(), Type.Null()]);

/**
 * How many items a page of a REST v1 list holds: 1 to 200, 50 unless asked. The spec names `limit`
 * but no range; every list takes the same one (docs/DECISIONS.md).
 */
export const PAGE_LIMIT_MAX = 200;
export const PageLimit = Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, default: 50 });

/** The `cursor` of a cursor-paged list: the `next_cursor` of the page before, as sent. */
export const PageCursor = Text({
  minLength: 1,
  maxLength: 512,
  description: 'The next_cursor of the page before',
});

/** What a page of a list says beside its items. */
export const PageFields = { has_next_page: Type.Boolean(), limit: Type.Integer(), offset: Type.Integer() };

/** The answer of a change that has nothing more to say. */
export const Done = Type.Object({ result: Type.Literal(true) });
