import { createHash } from 'node:crypto';

/** A file went past the bytes it may have: the transfer is stopped there. */
export class TooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
  }
}

/** What passed through a meter: its size and SHA-256 (hex), once the stream has ended. */
export interface Metered {
  size: number;
  sha256: string;
}

/**
 * Reads the start of a stream (up to `bytes`, fewer when it ends sooner) and hands back the whole
 * stream still to be read, so a file's type is known before more of it is taken in.
 */
export async function readHead(
  source: AsyncIterable<Uint8Array>,
  bytes: number,
): Promise<{ head: Buffer; stream: AsyncIterable<Buffer> }> {
  const iterator = source[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < bytes) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    chunks.push(Buffer.from(next.value));
    size += next.value.byteLength;
  }
  const read = Buffer.concat(chunks, size);
  async function* whole() {
    if (read.length > 0) yield read;
    if (ended) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      yield Buffer.from(next.value);
  }
  return { head: read.subarray(0, bytes), stream: whole() };
}

/**
 * Passes a stream through, counting and hashing it, and throws TooLarge as soon as it goes past
 * `maxBytes`: nothing past the cap is ever held. `done` holds the totals once the stream has ended.
 */
export function meter(source: AsyncIterable<Uint8Array>, maxBytes: number) {
  const hash = createHash('sha256');
  const totals: { done: Metered | null } = { done: null };
  async function* counted() {
    let size = 0;
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new TooLarge(maxBytes);
      hash.update(chunk);
      yield Buffer.from(chunk);
    }
    totals.done = { size, sha256: hash.digest('hex') };
  }
  return { stream: counted(), totals };
}
