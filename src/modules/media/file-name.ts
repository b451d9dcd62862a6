const MAX = 120;

/**
 * A file name as Parley passes it on and serves it back: no path, no quotes, no control or
 * separator characters (a name is written into Content-Disposition headers), at most 120 characters.
 */
export function safeFileName(given: string | undefined, fallback: string): string {
  const base = (given ?? '').split(/[/\\]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._()-]/gu, '_')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, MAX);
  return cleaned || fallback;
}

/** Content-Disposition for a download: an ASCII name for old clients, the UTF-8 one per RFC 6266. */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
