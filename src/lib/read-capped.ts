/** What was read of a response body: at most the cap, and whether the sender had more. */
export interface CappedBody {
  bytes: Buffer;
  truncated: boolean;
}

/**
 * Reads a response body up to `maxBytes` and cancels the rest, so a huge or endless answer from a
 * server we call costs at most the cap in memory and stops the transfer: `text()` or `arrayBuffer()`
 * would hold all of it. The caller decides what a truncated answer means.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<CappedBody> {
  if (!body) return { bytes: Buffer.alloc(0), truncated: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: Buffer.concat(chunks, size), truncated: false };
      const room = maxBytes - size;
      if (value.byteLength > room) {
        chunks.push(value.subarray(0, room));
        size += room;
        await reader.cancel().catch(() => {});
        return { bytes: Buffer.concat(chunks, size), truncated: true };
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
}

/** readCapped for a Node stream (undici's request): the rest is not read once the cap is passed. */
export async function readCappedStream(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<CappedBody> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop early ends the stream, which closes the connection instead of reading on.
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
