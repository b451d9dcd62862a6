/** What was read of a response body: at most the cap, and whether the sender had more. */
export interface CappedBody {
  bytes: Buffer;
  truncated: boolean;
}

/**
 * Reads a response body (fetch's web stream or undici's Node stream) up to `maxBytes` and stops the
 * rest, so a huge or endless answer from a server we call costs at most the cap in memory and stops
 * the transfer: `text()` or `arrayBuffer()` would hold all of it. The caller decides what a truncated
 * answer means.
 */
export async function readCapped(
  body: AsyncIterable<Uint8Array> | null,
  maxBytes: number,
): Promise<CappedBody> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!body) return { bytes: Buffer.alloc(0), truncated: false };
  // Leaving the loop early cancels the stream, which ends the transfer instead of reading on.
  for await (const chunk of body) {
    const room = maxBytes - size;
    if (chunk.byteLength > room) {
      chunks.push(chunk.subarray(0, room));
      return { bytes: Buffer.concat(chunks, size + room), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  return { bytes: Buffer.concat(chunks, size), truncated: false };
}
