import { ApiError } from './errors.js';

/** Where a page ended in a list ordered by a moment and an id: microseconds since 1970 (text) and the id. */
export interface PageKey {
  micros: string;
  id: string;
}

const MICROS = /^[0-9]{1,17}$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The opaque `next_cursor` of a page: its last row's sort key, so the next page starts after it
 * whatever was added or removed meanwhile (an offset would skip or repeat rows then).
 */
export function encodeCursor(key: PageKey): string {
  return Buffer.from(JSON.stringify([key.micros, key.id])).toString('base64url');
}

/** The key a cursor holds; a cursor that is not one of ours is a 422 at `field`. */
export function decodeCursor(cursor: string, field = 'cursor'): PageKey {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parts = null;
  }
  if (
    Array.isArray(parts) &&
    parts.length === 2 &&
    typeof parts[0] === 'string' &&
    MICROS.test(parts[0]) &&
    typeof parts[1] === 'string' &&
    ID.test(parts[1])
  )
    return { micros: parts[0], id: parts[1] };
  throw ApiError.invalid(
    field,
    'This is not a cursor of this list: send the next_cursor of the page before.',
  );
}
