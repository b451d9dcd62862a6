import type { Readable } from 'node:stream';

/**
 * Where media bytes are kept (inbound media downloaded from the network, files uploaded to send),
 * by a key Parley makes (`<workspace id>/<media id>`). Chosen once from MEDIA_STORE (config/env.ts):
 * the filesystem under DATA_DIR, or the PostgreSQL database for servers that share no disk.
 */
export interface MediaStore {
  /**
   * Writes the stream under `key`, replacing what was there. Whatever the stream throws (a size cap,
   * a broken transfer) is thrown again and leaves nothing under the key.
   */
  put(key: string, body: AsyncIterable<Uint8Array>): Promise<void>;
  /** The bytes under `key`, streamed, or null when there are none. */
  get(key: string): Promise<Readable | null>;
  /** Removes what is under `key`; nothing there is not an error. */
  delete(key: string): Promise<void>;
}

const KEY = /^[A-Za-z0-9_-]{1,100}(\/[A-Za-z0-9_-]{1,100}){0,3}$/;

/** Keys are Parley's own ids; anything else (`..`, absolute paths) never reaches a store. */
export function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a media store key: ${JSON.stringify(key)}`);
  return key;
}
