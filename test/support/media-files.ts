/** Files whose first bytes say their type, padded to `size` bytes (for type sniffing and size limits). */
const padded = (head: Buffer, size: number) =>
  Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 0x20)]);

export const jpeg = (size = 2_000) =>
  padded(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), size);

export const pdf = (size = 2_000) =>
  padded(Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n', 'latin1'), size);

/** A WebP with a VP8X header; `animated` sets its animation flag. */
export function webp(size: number, animated = false) {
  const head = Buffer.alloc(30);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(size - 8, 4);
  head.write('WEBPVP8X', 8, 'latin1');
  head.writeUInt32LE(10, 16);
  head[20] = animated ? 0x02 : 0;
  return padded(head, size);
}

/** A multipart/form-data body of the given fields and one file, as a browser or curl -F writes it. */
export function multipart(
  parts: (
    | { name: string; value: string }
    | { name: string; file: Buffer; filename: string; type?: string }
  )[],
) {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('value' in p) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`,
        ),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n` +
            `content-type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        p.file,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
